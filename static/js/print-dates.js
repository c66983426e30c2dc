// "Print for other dates" opens the PDF in a new tab: a choice the server
// would refuse is better stopped here, before the tab opens. This stops a day
// after the last the server prints, and an end date before the start date,
// in the page's own words. The server still checks.
(function () {
  "use strict";

  function watch(form) {
    var since = form.querySelector('input[name="since"]');
    var until = form.querySelector('input[name="until"]');
    if (!since || !until) return;
    var message = form.getAttribute("data-end-before-start") || "";
    // Typed as the admin's date fields take them (its first DATE_INPUT_FORMATS).
    function read(value) {
      if (!value || typeof get_format !== "function" || !value.strptime) return null;
      var day = value.strptime(get_format("DATE_INPUT_FORMATS")[0]);
      return isNaN(day) ? null : day;
    }
    // The last day the server prints (its pickers' max before they were text).
    var latest = (form.getAttribute("data-latest") || "").split("-");
    var last = latest.length === 3 ? new Date(+latest[0], +latest[1] - 1, +latest[2]) : null;
    var tooLate = form.getAttribute("data-after-latest") || "";
    function late(day) {
      return Boolean(last && day && day > last);
    }
    function check() {
      var from = read(since.value), to = read(until.value);
      since.setCustomValidity(late(from) ? tooLate : "");
      until.setCustomValidity(late(to) ? tooLate : from && to && to < from ? message : "");
    }
    since.addEventListener("change", check);
    until.addEventListener("change", check);
    // The admin's calendar fills the field without a change event: check on submit too.
    form.addEventListener("submit", function (event) {
      check();
      if (!form.checkValidity()) {
        event.preventDefault();
        (since.validity.valid ? until : since).reportValidity();
      }
    });
    check();
  }

  document.querySelectorAll("form.ws-print-dates").forEach(watch);
})();
