// The download's progress page: asks how the PDF is coming along every few
// seconds and says so in the page's live region, then shows the button to
// download it (or to try again). No reload: reloading would move a screen
// reader back to the top. Without this script, "Check again" does the same.
(function () {
  "use strict";

  var EVERY_MS = 3000;

  function show(state) {
    document.querySelectorAll("[data-show-when]").forEach(function (part) {
      part.hidden = part.getAttribute("data-show-when") !== state;
    });
  }

  function start() {
    var status = document.querySelector("[data-download-status]");
    if (!status || status.getAttribute("data-state") !== "preparing") return;
    var url = status.getAttribute("data-status-url");

    function ask() {
      fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
        .then(function (res) { return res.ok ? res.json() : null; })
        .then(function (data) {
          if (!data) { window.setTimeout(ask, EVERY_MS); return; }
          // Only a changed sentence is set, so it is read out once.
          if (status.textContent !== data.message) status.textContent = data.message;
          show(data.state);
          if (data.state === "preparing") window.setTimeout(ask, EVERY_MS);
        })
        .catch(function () { window.setTimeout(ask, EVERY_MS); });
    }
    window.setTimeout(ask, EVERY_MS);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
