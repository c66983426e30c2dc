// "Copy the link" beside a link shown once: copies it and says so to everyone, screen readers
// included (the status beside it is a live region). Shown only where script runs.
(function () {
  "use strict";
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var box = document.getElementById(button.dataset.copy);
    var status = button.parentNode.querySelector("[role=status]");
    if (!box || !status) return;
    button.hidden = false;
    function say(words) {
      status.textContent = "";
      // A fresh change after a tick, so a second "Copied" is announced too.
      window.setTimeout(function () { status.textContent = words; }, 50);
    }
    function byHand() {
      box.focus();
      box.select();
      say(button.dataset.notCopied);
    }
    button.addEventListener("click", function () {
      if (!navigator.clipboard) { byHand(); return; }
      navigator.clipboard.writeText(box.value).then(function () {
        say(button.dataset.copied);
      }, byHand);
    });
  });
})();
