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
    return pending ? asDraft(pending) : null;
  }
  function asDraft(pending) {
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
  // Each open tab holds a lock named after it while it lives, so the tab
  // that asks the others knows whose answers to wait for (the browser lets a
  // lock go with its tab, closed or crashed). Without locks it waits a moment only.
  var TAB_ID = Math.random().toString(36).slice(2);
  var TAB_LOCK = "portal-tab:";
  var locks = tabs && navigator.locks ? navigator.locks : null;
  if (locks) {
    locks.request(TAB_LOCK + TAB_ID, function () { return new Promise(function () {}); })
      .catch(function () { /* then this tab is waited for a moment only */ });
  }
  var OTHER_TABS_FIRST_MS = 100;
  // A frozen tab must not hold the exit back for long.
  var OTHER_TABS_AT_MOST_MS = 1000;
  // Signing out is not fleeing: it may give a slow server time to answer the saves.
  var SAVED_AT_MOST_MS = 5000;
  // A tab whose words were not taken (the leaving tab closed meanwhile) sends them itself.
  var HANDED_AT_THE_LATEST_MS = 3000;
  var handing = null;  // while this tab hands its words over: the draft
  var exiting = false;  // the quick exit, from this tab or another, goes before signing out
  var asking = {};  // this tab's questions to the others still open, by id
  var asked = 0;

  // Ask the other open tabs `question`; done once each has answered
  // (onAnswer sees each answer), or after atMostMs: a frozen tab never answers.
  function askOtherTabs(question, atMostMs, onAnswer, done) {
    var id = TAB_ID + "." + (asked += 1);
    var answered = {};
    var expected = null;  // the other open tabs: known once the locks say
    function finish() {
      if (!asking[id]) return;
      delete asking[id];
      done();
    }
    function check() {
      if (!expected) return;
      for (var i = 0; i < expected.length; i++) if (!answered[expected[i]]) return;
      finish();
    }
    asking[id] = function (reply) {
      answered[reply.from] = true;
      if (onAnswer) onAnswer(reply);
      check();
    };
    tabs.postMessage({ question: question, ask: id });
    setTimeout(finish, locks ? atMostMs : OTHER_TABS_FIRST_MS);
    if (!locks) return;
    locks.query().then(function (state) {
      expected = (state.held || []).map(function (lock) { return lock.name; })
        .filter(function (name) { return name.indexOf(TAB_LOCK) === 0 && name !== TAB_LOCK + TAB_ID; })
        .map(function (name) { return name.slice(TAB_LOCK.length); });
      check();
    }, function () { /* the bound above goes on */ });
  }
  function answer(question, fields) {
    fields.answers = question.ask;
    fields.from = TAB_ID;
    tabs.postMessage(fields);
  }

  // Signing out (the "Sign out" button, or "Sign out on every device") clears
  // the other open tabs too: a tab left on what the client wrote would
  // otherwise stay on screen for whoever picks up the device next. In two
  // steps, because the session must outlive the first and not the second:
  // - "signing-out", before the sign-out is sent: every signed-in tab (the
  //   session script's marker) clears its screen, saves its unsaved words
  //   the usual way (window.portalSaveNow, from autosave.js or session.js),
  //   and answers once the server has; the sign-out waits for the answers.
  //   Not through the exit's request, which would end the session before
  //   "Sign out on every device" could use it;
  // - "signed-out", from the sign-in page once it opens: the session is over,
  //   so the sign-in page is what those tabs now find (asked for sooner, it
  //   would open the notebook again). Other signed-in tabs go there too.
  var signedOutUrl = form.getAttribute("data-signed-out-url");
  var signedIn = document.body && document.body.hasAttribute("data-idle-seconds");
  // Should the sign-in page never open (the tab that signed out was closed,
  // or lost its connection), the cleared tabs go there on their own.
  var SIGNED_OUT_AT_THE_LATEST_MS = SAVED_AT_MOST_MS + 5000;
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
  // Settles once the server has answered this tab's save (or it failed).
  function saveNow() {
    try {
      return Promise.resolve(window.portalSaveNow ? window.portalSaveNow() : null)
        .catch(function () { /* signing out anyway */ });
    } catch (e) {
      return Promise.resolve();
    }
  }
  if (tabs) {
    tabs.onmessage = function (event) {
      var data = event.data || {};
      if (data.answers) {
        // An answer after the wait ended is not taken: that tab sends its words itself.
        if (asking[data.answers]) asking[data.answers](data);
        return;
      }
      if (data.question === "signing-out") {
        if (!signedIn || leaving) { answer(data, {}); return; }
        leaving = true;
        awaitingSignOut = true;
        clearScreen();
        saveNow().then(function () { answer(data, {}); });
        setTimeout(toSignIn, SIGNED_OUT_AT_THE_LATEST_MS);
        return;
      }
      if (data === "signed-out") {
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
      if (data.taken) {
        if (data.taken === TAB_ID && handing) handing.done();
        return;
      }
      if (data.question !== "leave") return;
      if (leaving) { answer(data, { draft: null }); return; }
      leaving = true;
      exiting = true;
      clearScreen();
      handOver(data, pendingDraft());
    };
    // The sign-out itself goes once this tab's and the other tabs' unsaved
    // words are on the server, while the session still runs.
    var signingOut = false;
    document.addEventListener("submit", function (event) {
      var signOutForm = event.target;
      if (!signOutForm.hasAttribute("data-sign-out") || event.defaultPrevented) return;
      event.preventDefault();
      if (signingOut) return;
      signingOut = true;
      ending();
      var submitted = false;
      function submit() {
        if (submitted || exiting) return;
        submitted = true;
        signOutForm.submit();
      }
      var othersSaved = new Promise(function (resolve) {
        askOtherTabs("signing-out", SAVED_AT_MOST_MS, null, resolve);
      });
      var ownAnswered = false;
      var ownSaved = saveNow().then(function () { ownAnswered = true; });
      Promise.all([ownSaved, othersSaved]).then(submit);
      // A server that never answers this tab's own save must not keep the session either.
      setTimeout(function () {
        // That save may only be late, and would then meet a session already
        // ended: the sign-out carries the same words, kept before it ends it.
        if (!ownAnswered && !submitted && !exiting) carryOwnWords(signOutForm);
        submit();
      }, SAVED_AT_MOST_MS);
      // Tests (and curious readers) can see the sign-out wait for the saves.
      document.documentElement.setAttribute("data-signing-out", "waiting");
    });
    if (document.querySelector("[data-signed-out-page]")) tabs.postMessage("signed-out");
  }

  // This tab's unsaved words, as fields of the sign-out form (clients.views.sign_in):
  // the save still on its way where the page says which (autosave.js).
  function carryOwnWords(signOutForm) {
    var awaited = window.portalWordsAwaited ? window.portalWordsAwaited() : null;
    var own = awaited ? asDraft(awaited) : pendingDraft();
    if (!own) return;
    var data = new FormData();
    appendDraft(data, "draft-", own);
    data.forEach(function (value, name) {
      if (typeof value !== "string") return;
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      signOutForm.appendChild(input);
    });
  }

  // Another tab leaves: this one's words go to it, and this tab follows once
  // it has them (or sends them itself, should it never say so).
  function handOver(question, draft) {
    function go() { window.location.replace(exitUrl); }
    answer(question, { draft: draft });
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
    exiting = true;
    clearScreen();
    if (!tabs) { signOut(); return; }
    askOtherTabs("leave", OTHER_TABS_AT_MOST_MS, function (reply) {
      if (reply.draft) handedOver.push(reply.draft);
      tabs.postMessage({ taken: reply.from });
    }, signOut);
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
