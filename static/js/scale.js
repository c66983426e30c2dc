// The 0–10 scales. The server sends each as a list whose first choice is
// "not answered yet" (so the page works without script). Here each becomes
// a slider, and the list stays in the form, hidden, as the answer it sends.
// A slider always sits somewhere, so its position is not an answer until the
// client moves it (pointer or arrow keys) or chooses it where it stands (a
// click, Space or Enter): until then its handle is hidden (portal.css), it
// says "Not answered yet" (to the eye and to a screen reader) and sends
// nothing.
// Rows added later (boundary steps) get their sliders too, hence the observer.
(function () {
  "use strict";
  // Where an unanswered slider's (hidden) handle rests: an arrow key moves
  // one step from it, Space or Enter answers it.
  var MIDDLE = "5";

  function enhance(select) {
    if (select.hasAttribute("data-scale-ready")) return;
    select.setAttribute("data-scale-ready", "");
    var range = document.createElement("input");
    range.type = "range";
    range.min = "0";
    range.max = "10";
    range.step = "1";
    range.className = "scale__slider";
    // The label, the help and the error point at the field's id: the slider
    // takes it (and the ARIA that goes with it) from the list it stands for.
    range.id = select.id;
    select.id = select.id + "_number";
    ["aria-describedby", "aria-invalid"].forEach(function (attr) {
      if (select.hasAttribute(attr)) {
        range.setAttribute(attr, select.getAttribute(attr));
        select.removeAttribute(attr);
      }
    });
    var out = document.createElement("output");
    out.className = "scale__value";
    out.setAttribute("aria-hidden", "true");
    out.htmlFor = range.id;
    select.hidden = true;
    select.after(range, out);

    function show() {
      var answered = select.value !== "";
      range.value = answered ? select.value : MIDDLE;
      out.value = answered ? select.value : select.getAttribute("data-unanswered");
      range.toggleAttribute("data-unanswered", !answered);
      out.toggleAttribute("data-unanswered", !answered);
      range.setAttribute(
        "aria-valuetext",
        answered
          ? select.getAttribute("data-valuetext").replace("%(value)s", select.value)
          : select.getAttribute("data-unanswered")
      );
    }
    function answer() {
      select.value = range.value;
      show();
    }
    range.addEventListener("input", answer);
    // Choosing the number the thumb already stands on changes nothing, so no
    // "input" comes: it is still a choice (5 is a real answer). With a mouse
    // that is a click; with a keyboard, Space or Enter (else answering 5
    // takes an arrow press and one back). The new aria-valuetext is heard as
    // an arrow press's is.
    function answerWhereItRests() {
      if (select.value !== "") return false;
      answer();
      range.dispatchEvent(new Event("input", { bubbles: true }));  // autosave listens
      return true;
    }
    range.addEventListener("click", answerWhereItRests);
    range.addEventListener("keydown", function (event) {
      if (event.key !== " " && event.key !== "Enter") return;
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      // Not the page scrolling (Space) nor the form sent (Enter) instead.
      if (answerWhereItRests()) event.preventDefault();
    });
    show();
  }

  function enhanceWithin(root) {
    if (root.matches && root.matches("select[data-scale]")) enhance(root);
    if (root.querySelectorAll) root.querySelectorAll("select[data-scale]").forEach(enhance);
  }

  enhanceWithin(document);
  new MutationObserver(function (changes) {
    changes.forEach(function (change) { change.addedNodes.forEach(enhanceWithin); });
  }).observe(document.body, { childList: true, subtree: true });
})();
