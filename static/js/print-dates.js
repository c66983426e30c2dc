// "Print for other dates" opens the PDF in a new tab: a choice the server
// would refuse is better stopped here, before the tab opens. The date
// pickers' min and max stop days out of range; this stops an end date
// before the start date, in the page's own words. The server still checks.
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
    function check() {
      var from = read(since.value), to = read(until.value);
      until.setCustomValidity(from && to && to < from ? message : "");
    }
    since.addEventListener("change", check);
    until.addEventListener("change", check);
    // The admin's calendar fills the field without a change event: check on submit too.
    form.addEventListener("submit", function (event) {
      check();
      if (!form.checkValidity()) {
        event.preventDefault();
        until.reportValidity();
      }
    });
    check();
  }

  document.querySelectorAll("form.ws-print-dates").forEach(watch);
})();
