// The portal keeps to one entry in the browser's history: its links and
// forms replace the page instead of adding one, so that Back after the quick
// exit (which leaves with location.replace) reaches what came before the
// portal, not our sign-in page. Forms another script handles (autosave,
// sending, signing out) call preventDefault and are left alone; without
// JavaScript everything works as before, one entry a page.
(function () {
  "use strict";
  if (!window.fetch || !window.FormData || !window.URL) return;

  function sameOrigin(url) {
    return url.origin === window.location.origin;
  }

  function ownClick(event) {
    return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
  }

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || !ownClick(event)) return;
    var link = event.target.closest ? event.target.closest("a[href]") : null;
    if (!link || link.hasAttribute("download")) return;
    var target = link.getAttribute("target");
    if (target && target !== "_self") return;
    var url = new URL(link.href, window.location.href);
    if (!sameOrigin(url) || !/^https?:$/.test(url.protocol)) return;
    event.preventDefault();
    window.location.replace(url.href);
  });

  // A form sent again the browser's own way, should ours fail: not intercepted twice.
  var passing = null;

  function sendTheUsualWay(form, submitter) {
    passing = form;
    if (form.requestSubmit) form.requestSubmit(submitter || undefined);
    else form.submit();
  }

  // The old page's timers (session.js's idle clock) and its hooks for the
  // other scripts (window.portal…) would outlive it under the new one, which
  // starts its own: a stale idle clock would sign out a client still typing.
  function forgetThisPage() {
    var last = window.setTimeout(function () {}, 0);
    for (var id = 1; id <= last; id++) { window.clearTimeout(id); window.clearInterval(id); }
    Object.keys(window).forEach(function (name) {
      if (/^portal[A-Z]/.test(name)) delete window[name];
    });
  }

  // An answer that is a page (a form sent back with its messages): it takes
  // this page's place, at the address the browser would have shown.
  function showAnswer(response) {
    return response.text().then(function (html) {
      if (window.history.replaceState) window.history.replaceState(null, "", response.url);
      forgetThisPage();
      document.open();
      document.write(html);
      document.close();
    });
  }

  function saveFile(response, disposition) {
    var named = /filename="?([^";]+)"?/i.exec(disposition);
    return response.blob().then(function (blob) {
      var link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = named ? named[1] : "";
      document.body.appendChild(link);
      link.click();
      link.remove();
      window.setTimeout(function () { URL.revokeObjectURL(link.href); }, 60000);
      document.documentElement.setAttribute("data-one-entry", "ready");
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (passing === form) { passing = null; return; }
    if (event.defaultPrevented || !(form instanceof HTMLFormElement)) return;
    var submitter = event.submitter || null;
    var target = (submitter && submitter.getAttribute("formtarget")) || form.getAttribute("target");
    if (target && target !== "_self") return;
    var method = ((submitter && submitter.getAttribute("formmethod")) || form.getAttribute("method") || "get").toLowerCase();
    if (method === "dialog") return;
    var action = new URL((submitter && submitter.getAttribute("formaction")) || form.getAttribute("action") || window.location.href, window.location.href);
    if (!sameOrigin(action)) return;
    // The submitter's own name and value go too, as with the browser's submit.
    var data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    event.preventDefault();
    if (method === "get") {
      action.search = new URLSearchParams(
        Array.from(data.entries()).filter(function (pair) { return typeof pair[1] === "string"; })
      ).toString();
      window.location.replace(action.href);
      return;
    }
    // Tests (and curious readers) can see a form on its way.
    document.documentElement.setAttribute("data-one-entry", "sending");
    fetch(action.href, {
      method: "POST", body: data, credentials: "same-origin", headers: { "X-One-Entry": "1" },
    }).then(function (response) {
      var next = response.status === 204 && response.headers.get("X-Location");
      if (next) {
        window.location.replace(next);
        document.documentElement.setAttribute("data-one-entry", "leaving");
        return null;
      }
      // A file (a PDF asked for) is not a page: saved from this answer, never asked for twice.
      var type = response.headers.get("Content-Type") || "";
      var disposition = response.headers.get("Content-Disposition") || "";
      if (type.indexOf("text/html") !== 0 || /attachment/.test(disposition)) return saveFile(response, disposition);
      return showAnswer(response);
    }).catch(function () {
      document.documentElement.setAttribute("data-one-entry", "ready");
      sendTheUsualWay(form, submitter);
    });
  });

  // Tests (and curious readers) can see when pages replace themselves.
  document.documentElement.setAttribute("data-one-entry", "ready");
})();
