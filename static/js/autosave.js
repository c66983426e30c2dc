// Autosave: keeps a client's words on the server while they type.
// Nothing is ever written to browser storage (devices are shared). When the
// network drops, the text stays in the page, we say so, and keep retrying.
(function () {
  "use strict";
  var form = document.querySelector("form[data-autosave-url]");
  if (!form) return;
  var url = form.getAttribute("data-autosave-url");
  var statusEl = document.getElementById("save-status");
  var conflictEl = document.getElementById("autosave-conflict");
  var versionInput = form.querySelector("input[name=version]");
  var DEBOUNCE_MS = 800;
  var MAX_RETRY_MS = 30000;
  var dirty = false;
  var inFlight = null;
  var timer = null;
  var retryMs = 2000;
  var blocked = false; // a conflict waits for the client's choice

  function say(text, state) {
    statusEl.textContent = text;
    statusEl.setAttribute("data-state", state);
  }

  function schedule(ms) {
    clearTimeout(timer);
    timer = setTimeout(save, ms);
  }

  function timeNow() {
    return new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  function firstError(errors) {
    for (var key in errors) {
      var list = errors[key];
      if (list && list.length) return list[0];
    }
    return "";
  }

  function showConflict(conflict) {
    blocked = true;
    conflictEl.hidden = false;
    conflictEl.replaceChildren();
    var h = document.createElement("h2");
    h.textContent = conflict.submitted
      ? "This was already sent from another tab or device"
      : "This changed somewhere else";
    conflictEl.appendChild(h);
    var p = document.createElement("p");
    p.textContent = "Here are both versions, so nothing is lost.";
    conflictEl.appendChild(p);
    conflict.rows.forEach(function (row) {
      var box = document.createElement("div");
      box.className = "conflict__row";
      var title = document.createElement("h3");
      title.textContent = row.label;
      box.appendChild(title);
      [["On this page", row.mine], ["Saved elsewhere", row.theirs]].forEach(function (pair) {
        var label = document.createElement("h4");
        label.textContent = pair[0];
        var text = document.createElement("p");
        text.className = "pre";
        text.textContent = pair[1];
        box.appendChild(label);
        box.appendChild(text);
      });
      conflictEl.appendChild(box);
    });
    if (!conflict.submitted) {
      var keep = document.createElement("button");
      keep.type = "button";
      keep.className = "button";
      keep.textContent = "Keep what is on this page";
      keep.addEventListener("click", function () {
        versionInput.value = conflict.version;
        blocked = false;
        conflictEl.hidden = true;
        dirty = true;
        save();
      });
      conflictEl.appendChild(keep);
    }
    var reload = document.createElement("a");
    reload.href = window.location.pathname;
    reload.className = "button button--quiet";
    reload.textContent = "Open the saved version";
    conflictEl.appendChild(reload);
    say("Not saved: this changed somewhere else.", "conflict");
    h.setAttribute("tabindex", "-1");
    h.focus();
  }

  function save() {
    if (!dirty || blocked) return Promise.resolve();
    if (inFlight) return inFlight;
    dirty = false;
    say("Saving…", "saving");
    var body = new FormData(form);
    inFlight = fetch(url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "Accept": "application/json" },
    })
      .then(function (res) {
        if (res.redirected) {
          dirty = true;
          blocked = true;
          say("You have been signed out, so this could not be saved. Copy your words before leaving this page.", "error");
          return;
        }
        return res.json().then(function (data) {
          if (res.ok) {
            versionInput.value = data.version;
            retryMs = 2000;
            say("Saved at " + timeNow(), "saved");
          } else if (res.status === 409) {
            dirty = true;
            showConflict(data.conflict);
          } else if (res.status === 400) {
            say("Not saved yet: " + firstError(data.errors), "error");
          } else {
            throw new Error("status " + res.status);
          }
        });
      })
      .catch(function () {
        dirty = true;
        say("You seem to be offline. Your words are still here on this page, and we will keep trying to save them.", "offline");
        schedule(retryMs);
        retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
      })
      .finally(function () {
        inFlight = null;
        if (dirty && !blocked && !timer) schedule(DEBOUNCE_MS);
      });
    return inFlight;
  }

  function changed() {
    dirty = true;
    if (!blocked) say("Not saved yet", "pending");
    schedule(DEBOUNCE_MS);
  }

  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  window.addEventListener("online", function () { if (dirty) save(); });

  // Closing the tab before the debounce fires: send what is pending anyway.
  window.addEventListener("pagehide", function () {
    if (!dirty || blocked) return;
    fetch(url, { method: "POST", body: new FormData(form), credentials: "same-origin", keepalive: true });
  });

  // Sending waits for a save in flight, so it carries the newest version.
  var sending = false;
  form.addEventListener("submit", function (event) {
    if (sending) { event.preventDefault(); return; }
    clearTimeout(timer);
    if (inFlight) {
      event.preventDefault();
      inFlight.then(function () { sending = true; dirty = false; form.submit(); });
      return;
    }
    sending = true;
    dirty = false;
  });

  // The 0–10 sliders show their number as they move (rows added later too).
  form.addEventListener("input", function (event) {
    var input = event.target;
    if (!input.matches || !input.matches("input[data-scale]")) return;
    var out = input.parentElement.querySelector("output");
    if (out) out.value = input.value;
    input.setAttribute("aria-valuetext", input.value + " out of 10");
  });
})();
