// The 0–10 sliders show and announce their number as they move.
(function () {
  "use strict";
  document.querySelectorAll("input[data-scale]").forEach(function (input) {
    var pattern = input.getAttribute("data-valuetext") || "%(value)s / 10";
    function update() {
      var out = input.parentElement.querySelector("output");
      if (out) out.value = input.value;
      input.setAttribute("aria-valuetext", pattern.replace("%(value)s", input.value));
    }
    input.addEventListener("input", update);
    update();
  });
})();
