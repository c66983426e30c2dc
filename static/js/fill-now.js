// "Now" beside a time the client may give: fills in the time on the client's
// own clock only when pressed, so a blank they left is never a time they gave.
(function () {
  "use strict";
  function localNow(zone) {
    var parts = {};
    new Intl.DateTimeFormat("en-GB", {
      timeZone: zone || undefined, year: "numeric", month: "2-digit", day: "2-digit",
      hour: "2-digit", minute: "2-digit", hourCycle: "h23"
    }).formatToParts(new Date()).forEach(function (part) { parts[part.type] = part.value; });
    return parts.year + "-" + parts.month + "-" + parts.day + "T" + parts.hour + ":" + parts.minute;
  }
  document.querySelectorAll("[data-fill-now]").forEach(function (button) {
    var input = document.getElementById(button.getAttribute("data-fill-now"));
    if (!input) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      input.value = localNow(button.getAttribute("data-time-zone"));
      // The autosave listens for typing: a pressed button is typing too.
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.dispatchEvent(new Event("change", { bubbles: true }));
      input.focus();
    });
  });
})();
