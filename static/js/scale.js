// The 0–10 sliders show and announce their number as they move, including
// sliders in rows added later (boundary steps), hence one listener for all.
(function () {
  "use strict";
  function update(input) {
    var pattern = input.getAttribute("data-valuetext") || "%(value)s / 10";
    var out = input.parentElement.querySelector("output");
    if (out) out.value = input.value;
    input.setAttribute("aria-valuetext", pattern.replace("%(value)s", input.value));
  }
  document.querySelectorAll("input[data-scale]").forEach(update);
  document.addEventListener("input", function (event) {
    var input = event.target;
    if (input.matches && input.matches("input[data-scale]")) update(input);
  });
})();
