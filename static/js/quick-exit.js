// Quick exit: the visible button, or Shift pressed three times on its own.
// Leaves for the practice's neutral site with location.replace (so Back does
// not return here) and ends the session with a beacon on the way out.
(function () {
  "use strict";
  var form = document.getElementById("quick-exit");
  if (!form) return;
  var exitUrl = form.getAttribute("data-exit-url");
  var WINDOW_MS = 1500;
  var presses = [];

  function leave(event) {
    if (event) event.preventDefault();
    try {
      var data = new FormData(form);
      data.append("beacon", "1");
      // Words typed a moment ago and not saved yet travel with the exit (autosave.js).
      var pending = window.portalPendingDraft ? window.portalPendingDraft() : null;
      if (pending) {
        data.append("draft-assignment", pending.assignment);
        pending.data.forEach(function (value, name) {
          if (name !== "csrfmiddlewaretoken") data.append("draft-" + name, value);
        });
      }
      navigator.sendBeacon(form.action, data);
    } catch (e) { /* leaving matters more than the beacon */ }
    document.documentElement.style.visibility = "hidden";
    window.location.replace(exitUrl);
  }

  form.addEventListener("submit", leave);
  document.addEventListener("keydown", function (event) {
    // Not Escape: it also stops a page loading. Shift alone, three times.
    if (event.key !== "Shift") { presses = []; return; }
    if (event.repeat) return;
    var now = Date.now();
    presses = presses.filter(function (t) { return now - t < WINDOW_MS; });
    presses.push(now);
    if (presses.length >= 3) leave();
  });
})();
