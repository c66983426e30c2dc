// A text with a limit counts as it is typed, at the field: the count once
// the limit nears, and past it the server's own message, in its words (the
// field's data-limit-* attributes, homework.kinds.fields.TextField), so the
// page says it once, in one place. A screen reader hears it only when the
// state changes (near, past, back within), not at every key.
// Without this script the server holds the limit and says so at the field.
(function () {
  "use strict";
  // The count shows once this share of the limit is used.
  var NEAR = 0.9;

  // As the server counts (practice.text_limits.typed_length): characters, not UTF-16 units.
  function lengthOf(text) {
    return Array.from(text).length;
  }

  function grouped(number) {
    return number.toLocaleString(document.documentElement.lang || undefined);
  }

  function describe(field, id) {
    var ids = (field.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
    if (ids.indexOf(id) === -1) field.setAttribute("aria-describedby", ids.concat([id]).join(" "));
  }

  function watch(field) {
    if (field.hasAttribute("data-limit-watched")) return;
    field.setAttribute("data-limit-watched", "");
    var limit = parseInt(field.getAttribute("data-limit"), 10);
    var box = field.closest(".field");
    // The server's message for this field, when the page came back refused.
    var serverError = document.getElementById(field.id + "_error");
    var count = document.createElement("p");
    count.id = field.id + "_count";
    count.className = "char-count";
    count.hidden = true;
    field.insertAdjacentElement("afterend", count);
    describe(field, count.id);
    var spoken = document.createElement("p");
    spoken.className = "visually-hidden";
    spoken.setAttribute("aria-live", "polite");
    count.insertAdjacentElement("afterend", spoken);
    var state = "";

    function update() {
      var length = lengthOf(field.value);
      var next = length > limit ? "over" : length >= NEAR * limit ? "near" : "";
      var pattern = field.getAttribute(next === "over" ? "data-limit-over" : "data-limit-count");
      count.textContent = pattern.replace("{length}", grouped(length));
      count.hidden = next === "";
      count.setAttribute("data-state", next);
      field.setAttribute("data-limit-state", next);
      if (next === "over") field.setAttribute("aria-invalid", "true");
      else if (state === "over") field.removeAttribute("aria-invalid");
      // Past the limit, this is the one message: the server's copy of it steps aside.
      if (serverError && (next === "over" || state === "over")) {
        serverError.hidden = true;
        if (box) box.classList.remove("field--error");
      }
      if (box) box.classList.toggle("field--over", next === "over");
      if (next !== state) {
        if (state !== "" || next !== "") spoken.textContent = next === "" ? "" : count.textContent;
        state = next;
      }
    }

    field.addEventListener("input", update);
    update();
  }

  function watchAll(root) {
    root.querySelectorAll("[data-limit]").forEach(watch);
  }
  watchAll(document);
  // Rows added by rows.js bring new fields.
  document.addEventListener("portal:row-added", function (event) { watchAll(event.target); });

  // Whether a field's limit message is on the page now (autosave.js asks,
  // so that it does not say the same beside Send).
  window.portalOverLimit = function (form) {
    return form.querySelector("[data-limit-state=over]");
  };
})();
