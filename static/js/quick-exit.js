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

  // The unsaved words of the other open tabs, handed over to this one as it
  // leaves (below): they go in its own request, signed out after them.
  var handedOver = [];

  function appendDraft(data, prefix, pending) {
    // A draft of new work names its assignment; changes to a sent entry say
    // so, and a note says so with its own field (homework.portal.quick_exit).
    if (pending.edit) data.append(prefix + "edit", "1");
    else data.append(prefix + "assignment", pending.assignment);
    pending.fields.forEach(function (field) {
      if (field[0] !== "csrfmiddlewaretoken") data.append(prefix + field[0], field[1]);
    });
  }

  // Words typed a moment ago and not saved yet (autosave.js for new work;
  // session.js for changes to a sent entry or a note), as plain data that
  // can also be handed to another tab.
  function pendingDraft() {
    var pending = window.portalPendingDraft ? window.portalPendingDraft() : null;
    if (!pending) return null;
    var fields = [];
    pending.data.forEach(function (value, name) { fields.push([name, value]); });
    return { edit: !!pending.edit, assignment: pending.assignment, fields: fields };
  }

  function exitData(withDrafts) {
    var data = new FormData(form);
    data.append("beacon", "1");
    if (!withDrafts) return data;
    var own = pendingDraft();
    if (own) appendDraft(data, "draft-", own);
    handedOver.forEach(function (pending, i) { appendDraft(data, "draft" + (i + 2) + "-", pending); });
    return data;
  }

  // The portal's other tabs leave too: a second tab left open on the
  // history would otherwise stay on screen. A message between open tabs of
  // this site, kept nowhere.
  // Such a tab hands its unsaved words (on no server yet) to the tab that
  // started the exit, which sends them in its own request, saved before the
  // session ends: sent by each tab, they could reach a slow server after it.
  var tabs = "BroadcastChannel" in window ? new BroadcastChannel("portal-quick-exit") : null;
  var OTHER_TABS_FIRST_MS = 100;
  // Each open tab holds a lock named after it while it lives, so the tab
  // that leaves knows whose words to wait for (the browser lets a lock go
  // with its tab, closed or crashed). Without locks it waits a moment only.
  var TAB_ID = Math.random().toString(36).slice(2);
  var TAB_LOCK = "portal-tab:";
  var locks = tabs && navigator.locks ? navigator.locks : null;
  if (locks) {
    locks.request(TAB_LOCK + TAB_ID, function () { return new Promise(function () {}); })
      .catch(function () { /* then this tab is waited for a moment only */ });
  }
  // A frozen tab must not hold the exit back for long.
  var OTHER_TABS_AT_MOST_MS = 1000;
  // A tab whose words were not taken (the leaving tab closed meanwhile) sends them itself.
  var HANDED_AT_THE_LATEST_MS = 3000;
  var collecting = null;  // while this tab leaves: the other tabs' answers, by tab
  var handing = null;     // while this tab hands its words over: the draft
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
      if (event.data && event.data.handover) {
        // Words arriving after the sign-out went are not taken: the tab sends them itself.
        if (!collecting || collecting.closed) return;
        collecting.replies[event.data.handover] = true;
        if (event.data.draft) handedOver.push(event.data.draft);
        tabs.postMessage({ taken: event.data.handover });
        collecting.check();
        return;
      }
      if (event.data && event.data.taken) {
        if (event.data.taken === TAB_ID && handing) handing.done();
        return;
      }
      if (event.data !== "leave") return;
      if (leaving || collecting) {
        tabs.postMessage({ handover: TAB_ID, draft: null });
        return;
      }
      leaving = true;
      clearScreen();
      handOver(pendingDraft());
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

  // Another tab leaves: this one's words go to it, and this tab follows once
  // it has them (or sends them itself, should it never say so).
  function handOver(draft) {
    function go() { window.location.replace(exitUrl); }
    tabs.postMessage({ handover: TAB_ID, draft: draft });
    if (!draft) { go(); return; }
    var timer = setTimeout(function () {
      handing = null;
      try {
        var data = exitData(false);
        appendDraft(data, "draft-", draft);
        fetch(form.action, { method: "POST", body: data, credentials: "same-origin", keepalive: true })
          .catch(function () { /* leaving anyway */ });
      } catch (e) { /* leaving anyway */ }
      go();
    }, HANDED_AT_THE_LATEST_MS);
    handing = { done: function () { handing = null; clearTimeout(timer); go(); } };
  }

  function leave(event) {
    if (event) event.preventDefault();
    if (leaving) return;
    leaving = true;
    clearScreen();
    if (!tabs) { signOut(); return; }
    tabs.postMessage("leave");
    function done() {
      if (collecting.closed) return;
      collecting.closed = true;
      signOut();
    }
    // The other tabs this one knows of: until the locks say, none.
    collecting = { replies: {}, expected: null, check: function () {
      if (!collecting.expected) return;
      for (var i = 0; i < collecting.expected.length; i++) {
        if (!collecting.replies[collecting.expected[i]]) return;
      }
      done();
    } };
    setTimeout(done, locks ? OTHER_TABS_AT_MOST_MS : OTHER_TABS_FIRST_MS);
    if (!locks) return;
    locks.query().then(function (state) {
      collecting.expected = (state.held || []).map(function (lock) { return lock.name; })
        .filter(function (name) { return name.indexOf(TAB_LOCK) === 0 && name !== TAB_LOCK + TAB_ID; })
        .map(function (name) { return name.slice(TAB_LOCK.length); });
      collecting.check();
    }, function () { /* the bound above signs out */ });
  }

  // End the session (saving the last words of this tab and the others
  // first), then leave: at most a moment after, so that Back finds it gone.
  function signOut() {
    var gone = false;
    function go() {
      if (gone) return;
      gone = true;
      window.location.replace(exitUrl);
    }
    setTimeout(go, WAIT_FOR_SIGN_OUT_MS);
    try {
      fetch(form.action, {
        method: "POST", body: exitData(true), credentials: "same-origin", keepalive: true,
      }).then(go, function () {
        // E.g. a long draft over the browser's limit for such requests: sign out without it.
        try { navigator.sendBeacon(form.action, exitData(false)); } catch (e) { /* leave anyway */ }
        go();
      });
    } catch (e) {
      try { navigator.sendBeacon(form.action, exitData(false)); } catch (e2) { /* leave anyway */ }
      go();
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
