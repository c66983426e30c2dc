// Quick exit: the visible button, or Shift pressed three times on its own.
// The screen clears at once; the session is ended by a request that outlives
// the page; then we leave for the practice's neutral site with
// location.replace, so Back does not return here. We wait for the sign-out
// for at most a quarter of a second, so that Back, pressed at once, finds the
// session already gone.
(function () {
  "use strict";
  var form = document.getElementById("quick-exit");
  if (!form) return;
  var exitUrl = form.getAttribute("data-exit-url");
  var WINDOW_MS = 1500;
  var WAIT_FOR_SIGN_OUT_MS = 250;
  var presses = [];
  var leaving = false;

  function exitData(withDraft) {
    var data = new FormData(form);
    data.append("beacon", "1");
    // Words typed a moment ago and not saved yet travel with the exit
    // (autosave.js for new work; session.js for changes to a sent entry or a note).
    var pending = withDraft && window.portalPendingDraft ? window.portalPendingDraft() : null;
    if (pending) {
      // A draft of new work names its assignment; changes to a sent entry say
      // so, and a note says so with its own field (homework.portal.quick_exit).
      if (pending.edit) data.append("draft-edit", "1");
      else data.append("draft-assignment", pending.assignment);
      pending.data.forEach(function (value, name) {
        if (name !== "csrfmiddlewaretoken") data.append("draft-" + name, value);
      });
    }
    return data;
  }

  // The portal's other tabs leave too: a second tab left open on the
  // history would otherwise stay on screen. A message between open tabs of
  // this site, kept nowhere.
  // Such a tab sends its own unsaved words on the way (they are on no server
  // yet), and the tab that started the exit signs out a moment later, so
  // those words arrive while the session still runs.
  var tabs = "BroadcastChannel" in window ? new BroadcastChannel("portal-quick-exit") : null;
  var OTHER_TABS_FIRST_MS = 100;
  // Signing out (the "Sign out" button, or "Sign out on every device") clears
  // the other open tabs too: a tab left on what the client wrote would
  // otherwise stay on screen for whoever picks up the device next. In two
  // steps, because the session must outlive the first and not the second:
  // - "signing-out", as the sign-out is sent: every signed-in tab (the
  //   session script's marker) clears its screen and saves its unsaved words
  //   the usual way (window.portalSaveNow, from autosave.js or session.js),
  //   while the session still runs. Not through the exit's request, which
  //   would end the session before "Sign out on every device" could use it;
  // - "signed-out", from the sign-in page once it opens: the session is over,
  //   so the sign-in page is what those tabs now find (asked for sooner, it
  //   would open the notebook again). Other signed-in tabs go there too.
  var signedOutUrl = form.getAttribute("data-signed-out-url");
  var signedIn = document.body && document.body.hasAttribute("data-idle-seconds");
  // Should the sign-in page never open (the tab that signed out was closed,
  // or lost its connection), the cleared tabs go there on their own.
  var SIGNED_OUT_AT_THE_LATEST_MS = 5000;
  var awaitingSignOut = false;
  function toSignIn() {
    if (signedIn) window.location.replace(signedOutUrl);
  }
  // This tab leaves on purpose, its unsaved words carried or sent on the
  // way: the page must go at once, without the browser asking first
  // (session.js asks only for a page left any other way).
  function ending() {
    // Also left as a mark, for session.js should it start only now: Shift
    // pressed three times as the page opens is handled between the page's
    // scripts, and a page sent back refused is unsaved from its start.
    window.portalEnding = true;
    document.dispatchEvent(new CustomEvent("portal:ending"));
  }
  function clearScreen() {
    ending();
    document.documentElement.style.visibility = "hidden";
  }
  function saveNow() {
    try { if (window.portalSaveNow) window.portalSaveNow(); } catch (e) { /* signing out anyway */ }
  }
  if (tabs) {
    tabs.onmessage = function (event) {
      if (event.data === "signing-out") {
        if (!signedIn || leaving) return;
        leaving = true;
        awaitingSignOut = true;
        clearScreen();
        saveNow();
        setTimeout(toSignIn, SIGNED_OUT_AT_THE_LATEST_MS);
        return;
      }
      if (event.data === "signed-out") {
        // The sign-in page opens only once the session is over, however it
        // ended (the sign-out button, the idle timer of another tab, the
        // sign-out address typed): no page of the notebook stays on screen.
        // Except one holding words not yet on the server: they have no other
        // copy, and its autosave says how to keep them (as at the idle end).
        var pending = window.portalDraftPending && window.portalDraftPending();
        if (awaitingSignOut || (signedIn && !leaving && !pending)) {
          leaving = true;
          clearScreen();
          toSignIn();
        }
        return;
      }
      leaving = true;
      clearScreen();
      var pending = window.portalPendingDraft ? window.portalPendingDraft() : null;
      if (pending) {
        try {
          fetch(form.action, {
            method: "POST", body: exitData(true), credentials: "same-origin", keepalive: true,
          }).catch(function () { /* leaving anyway */ });
        } catch (e) { /* leaving anyway */ }
      }
      window.location.replace(exitUrl);
    };
    // The sign-out itself goes a moment later, so that the unsaved words of
    // this tab and the others arrive while the session still runs.
    var signingOut = false;
    document.addEventListener("submit", function (event) {
      var signOut = event.target;
      if (!signOut.hasAttribute("data-sign-out") || event.defaultPrevented) return;
      event.preventDefault();
      if (signingOut) return;
      signingOut = true;
      tabs.postMessage("signing-out");
      ending();
      saveNow();
      setTimeout(function () { signOut.submit(); }, OTHER_TABS_FIRST_MS);
    });
    if (document.querySelector("[data-signed-out-page]")) tabs.postMessage("signed-out");
  }

  function leave(event) {
    if (event) event.preventDefault();
    if (leaving) return;
    leaving = true;
    clearScreen();
    var gone = false;
    function go() {
      if (gone) return;
      gone = true;
      window.location.replace(exitUrl);
    }
    setTimeout(go, WAIT_FOR_SIGN_OUT_MS);
    if (tabs) tabs.postMessage("leave");
    setTimeout(function () { signOut(go); }, tabs ? OTHER_TABS_FIRST_MS : 0);
  }

  // End the session (saving this page's last words first), then call done.
  function signOut(done) {
    try {
      fetch(form.action, {
        method: "POST", body: exitData(true), credentials: "same-origin", keepalive: true,
      }).then(done, function () {
        // E.g. a long draft over the browser's limit for such requests: sign out without it.
        try { navigator.sendBeacon(form.action, exitData(false)); } catch (e) { /* leave anyway */ }
        done();
      });
    } catch (e) {
      try { navigator.sendBeacon(form.action, exitData(false)); } catch (e2) { /* leave anyway */ }
      done();
    }
  }

  form.addEventListener("submit", leave);
  document.addEventListener("keydown", function (event) {
    // Not Escape: it also stops a page loading. Shift alone, three times.
    if (event.key !== "Shift") { presses = []; return; }
    if (event.repeat) return;
    var now = Date.now();
    presses = presses.filter(function (t) { return now - t < WINDOW_MS; });
    presses.push(now);
    if (presses.length >= 3) leave();
  });

  // The bar stays on screen only while it is a thin strip (portal.css asks the
  // browser's text size). Text enlarged where a media query cannot see it (a
  // phone's own text-size setting, a reader's style) makes it tall, or wraps
  // its words: measured, such a bar scrolls away with the page instead of
  // covering a quarter of it, or hiding what has focus under it.
  var TALL = 0.15;  // of the window's height
  function measureBar() {
    var designed = parseFloat(getComputedStyle(form).minHeight) || 0;
    var height = form.offsetHeight;
    document.documentElement.toggleAttribute(
      "data-exit-bar-tall", height > designed + 1 || height > TALL * window.innerHeight
    );
  }
  measureBar();
  window.addEventListener("resize", measureBar);
  if ("ResizeObserver" in window) new ResizeObserver(measureBar).observe(form);

  // Tests (and curious readers) can see when the shortcut is live.
  document.documentElement.setAttribute("data-quick-exit", "ready");
})();
