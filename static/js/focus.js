// A page that opens on a problem (a refused form, a change made in another
// tab) opens with focus on it: a screen reader reads it at once, and the
// keyboard starts from there (the summary links to each field). role=alert
// alone is not reliably read when a page loads. Without this script the
// same words are still the first thing in the form, just not focused.
(function () {
  "use strict";
  var target = document.querySelector("[data-focus-on-load]");
  if (target) target.focus();
})();
