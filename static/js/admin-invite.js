// The invitation link is shown once: focusing its box selects it, ready to copy.
// (A listener here rather than onfocus="…": the pages' policy runs no inline script.)
(function () {
  "use strict";
  var box = document.getElementById("invite-link");
  if (box) box.addEventListener("focus", function () { box.select(); });
})();
