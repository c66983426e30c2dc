// Sending with no connection: a form posted offline leaves the page for the
// browser's error page, and takes with it whatever the server does not have
// yet (a changed entry is never autosaved; a new one may have words typed
// since its last save). Offline, the page stays, says so, and the client
// sends again once the connection is back. Loaded before autosave.js, so an
// aborted send never reaches autosave's own submit handler.
(function () {
  "use strict";
  var form = document.querySelector("form.entry-form");
  var note = document.getElementById("send-offline");
  if (!form || !note) return;
  form.addEventListener("submit", function (event) {
    if (navigator.onLine !== false) { note.hidden = true; return; }
    event.preventDefault();
    event.stopImmediatePropagation();
    note.hidden = false;
    note.focus();
  });
  window.addEventListener("online", function () {
    // Hiding the note drops the focus on it to <body>: move it to the button
    // the note asked for ("send it again once the connection is back").
    var focused = document.activeElement === note;
    note.hidden = true;
    if (focused) {
      var send = form.querySelector("button[type=submit]");
      if (send) send.focus();
    }
  });
})();
