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
    var floor = until.getAttribute("min") || "";
    function check() {
      // Dates as the pickers give them (YYYY-MM-DD) compare as text.
      var before = since.value && until.value && until.value < since.value;
      until.setCustomValidity(before ? message : "");
      until.min = since.value || floor;
    }
    since.addEventListener("change", check);
    until.addEventListener("change", check);
    check();
  }

  document.querySelectorAll("form.ws-print-dates").forEach(watch);
})();
