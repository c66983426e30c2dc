// The exercise editor's preview follows the form: a change (typed, chosen, or
// written by the question editor) asks the server to draw it again, a moment
// after the last one. Without this script the "Show the preview" button does
// the same when pressed.
(function () {
  "use strict";

  function ready(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }

  ready(function () {
    var form = document.getElementById("exercise_form");
    var button = document.getElementById("exercise-preview-button");
    if (!form || !button) return;
    var timer = null;
    function refresh() {
      clearTimeout(timer);
      timer = setTimeout(function () {
        if (form.requestSubmit) form.requestSubmit(button);
        else button.click();
      }, 400);
    }
    form.addEventListener("input", refresh);
    form.addEventListener("change", refresh);
    form.addEventListener("options:written", refresh);
  });
})();
