// The invitation link is shown once: focusing its box selects it, ready to copy.
// (A listener here rather than onfocus="…": the pages' policy runs no inline script.)
(function () {
  "use strict";
  var box = document.getElementById("invite-link");
  if (box) box.addEventListener("focus", function () { box.select(); });

  // One invitation per click: each request makes a link and stops the one
  // before, so a second press must not email a second link. The server also
  // takes the same request again within seconds as the first
  // (clients.services); the page sends once all the same.
  var form = document.getElementById("invite-form");
  if (!form) return;
  var sent = false;
  form.addEventListener("submit", function (event) {
    if (sent) { event.preventDefault(); return; }
    sent = true;
  });
  // Back to this page from the next one: a new press is a new request.
  window.addEventListener("pageshow", function () { sent = false; });
})();
