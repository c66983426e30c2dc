// Autosave: keeps a client's words on the server while they type.
// Nothing is ever written to browser storage (devices are shared): the page
// itself is the only copy until the server has it. When the network drops,
// the text stays in the page, we say so plainly, and keep retrying.
// Every save carries the version it started from; one made stale by another
// tab or device is refused by the server and the client chooses, seeing both
// texts. The page's own saves overtaking each other are not stale: each names
// the page and counts, and the server keeps the later (entry_save_draft).
(function () {
  "use strict";
  var form = document.querySelector("form[data-autosave-url]");
  if (!form) return;
  var url = form.getAttribute("data-autosave-url");
  var statusEl = document.getElementById("save-status");
  var announceEl = document.getElementById("save-announce");
  var conflictEl = document.getElementById("autosave-conflict");
  var versionInput = form.querySelector("input[name=version]");
  var keyInput = form.querySelector("input[name=key]");
  // Work that continues the last entry sent: how many were sent when the page opened.
  var sentCountSeenInput = form.querySelector("input[name=sent_count_seen]");
  var submitButton = form.querySelector("button[type=submit]");
  var T = JSON.parse(document.getElementById("autosave-messages").textContent);
  var DEBOUNCE_MS = 800;
  var FIRST_RETRY_MS = 2000;
  var MAX_RETRY_MS = 30000;
  var dirty = false;      // the page holds text the server has not confirmed
  var inFlight = null;    // the save on its way, if any
  var timer = null;
  var retryMs = FIRST_RETRY_MS;
  var blocked = false;    // a conflict waits for the client's choice (or the page is being sent)
  var openConflict = null;  // the conflict the box shows, while it waits for that choice
  var stopped = false;    // signed out: nothing more can be saved from here
  var refused = false;    // the server refused this text (400): it is on no server
  var renewedToken = false;  // a fresh form token was tried since the last save
  var sendFailed = document.getElementById("send-failed");

  // The page's key in its own address: Back after sending asks the server
  // for this page, which then shows what was sent instead of a blank form
  // that would look as if the words were gone (homework.portal.doing).
  function nameThisPageInAddress() {
    if (!keyInput || !window.history.replaceState) return;
    var address = new URL(window.location.href);
    if (address.searchParams.get("key") === keyInput.value) return;
    address.searchParams.set("key", keyInput.value);
    window.history.replaceState(window.history.state, "", address.toString());
  }
  nameThisPageInAddress();

  // Every save names this page and counts: when the page leaves with a save
  // still on the way, its last words go too, and the server keeps whichever
  // of this page's saves came later, in whatever order they arrive
  // (entry_save_draft), instead of meeting one as a conflict with the other.
  var PAGE = (function () {
    var bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  })();
  var pageSaves = 0;
  var flushing = null;  // a save sent as the page was hidden, if it is still on the way
  var inFlightOutlivesPage = false;  // the save on its way was sent to finish without the page

  // The version a save made, from its answer. The page's saves can answer
  // out of order (it sends again while one is on the way, when hidden): the
  // highest for the key they were sent under is the draft's current one, and
  // a lower one would make the page's next send meet its own save as a change
  // "elsewhere".
  function keepVersion(key, version) {
    if (keyInput.value === key && Number(version) > Number(versionInput.value)) {
      versionInput.value = version;
    }
  }

  function saveData() {
    var data = new FormData(form);
    pageSaves += 1;
    data.set("page", PAGE);
    data.set("save_number", String(pageSaves));
    return data;
  }

  // The status line shows every state; the live region beside it speaks only
  // the ones worth interrupting someone for. "Not saved yet" and "Saving…"
  // come and go with every pause in typing: a screen reader reading them out
  // (26 times for four words) drowns what the client is writing. So:
  // offline, errors, a conflict and signing out are spoken; "Saved." is
  // spoken when the words are safe after something else was last said (the
  // first save, or back from offline), never again after each pause.
  var SPOKEN = { saved: true, offline: true, error: true, conflict: true };
  var lastSpoken = statusEl.getAttribute("data-state") === "saved" ? T.announce_saved : "";

  // spokenText: what to say aloud, when it is more than the status line shows.
  function say(text, state, spokenText) {
    // Only real changes touch the page: rewriting the same words is still a change to it.
    if (statusEl.textContent !== text) statusEl.textContent = text;
    if (statusEl.getAttribute("data-state") !== state) statusEl.setAttribute("data-state", state);
    if (!SPOKEN[state]) return;
    var spoken = spokenText || (state === "saved" ? T.announce_saved : text);
    if (spoken !== lastSpoken && announceEl) {
      lastSpoken = spoken;
      announceEl.textContent = spoken;
    }
  }

  function schedule(ms) {
    clearTimeout(timer);
    timer = setTimeout(function () { timer = null; save(); }, ms);
  }

  function firstError(errors) {
    for (var key in errors) {
      var list = errors[key];
      if (list && list.length) {
        var input = form.querySelector("[name='r-" + key + "']");
        // A scale's list hands its id to the slider that stands for it (scale.js).
        var id = input && input.id ? input.id.replace(/_number$/, "") : "";
        var label = id ? form.querySelector("label[for='" + id + "']") : null;
        var name = label ? label.textContent.replace(/\s*\(.*\)\s*$/, "").trim() + ": " : "";
        return name + list[0];
      }
    }
    return "";
  }

  function el(tag, text, className) {
    var node = document.createElement(tag);
    if (text) node.textContent = text;  // always text, never HTML
    if (className) node.className = className;
    return node;
  }

  // Where the client's keys go into an answer: typed, or a slider or list
  // moved with the arrows. Focus taken from there, the next keys go nowhere.
  var NOT_TYPED_INTO = {
    checkbox: true, radio: true, button: true, submit: true, reset: true, file: true, image: true, hidden: true,
  };
  function typingIn(node) {
    if (!node || !form.contains(node)) return false;
    if (node.isContentEditable) return true;
    if (node.tagName === "TEXTAREA" || node.tagName === "SELECT") return true;
    return node.tagName === "INPUT" && !NOT_TYPED_INTO[node.type];
  }

  // The words a conflict is shown in. A page opened with nothing saved that
  // meets a draft begun since (conflict.begun_since_opened) may be meeting
  // its own last words, sent as it was reloaded: not "another tab or device".
  function conflictWords(conflict) {
    // updated_since: a newer version was sent since this page opened on the
    // one before it; keeping this page's words keeps its own draft.
    if (conflict.updated_since) {
      return {
        title: T.conflict_newer_title, text: T.conflict_newer_text,
        status: T.status_conflict, theirs: T.theirs_newer,
      };
    }
    if (conflict.submitted) {
      return { title: T.conflict_sent_title, text: T.conflict_sent_text, status: T.status_conflict, theirs: T.theirs };
    }
    if (conflict.begun_since_opened) {
      return {
        title: T.conflict_begun_title, text: T.conflict_begun_text,
        status: T.status_conflict_begun, theirs: T.theirs_begun,
      };
    }
    return { title: T.conflict_title, text: T.conflict_text, status: T.status_conflict, theirs: T.theirs };
  }

  function showConflict(conflict) {
    blocked = true;
    openConflict = conflict;
    clearTimeout(timer);
    var words = conflictWords(conflict);
    var newer = conflict.updated_since;
    // Read before the box opens: what has focus now is where the client is.
    var typing = typingIn(document.activeElement);
    conflictEl.hidden = false;
    conflictEl.replaceChildren();
    var h = el("h2", words.title);
    h.id = "autosave-conflict-title";
    h.setAttribute("tabindex", "-1");
    conflictEl.appendChild(h);
    conflictEl.appendChild(el("p", words.text));
    if (!conflict.rows.length) conflictEl.appendChild(el("p", T.conflict_same));
    conflict.rows.forEach(function (row) {
      var box = el("div", "", "conflict__row");
      box.appendChild(el("h3", row.label));
      var pair = el("div", "", "conflict__pair");
      [[T.mine, row.mine], [words.theirs, row.theirs]].forEach(function (side) {
        var half = el("div");
        half.appendChild(el("h4", side[0]));
        half.appendChild(el("p", side[1] || T.empty, "pre"));
        pair.appendChild(half);
      });
      box.appendChild(pair);
      conflictEl.appendChild(box);
    });
    var actions = el("div", "", "button-row");
    var keep = el("button", conflict.submitted ? T.keep_as_new : T.keep_mine, "button button--primary");
    keep.type = "button";
    keep.addEventListener("click", function () {
      if (conflict.submitted) {
        // The other one was sent and stays as it is; this text becomes its own entry.
        keyInput.value = conflict.fresh_key;
        versionInput.value = "0";
      } else {
        // Replace the other draft (it may be another key's: a second tab's
        // first save), or, after a newer version was sent, keep this page's own.
        keyInput.value = conflict.key;
        versionInput.value = conflict.version;
      }
      // The client has seen the newest sent beside their words: keeping them
      // is checked against what is sent from now on.
      if (sentCountSeenInput && conflict.sent_count_seen !== null) {
        sentCountSeenInput.value = conflict.sent_count_seen;
      }
      blocked = false;
      openConflict = null;
      conflictEl.hidden = true;
      // Hiding the box drops the focus that was on this button to <body>: a
      // screen reader goes quiet and Tab starts again from the top. The status
      // line just above the box says what happens next ("Saving…", "Saved").
      statusEl.setAttribute("tabindex", "-1");
      statusEl.focus();
      dirty = true;
      save();
    });
    actions.appendChild(keep);
    var theirs = el("a", newer ? T.use_newer : conflict.submitted ? T.open_sent : T.use_theirs,
      "button button--quiet");
    theirs.href = newer ? conflict.newer_url
      : conflict.submitted ? conflict.sent_url : window.location.pathname;
    // "Use the other (or the newer) version" lets this page's words go, as
    // it says: the client's answer already, not a way out to ask about (beforeunload).
    if (!conflict.submitted) theirs.addEventListener("click", function () { leavingOnPurpose = true; });
    actions.appendChild(theirs);
    conflictEl.appendChild(actions);
    if (typing) {
      // Someone typing on would lose every key pressed after focus moved to
      // the box (the words went nowhere). So the cursor stays; what happened
      // is said aloud, with where the choice is (next in the tab order after
      // the form's answers), and what is typed meanwhile stays on the page,
      // marked as not saved, until the client chooses.
      say(words.status, "conflict", words.status + " " + T.conflict_where);
    } else {
      say(words.status, "conflict");
      h.focus();  // nothing being typed: take the keyboard to the choice, where it is read out
    }
  }

  // Saving cannot work again from this page (signed out, or the form's work
  // is gone): stop retrying, and say where the words still are.
  function stop(message) {
    stopped = true;
    dirty = true;
    clearTimeout(timer);
    say(message, "error");
  }

  // Signing in again (here or in another tab) gives the session a new form
  // token, and this page's old one is then refused (403). Ask for the
  // current one: if there is one, the client is signed in and saving goes
  // on; if not, they are signed out, and we look again now and then, so
  // that signing in in another tab brings this page back to saving.
  function renewToken() {
    return window.portalFreshToken(form).then(function (state) { return state === "fresh"; });
  }

  var SIGN_IN_CHECK_MS = 15000;
  function signedOut() {
    stop(T.status_signed_out);
    (function check() {
      setTimeout(function () {
        renewToken().then(function (signedIn) {
          if (!signedIn) { check(); return; }
          stopped = false;
          renewedToken = true;
          save();
        });
      }, SIGN_IN_CHECK_MS);
    })();
  }

  // outlivePage: the page is being hidden (maybe closed): the request must
  // finish even if the page does not, so it goes out with keepalive.
  function save(outlivePage) {
    if (!dirty || blocked || stopped) return Promise.resolve();
    if (inFlight) return inFlight;  // `finally` sends again if more was typed
    dirty = false;
    say(T.status_saving, "saving");
    var key = keyInput.value;
    inFlightOutlivesPage = outlivePage === true;
    var body = saveData();
    inFlight = fetch(url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      redirect: "manual",
      keepalive: outlivePage === true,
      headers: { "Accept": "application/json" },
    })
      .then(function (res) {
        if (res.type === "opaqueredirect" || res.status === 401 || res.status === 403) {
          dirty = true;
          if (renewedToken) { signedOut(); return; }  // a fresh token did not help
          renewedToken = true;
          return renewToken().then(function (signedIn) {
            if (!signedIn) signedOut();
          });
        }
        if (res.status === 404) {
          stop(T.status_gone);
          return;
        }
        return res.json().then(function (data) {
          if (res.ok) {
            keepVersion(key, data.version);
            retryMs = FIRST_RETRY_MS;
            refused = false;
            renewedToken = false;
            // The server's clock and format (homework.portal.autosave_text.saved_time), so the
            // time matches the one the page shows when it is opened again.
            if (!dirty) say(T.status_saved.replace("%(time)s", data.saved_time), "saved");
            document.dispatchEvent(new CustomEvent("portal:activity"));
          } else if (res.status === 409) {
            dirty = true;
            showConflict(data.conflict);
          } else if (res.status === 400 && data.kept) {
            // Refused, yet kept on the server (a draft that reached a notebook
            // closed meanwhile): the message says so, without "not saved".
            say(firstError(data.errors), "error");
          } else if (res.status === 400) {
            // Kept on the page, and on no server: saved again once the client
            // changes it; until then the idle timeout must not clear the page.
            refused = true;
            // A text past its limit already says so at the field (limits.js): not twice.
            if (overLimit()) say(T.status_pending, "pending");
            else say(T.status_invalid.replace("%(error)s", firstError(data.errors)), "error");
          } else {
            throw new Error("status " + res.status);
          }
        });
      })
      .catch(function () {
        dirty = true;
        say(navigator.onLine === false ? T.status_offline : T.status_retrying, "offline");
        schedule(retryMs);
        retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
      })
      .finally(function () {
        inFlight = null;
        if (dirty && !blocked && !stopped && !timer) schedule(DEBOUNCE_MS);
      });
    inFlight.words = body;
    return inFlight;
  }

  function changed() {
    dirty = true;
    if (sending && blocked && conflictEl.hidden) {
      // Typing on a page that was sent: the send never left (stopped in the
      // browser, or the page is shown again by Back from the page's memory).
      // These words are on no server: save them as before, and Send sends
      // again. (A send that was only slow and lands after all still takes
      // the page with it, as it always did.)
      sending = false;
      blocked = false;
      if (submitButton) submitButton.removeAttribute("aria-disabled");
    }
    if (blocked || stopped) return;
    if (statusEl.getAttribute("data-state") !== "offline") say(T.status_pending, "pending");
    schedule(DEBOUNCE_MS);
  }

  // Every control says it changed with "input" (rows.js and scale.js too).
  // Not "change" as well: a text field fires it again on losing focus, so a
  // click on Send saved once more and rewrote the status line, which moved
  // the button from under the pointer between press and release.
  form.addEventListener("input", changed);
  window.addEventListener("online", function () { if (dirty) { retryMs = FIRST_RETRY_MS; save(); } });
  window.addEventListener("offline", function () { if (dirty) say(T.status_offline, "offline"); });

  // Leaving on purpose in a hurry (the quick exit, "Sign out", here or in
  // another tab) while the box waits for the client's choice: there is no
  // time to make it, and the words typed here are on no server. Nothing is
  // chosen for the client: the other version stays as it is, and these
  // words are kept as a draft of their own, under the new key the server
  // offered with the conflict (entry_save_draft, leaving), so "Carry on"
  // reaches both. After a newer version was sent, they stay this page's
  // own draft, which remembers the plan it began from.
  function lastWordsData() {
    var data = saveData();
    if (!openConflict) return data;
    if (!openConflict.updated_since) {
      data.set("key", openConflict.fresh_key);
      data.set("version", "0");
    }
    data.set("leaving", "1");
    return data;
  }

  // Leaving before the debounce fires (closing the tab, switching app, the
  // quick exit): send what is pending anyway, in a request that outlives the
  // page. Also while a save is on the way: it may hold older words, or die
  // with the page before it arrives. ``onPurpose``: signing out, which keeps
  // words held by an open conflict too (lastWordsData); other ways out ask
  // first (beforeunload), and leave them if the client says so.
  // Returns the save's promise, settled once the server has answered (or
  // it failed), so that signing out can wait for it; null with nothing to send.
  function flush(onPurpose) {
    if (onPurpose === true && openConflict && !stopped) return sendLastWords();
    if (!(dirty || inFlight) || blocked || stopped) return flushing;
    // The save on its way already carries these words, and finishes without
    // the page. Sent again, it would only make a new version of the same
    // words, which a page reloaded meanwhile (holding the one before) would
    // then meet as a change made elsewhere.
    if (!dirty && inFlight && inFlightOutlivesPage) return inFlight;
    clearTimeout(timer);
    var key = keyInput.value;
    try {
      // If the page stays after all (hidden, then shown again), it learns the
      // version this save made before it sends.
      var body = saveData();
      var sent = fetch(url, {
        method: "POST",
        body: body,
        credentials: "same-origin",
        keepalive: true,
        headers: { "Accept": "application/json" },
      })
        .then(function (res) { return res.ok ? res.json() : null; })
        .then(function (data) { if (data) keepVersion(key, data.version); })
        .catch(function () { /* the next save, or the send, finds out */ })
        .finally(function () { if (flushing === sent) flushing = null; });
      sent.words = body;
      flushing = sent;
      return sent;
    } catch (e) { /* the page is going away; nothing else to do */ }
    return null;
  }
  // Sent to finish without the page; the page keeps nothing from its answer
  // (it is going, and the key it was sent under is not the page's).
  function sendLastWords() {
    clearTimeout(timer);
    try {
      var body = lastWordsData();
      var sent = fetch(url, {
        method: "POST",
        body: body,
        credentials: "same-origin",
        keepalive: true,
        headers: { "Accept": "application/json" },
      }).catch(function () { /* leaving anyway */ });
      sent.words = body;
      return sent;
    } catch (e) { /* the page is going away; nothing else to do */ }
    return null;
  }
  var leaving = false;
  window.addEventListener("pagehide", function () { if (!leaving) flush(); });
  // Signing out in this tab or another saves first, and waits for the
  // server's answer (quick-exit.js).
  var awaited = null;  // the words of that save, until it is answered
  window.portalSaveNow = function () {
    var sent = flush(true);
    if (!sent || !sent.words) return sent;
    var words = sent.words;
    awaited = words;
    var answered = function () { if (awaited === words) awaited = null; };
    sent.then(answered, answered);
    return sent;
  };
  // A sign-out that can wait no longer for that save carries the very same
  // one (this page and its number), so whichever copy the server meets second changes nothing.
  window.portalWordsAwaited = function () {
    return awaited ? { assignment: form.getAttribute("data-assignment"), data: awaited } : null;
  };
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden" && !leaving) {
      if (inFlight) flush();
      else save(true);
    }
  });

  // The quick exit carries the unsaved words in its own request, so the
  // server saves them before it ends the session (two requests could race).
  window.portalPendingDraft = function () {
    if (stopped || !(openConflict || ((dirty || inFlight) && !blocked))) return null;
    leaving = true;
    return { assignment: form.getAttribute("data-assignment"), data: lastWordsData() };
  };

  // The idle timeout must not clear a page whose words are not on the server yet.
  window.portalDraftPending = function () { return dirty || refused || !!inFlight; };

  // Words on no server: waiting for the pause in typing, on their way,
  // refused, unsaveable from here, or held while a choice between two
  // versions is open (typing goes on meanwhile).
  function holdsUnsentWords() {
    return dirty || refused || stopped || !!inFlight || !conflictEl.hidden;
  }

  // Leaving any other way than on purpose (a link, Back, a reload, closing
  // the tab) with such words asks first, with the browser's own prompt, as
  // session.js does for the forms with no autosave. The words go now, while
  // the client reads the question, so that the page that opens next (a
  // reload) is built with them. Not asked when the
  // page leaves on purpose, its words carried or sent on the way: the quick
  // exit, signing out here or in another tab, the idle end (all say
  // "portal:ending", quick-exit.js and session.js), or the choice to use
  // the other version.
  var leavingOnPurpose = window.portalEnding === true;  // begun before this script ran
  document.addEventListener("portal:ending", function () { leavingOnPurpose = true; });
  window.addEventListener("beforeunload", function (event) {
    if (leaving || leavingOnPurpose) return;
    if (dirty && !blocked && !stopped) save(true);
    if (!holdsUnsentWords()) return;
    event.preventDefault();
    event.returnValue = true;  // browsers from before preventDefault() was enough
  });

  // Sending leaves the page: whatever the server does not have yet would go
  // with it if the send then failed on the way (a dropped connection, a
  // server error), since the page reopens from the server. So the page is
  // sent only once the server holds exactly these words (as a draft), and
  // if they cannot be saved, it stays, says so, and keeps trying. A second
  // click does nothing (the entry's key makes a replay harmless anyway).
  var sending = false;

  // Whether the server now holds exactly the page's words: after the save in
  // flight, one more save, and once more if that one only renewed the form token.
  function serverHoldsThis(tries) {
    return Promise.all([inFlight, flushing])
      .then(function () { return dirty && !blocked && !stopped ? save() : null; })
      .then(function () {
        if (dirty && !blocked && !stopped && tries > 1) return serverHoldsThis(tries - 1);
        return !dirty && !blocked && !stopped && !refused;
      });
  }

  function overLimit() {
    return window.portalOverLimit ? window.portalOverLimit(form) : null;
  }

  function notSent(message) {
    sending = false;
    if (submitButton) submitButton.removeAttribute("aria-disabled");
    // The field past its limit says why, and focus takes the client there.
    var tooLong = refused && overLimit();
    if (tooLong) { tooLong.focus(); return; }
    if (!sendFailed) return;
    sendFailed.textContent = message;
    sendFailed.hidden = false;
    sendFailed.focus();
  }

  form.addEventListener("submit", function (event) {
    if (sending) { event.preventDefault(); return; }
    nameThisPageInAddress();  // a conflict's choice may have given it a new key
    if (sendFailed) sendFailed.hidden = true;
    clearTimeout(timer);
    timer = null;
    if (stopped) {
      event.preventDefault();
      notSent(statusEl.textContent);
      return;
    }
    sending = true;
    if (submitButton) submitButton.setAttribute("aria-disabled", "true");
    event.preventDefault();
    serverHoldsThis(2).then(function (held) {
      if (held) {
        blocked = true;  // the server has these words: send them as they are
        // With the session's current token: a sign-in since the last save
        // (in another tab too) has replaced the page's, and the send would
        // meet "This page had expired" (send-guard.js).
        return window.portalFreshToken(form).then(function (state) {
          // Typed while we asked (changed() unblocked the page): those words
          // are on no server yet. They save as usual; Send sends them.
          if (!blocked) return;
          if (state === "fresh") {
            form.submit();
            return;
          }
          blocked = false;
          if (state === "signed_out") {
            signedOut();
            notSent(statusEl.textContent);
          } else {
            notSent(T.send_not_yet);
          }
        });
      } else if (refused || stopped) {  // the status says why, and what to change
        notSent(statusEl.textContent);
      } else if (!blocked) {  // a conflict shows both versions itself
        notSent(T.send_not_yet);
      } else {
        sending = false;
        if (submitButton) submitButton.removeAttribute("aria-disabled");
      }
    });
  });
  window.addEventListener("pageshow", function () {
    sending = false;
    if (submitButton) submitButton.removeAttribute("aria-disabled");
  });
})();
