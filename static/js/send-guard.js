// Sending with no connection: a form posted offline leaves the page for the
// browser's error page, and takes with it whatever the server does not have
// yet (a changed entry and a note are never autosaved; a new one may have
// words typed since its last save). Offline, the page stays, says so, and the client
// sends again once the connection is back. Loaded before autosave.js, so an
// aborted send never reaches autosave's own submit handler.
//
// Sending with a stale page: every sign-in gives the session a new security
// token (Django's rule), so a page open from before the client signed in
// again, here or in another tab, posts an old one and meets "This page had
// expired"; after a sign-out there is no session to post to at all. A page
// never leaves with words the server does not hold: it asks for the current
// token just before it is sent (window.portalFreshToken, which autosave.js
// uses too), and stays, saying why, when the client is signed out.
(function () {
  "use strict";

  // "fresh" (the form now carries the session's current token), "signed_out",
  // or "unreachable" (no answer: offline, or the server is down).
  window.portalFreshToken = function (form) {
    var url = form.getAttribute("data-token-url");
    if (!url) return Promise.resolve("unreachable");
    return fetch(url, {
      credentials: "same-origin",
      redirect: "manual",  // signed out: the way to the sign-in page, not the page itself
      headers: { "Accept": "application/json" },
    })
      .then(function (res) {
        if (res.type === "opaqueredirect" || res.status === 401 || res.status === 403) {
          return "signed_out";
        }
        if (!res.ok) return "unreachable";
        return res.json().then(function (data) {
          if (!data || !data.token) return "signed_out";
          document.querySelectorAll("input[name=csrfmiddlewaretoken]").forEach(function (input) {
            input.value = data.token;
          });
          return "fresh";
        });
      })
      .catch(function () { return "unreachable"; });
  };

  // The entry form (do.html), or the note added to a sent entry (entry.html):
  // each says where to ask for a token.
  var form = document.querySelector("form[data-token-url]");
  var note = document.getElementById("send-offline");
  if (!form || !note) return;
  var failed = document.getElementById("send-failed");
  var messages = document.getElementById("autosave-messages");
  var T = messages ? JSON.parse(messages.textContent) : {};
  // A form that autosaves is sent by autosave.js, which makes sure the server
  // holds its words first and asks for the token itself.
  var autosaves = form.hasAttribute("data-autosave-url");
  var sending = false;

  function notSent(message) {
    sending = false;
    if (!failed || !message) return;
    failed.textContent = message;
    failed.hidden = false;
    failed.focus();
  }

  form.addEventListener("submit", function (event) {
    if (navigator.onLine === false) {
      event.preventDefault();
      event.stopImmediatePropagation();
      note.hidden = false;
      note.focus();
      return;
    }
    note.hidden = true;
    if (autosaves) return;
    // Stopped here even when all is well: the page leaves with form.submit()
    // once the token is fresh (session.js counts only a send not stopped as
    // saved, and this one is not saved until the page has left).
    event.preventDefault();
    if (sending) return;  // a second click while the first is on its way
    sending = true;
    if (failed) failed.hidden = true;
    window.portalFreshToken(form).then(function (state) {
      if (state === "fresh") {
        // The page leaves with the changes: session.js does not ask first.
        form.dispatchEvent(new CustomEvent("portal:sending"));
        form.submit();
      } else if (state === "signed_out") {
        notSent(T.send_signed_out);
      } else {
        notSent(T.send_unreachable);
      }
    });
  });
  window.addEventListener("pageshow", function () { sending = false; });
  // Back from another tab, where the client may have signed in again (a new
  // token): what goes out as this page closes, or with the quick exit,
  // cannot stop to ask for one, so the page asks now, while it can. Signed
  // out, the next save or send finds out and says so.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") window.portalFreshToken(form);
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
