// The portal session, as the page sees it: a gentle warning before the idle
// timeout, and the once-only quick-exit note dismissed on the server (never
// remembered in browser storage). The server enforces the timeout itself
// (clients.middleware); this only warns, and clears the screen when it ends.
(function () {
  "use strict";
  var body = document.body;
  var idleMs = parseInt(body.getAttribute("data-idle-seconds"), 10) * 1000;
  var endedUrl = body.getAttribute("data-idle-url");
  // The page clears 10 s after the server's idle deadline counted from its own
  // last request, but the server notes activity at most every 30 s, so its
  // deadline may come 30 s sooner: warn a minute before the earliest of them.
  var WARN_BEFORE_MS = (60 + 30 + 10) * 1000;
  var dialog = document.getElementById("idle-warning");
  var stayForm = document.getElementById("stay-signed-in");
  var lastActivity = Date.now();
  var warned = false;
  var focusBefore = null;  // where the client was before the warning took focus

  function csrf(form) {
    var input = form.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  // Anything that reached the server counts as activity (page loads,
  // autosaves); autosave.js tells us with this event.
  function active() {
    lastActivity = Date.now();
    if (warned) {
      warned = false;
      var focus = document.activeElement;
      var focusWasInDialog = dialog.contains(focus);
      dialog.hidden = true;
      // Hiding the dialog drops its focus to <body>: a keyboard or screen-reader
      // user would start again from the top of the page. Put them back where
      // they were, unless they have since moved on (the dialog does not trap focus).
      if (focusWasInDialog || !focus || focus === document.body) {
        var back = focusBefore && focusBefore.isConnected ? focusBefore : document.getElementById("main");
        if (back) back.focus();
      }
      focusBefore = null;
    }
  }
  document.addEventListener("portal:activity", active);

  // A form with no autosave (changes to a sent entry, a note added to one) is sent as the warning
  // shows, while the session still runs: its words are on no server yet,
  // and the warning says that what was written is saved.
  var saveBeforeIdle = document.querySelector("form[data-save-before-idle]");
  // A form the server sent back refused, holding words the client typed for
  // them to correct (data-refused-words, homework.portal): they are not sent,
  // so the page starts as unsaved, as though typed here: leaving asks first,
  // and the quick exit and "Sign out" carry them.
  var refusedWords = !!saveBeforeIdle && saveBeforeIdle.hasAttribute("data-refused-words");
  var unsaved = refusedWords;
  // Once per warning: a send stopped offline is not retried in a loop. Words
  // just sent back refused count as tried: sent again unchanged they would be
  // refused again, and a send at every warning would keep the session alive
  // for ever, the words on screen. Changed by the client, they go once more.
  var triedSending = refusedWords;
  // Typed since this page opened, and so on no server yet: such a page stays
  // at the idle end (below). Words sent back refused were kept on the server
  // as the refusal came (the entry's unsent note, in the note box next time:
  // homework.portal.entry_pages), so their page clears at the idle end as any other.
  var typedHere = false;
  if (saveBeforeIdle) {
    saveBeforeIdle.addEventListener("input", function () {
      unsaved = true;
      typedHere = true;
      triedSending = false;
    });
    // Only a send that really goes out counts: listened for on the document,
    // after the form's own listeners, so one that send-guard.js stopped
    // (offline) leaves the changes marked as not saved.
    document.addEventListener("submit", function (event) {
      if (event.target === saveBeforeIdle && !event.defaultPrevented) unsaved = false;
    });
    // Leaving any other way (a link, Back, a reload, closing the tab) would
    // lose them without a word: the browser asks first, with its own prompt.
    // Not when the page leaves on purpose and the changes go with it: sent,
    // by their button or as the idle warning shows (send-guard.js says so
    // with "portal:sending": it leaves with form.submit() once the token is
    // checked, which fires no submit event), or the quick exit and signing
    // out, in this tab or another (quick-exit.js says so with "portal:ending").
    var leavingOnPurpose = window.portalEnding === true;  // begun before this script ran
    saveBeforeIdle.addEventListener("portal:sending", function () { leavingOnPurpose = true; });
    document.addEventListener("portal:ending", function () { leavingOnPurpose = true; });
    // "Leave it as it was" throws the changes away, as it says: it is the
    // client's answer already, not a way out to ask about.
    document.querySelectorAll("a[data-discards-changes]").forEach(function (link) {
      link.addEventListener("click", function () { leavingOnPurpose = true; });
    });
    window.addEventListener("beforeunload", function (event) {
      if (!unsaved || leavingOnPurpose) return;
      event.preventDefault();
      event.returnValue = true;  // browsers from before preventDefault() was enough
    });
    // The quick exit carries these changes too (quick-exit.js), saved before it signs out.
    window.portalPendingDraft = function () {
      return unsaved ? { edit: true, data: new FormData(saveBeforeIdle) } : null;
    };
    // And the idle timeout keeps a page whose changes are on no server yet.
    window.portalDraftPending = function () { return unsaved && typedHere; };
    // Signing out, in this tab or another, sends the changes first
    // (quick-exit.js), in a request that outlives the page; the sign-out
    // waits for the answer. Its redirect to the entry's page is not followed:
    // Chromium never settles a keepalive fetch that follows one.
    window.portalSaveNow = function () {
      if (!unsaved) return null;
      return fetch(saveBeforeIdle.action, {
        method: "POST", body: new FormData(saveBeforeIdle), credentials: "same-origin", keepalive: true,
        redirect: "manual",
      }).catch(function () { /* signed out without them: the page is going anyway */ });
    };
  }

  function tick() {
    var idle = Date.now() - lastActivity;
    if (idle >= idleMs && window.portalDraftPending && window.portalDraftPending()) {
      // Words not yet on the server (offline): the page is their only copy,
      // so it stays; autosave.js says what happened when it next tries.
      return;
    }
    if (idle >= idleMs) {
      // The server has ended the session by now; leave nothing on screen.
      document.dispatchEvent(new CustomEvent("portal:ending"));
      document.documentElement.style.visibility = "hidden";
      window.location.replace(endedUrl);
      return;
    }
    if (!warned && idle >= idleMs - WARN_BEFORE_MS) {
      if (unsaved && !triedSending) {
        triedSending = true;
        saveBeforeIdle.requestSubmit();
        return;
      }
      warned = true;
      // Words still only on this page (offline, or refused): the warning must
      // not say they are saved.
      var text = document.getElementById("idle-text");
      var pending = window.portalDraftPending && window.portalDraftPending();
      if (text && pending && text.getAttribute("data-pending")) {
        text.textContent = text.getAttribute("data-pending");
      }
      var current = document.activeElement;
      focusBefore = current && current !== document.body ? current : null;
      dialog.hidden = false;
      var title = document.getElementById("idle-title");
      if (title) title.focus();
    }
  }
  setInterval(tick, 5000);

  if (stayForm) {
    stayForm.addEventListener("submit", function (event) {
      event.preventDefault();
      fetch(stayForm.action, {
        method: "POST",
        credentials: "same-origin",
        headers: { "X-CSRFToken": csrf(stayForm), "Accept": "application/json" },
      }).then(function (res) {
        if (res.ok) active();
        else window.location.replace(endedUrl);
      }).catch(function () { /* offline: the warning stays up */ });
    });
  }

  var noteForm = document.querySelector("form[data-dismiss-note]");
  if (noteForm) {
    noteForm.addEventListener("submit", function (event) {
      event.preventDefault();
      var note = document.getElementById("exit-note");
      fetch(noteForm.action, {
        method: "POST",
        credentials: "same-origin",
        headers: { "X-CSRFToken": csrf(noteForm), "Accept": "application/json" },
      }).then(function (res) {
        if (res.ok) {
          note.remove();
          document.getElementById("main").focus();
        }
      }).catch(function () { noteForm.submit(); });
    });
  }
})();
