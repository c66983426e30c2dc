// A page that opens on a problem (a refused form, a change made in another
// tab) opens with focus on it: a screen reader reads it at once, and the
// keyboard starts from there (the summary links to each field). role=alert
// alone is not reliably read when a page loads. Without this script the
// same words are still the first thing in the form, just not focused.
(function () {
  "use strict";
  var target = document.querySelector("[data-focus-on-load]");
  if (target) target.focus();

  // A summary link's own jump brings the box to the top of the screen, which
  // leaves its question and what is wrong with it (both above the box) out of
  // sight, or under the quick-exit bar. Show the whole field, then focus the box.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest(".error-summary a[href^='#']");
    if (!link) return;
    var field = document.getElementById(link.getAttribute("href").slice(1));
    if (!field) return;
    event.preventDefault();
    (field.closest(".field") || field).scrollIntoView({ block: "start" });
    field.focus({ preventScroll: true });
  });
})();
