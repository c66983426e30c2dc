// The admin's question editor: a list of questions drawn above an exercise's
// JSON options box (folded away behind "Edit as JSON"), for the kinds that ask
// for it (the options field says which, in data-options-editors). Every change
// is written back into the box as JSON, so the server checks exactly what it
// always has (the kind's clean_options) and shows its messages beside the
// field. Without this script the box is the editor. JSON typed into the box
// that does not read leaves the questions as they were, said at the box.
// Each kind keeps its own options while the page is open (see the kind's
// change handler at the end).
// The admin puts form scripts in the page's head: start once the form is there.
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  var area = document.querySelector("textarea[data-options-editors]");
  var kindSelect = document.getElementById("id_kind");
  if (!area || !kindSelect) return;
  var editors = JSON.parse(area.getAttribute("data-options-editors"));
  var holder = document.createElement("div");
  holder.className = "questions-editor";
  var folded = area.closest("details.options-json") || area;
  folded.parentNode.insertBefore(holder, folded);  // the questions first, the JSON below them
  var problem = document.getElementById(area.id + "-problem");
  // The editor's last readable options, posted beside the box so a save refused
  // for its JSON comes back with the questions as they were (forms.builder_state).
  var lastRead = document.createElement("input");
  lastRead.type = "hidden";
  lastRead.name = "options_builder";
  area.form.appendChild(lastRead);
  var state = null;    // {questions: [...], score: {...} | null}
  var W = null;        // the editor's words, from the kind
  var CHOICE_TYPES = ["single_choice", "multiple_choice"];
  var SCALE = "scale_0_10";

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function labelled(id, text, input, inline) {
    var row = el("div", { "class": inline ? "qe-row qe-row--check" : "qe-row" });
    input.id = id;
    var label = el("label", { "for": id }, text);
    if (inline) { row.appendChild(input); row.appendChild(label); } else { row.appendChild(label); row.appendChild(input); }
    return row;
  }

  function read(text) {
    if (text === undefined) text = area.value;
    if (!text.trim()) return { questions: [], score: null };
    try {
      var value = JSON.parse(text);
      if (value === null) return { questions: [], score: null };
      if (typeof value !== "object" || Array.isArray(value)) return null;
      if (value.questions !== undefined && !Array.isArray(value.questions)) return null;
      return { questions: (value.questions || []).filter(function (q) { return q && typeof q === "object"; }),
               score: value.score && typeof value.score === "object" ? value.score : null };
    } catch (e) {
      return null;
    }
  }

  // Only what belongs to each question's type is written: the server refuses
  // end labels on a yes/no question, choices on a scale, and so on.
  function write() {
    var scored = false;
    var questions = state.questions.map(function (q) {
      var out = {};
      if (q.key) out.key = q.key;
      out.type = q.type;
      out.text = q.text || "";
      if (q.help) out.help = q.help;
      out.required = !!q.required;
      if (CHOICE_TYPES.indexOf(q.type) !== -1) out.choices = (q.choices || []).filter(function (c) { return c.trim(); });
      if (q.type === SCALE) {
        if (q.low) out.low = q.low;
        if (q.high) out.high = q.high;
        if (q.scored) { out.scored = true; scored = true; if (q.reverse) out.reverse = true; }
      }
      // A published questionnaire's points and review rule are not edited
      // here, but kept: dropping them would unscore the measure.
      if (q.type === "single_choice" && q.scored && q.points) {
        out.scored = true; scored = true; out.points = q.points;
      }
      if (out.scored) {
        if (typeof q.review_above === "number") out.review_above = q.review_above;
        if (typeof q.review_at_or_below === "number") out.review_at_or_below = q.review_at_or_below;
        // A published item the client may leave out (the WSAS's work item) stays so.
        if (typeof q.skip_if_yes === "string") out.skip_if_yes = q.skip_if_yes;
      }
      // Only answers the question still offers: a choice renamed or taken
      // away stops raising the flag rather than being refused.
      var canChoose = answersOf(q, out);
      var watched = (q.review_choices || []).filter(function (c) { return canChoose.indexOf(c) !== -1; });
      if (watched.length) out.review_choices = watched;
      return out;
    });
    var options = { questions: questions };
    if (scored) options.score = state.score || { method: "mean", better: "higher", label: "" };
    area.value = JSON.stringify(options, null, 2);
    lastRead.value = area.value;
    area.dispatchEvent(new Event("options:written", { bubbles: true }));
  }

  // While the box holds JSON that does not read, the questions stay as they
  // were and cannot be changed (a change would write over what was typed);
  // the note at the box says so and offers them back.
  function keepQuestions(words) {
    holder.inert = true;
    area.setAttribute("aria-invalid", "true");
    area.setAttribute("aria-describedby", problem.id);
    problem.textContent = "";
    problem.appendChild(document.createTextNode(words + " "));
    var back = el("button", { type: "button", "class": "button qe-button", id: "qe-put-back" }, W.put_back);
    back.addEventListener("click", function () {
      questionsRead();
      write();
      draw();
      area.focus();
    });
    problem.appendChild(back);
    problem.hidden = false;
  }

  function questionsRead() {
    holder.inert = false;
    area.removeAttribute("aria-invalid");
    area.removeAttribute("aria-describedby");
    if (problem) { problem.hidden = true; problem.textContent = ""; }
  }

  function answersOf(q, out) {
    if (q.type === "yes_no") return ["yes", "no"];
    if (CHOICE_TYPES.indexOf(q.type) !== -1) return (out || q).choices || [];
    return [];
  }

  // The lowest and highest answer a scored question can have: 0 to 10, or its points.
  function answerRange(q) {
    if (q.type === SCALE) return [0, 10];
    return [Math.min.apply(null, q.points), Math.max.apply(null, q.points)];
  }

  // "Flag for my review when the answer is [3] or lower": the number is
  // chosen inside the sentence, and "never" takes the watch away.
  function thresholdRow(id, words, numbers, value, onChange) {
    var row = el("div", { "class": "qe-row qe-row--review" });
    var parts = words.split("%(value)s");
    var label = el("label", { "for": id, id: id + "-before" }, parts[0]);
    var after = el("span", { id: id + "-after" }, parts[1] || "");
    // Named by the whole sentence, both halves, not only the words before it.
    var choose = el("select", { id: id, "aria-labelledby": id + "-before " + id + "-after" });
    choose.appendChild(el("option", { value: "" }, W.no_review));
    numbers.forEach(function (n) {
      var option = el("option", { value: String(n) }, String(n));
      if (n === value) option.selected = true;
      choose.appendChild(option);
    });
    choose.addEventListener("change", function () {
      onChange(choose.value === "" ? undefined : parseInt(choose.value, 10));
      write();
    });
    row.appendChild(label);
    row.appendChild(choose);
    row.appendChild(after);
    return row;
  }

  // Drawn in a holder of its own, so typing a choice redraws only this.
  function drawReview(q, id, box) {
    box.textContent = "";
    if (q.scored && (q.type === SCALE || q.points)) {
      var range = answerRange(q), below = [], above = [];
      for (var n = range[0]; n < range[1]; n++) { below.push(n); above.push(n + 1); }
      var points = q.type !== SCALE;
      box.appendChild(thresholdRow(id + "review-below", points ? W.review_points_at_or_below : W.review_at_or_below, below, q.review_at_or_below, function (v) { q.review_at_or_below = v; }));
      // Kept as "above one less" (PHQ-9 item 9: above 0), said as "1 or higher".
      var shownAbove = typeof q.review_above === "number" ? q.review_above + 1 : undefined;
      box.appendChild(thresholdRow(id + "review-above", points ? W.review_points_at_or_above : W.review_at_or_above, above, shownAbove, function (v) { q.review_above = v === undefined ? undefined : v - 1; }));
    }
    var canChoose = answersOf(q).filter(function (c) { return c && c.trim(); });
    if (!canChoose.length) return;
    var group = el("fieldset", { "class": "qe-review-choices" });
    group.appendChild(el("legend", {}, W.review_choices));
    canChoose.forEach(function (choice, n) {
      var shown = q.type === "yes_no" ? W.yes_no[choice] : choice;
      var watched = (q.review_choices || []).indexOf(choice) !== -1;
      group.appendChild(labelled(id + "review-choice-" + n, shown, input("checkbox", watched, function (v) {
        var kept = (q.review_choices || []).filter(function (c) { return c !== choice; });
        q.review_choices = v ? kept.concat([choice]) : kept;
      }), true));
    });
    box.appendChild(group);
  }

  function input(type, value, onChange) {
    var node = type === "textarea" ? el("textarea", { rows: "3", "class": "vLargeTextField" }) : el("input", { type: type, "class": type === "checkbox" ? "" : "vTextField" });
    if (type === "checkbox") node.checked = !!value; else node.value = value || "";
    node.addEventListener(type === "checkbox" ? "change" : "input", function () {
      onChange(type === "checkbox" ? node.checked : node.value);
      write();
    });
    return node;
  }

  function select(options, value, onChange) {
    var node = el("select");
    Object.keys(options).forEach(function (key) {
      var option = el("option", { value: key }, options[key]);
      if (key === value) option.selected = true;
      node.appendChild(option);
    });
    node.addEventListener("change", function () { onChange(node.value); write(); });
    return node;
  }

  // Drawing again takes away the button that was pressed, and with it the
  // focus: onClick returns the id of what takes the keyboard next.
  function button(text, onClick, disabled, id) {
    var node = el("button", { type: "button", "class": "button qe-button" }, text);
    if (id) node.id = id;
    if (disabled) node.disabled = true;
    node.addEventListener("click", function () { var next = onClick(); write(); draw(next); });
    return node;
  }

  // A moved question keeps the focus on its move button, or on the other one
  // where that end is reached (a disabled button cannot hold focus).
  function moveButtonOf(index, preferred) {
    var last = state.questions.length - 1;
    if (preferred === "up") return "qe-" + index + (index > 0 ? "-up" : "-down");
    return "qe-" + index + (index < last ? "-down" : "-up");
  }

  function drawQuestion(q, index) {
    var id = "qe-" + index + "-";
    var box = el("fieldset", { "class": "qe-question module" });
    box.appendChild(el("legend", {}, W.question.replace("%(n)s", index + 1)));
    box.appendChild(labelled(id + "text", W.text, input("text", q.text, function (v) { q.text = v; })));
    box.appendChild(labelled(id + "type", W.type, select(W.types, q.type, function (v) { q.type = v; draw(id + "type"); })));
    box.appendChild(labelled(id + "help", W.help, input("text", q.help, function (v) { q.help = v; })));
    var review = el("div", { "class": "qe-review" });
    if (CHOICE_TYPES.indexOf(q.type) !== -1) {
      box.appendChild(labelled(id + "choices", W.choices, input("textarea", (q.choices || []).join("\n"), function (v) { q.choices = v.split("\n"); drawReview(q, id, review); })));
    }
    if (q.type === SCALE) {
      box.appendChild(labelled(id + "low", W.low, input("text", q.low, function (v) { q.low = v; })));
      box.appendChild(labelled(id + "high", W.high, input("text", q.high, function (v) { q.high = v; })));
      box.appendChild(labelled(id + "scored", W.scored, input("checkbox", q.scored, function (v) { q.scored = v; draw(id + "scored"); }), true));
      if (q.scored) box.appendChild(labelled(id + "reverse", W.reverse, input("checkbox", q.reverse, function (v) { q.reverse = v; }), true));
    }
    drawReview(q, id, review);
    box.appendChild(review);
    if (!(q.scored && (q.type === SCALE || q.points))) {  // a scored question is always required
      box.appendChild(labelled(id + "required", W.required, input("checkbox", q.required, function (v) { q.required = v; }), true));
    }
    var actions = el("div", { "class": "qe-actions" });
    var list = state.questions;
    actions.appendChild(button(W.up, function () {
      list.splice(index - 1, 0, list.splice(index, 1)[0]);
      return moveButtonOf(index - 1, "up");
    }, index === 0, id + "up"));
    actions.appendChild(button(W.down, function () {
      list.splice(index + 1, 0, list.splice(index, 1)[0]);
      return moveButtonOf(index + 1, "down");
    }, index === list.length - 1, id + "down"));
    actions.appendChild(button(W.remove, function () {
      list.splice(index, 1);
      // The question that takes its place, else the one before, else "Add".
      if (!list.length) return "qe-add";
      return "qe-" + Math.min(index, list.length - 1) + "-text";
    }, false, id + "remove"));
    box.appendChild(actions);
    return box;
  }

  function drawScore() {
    var score = state.score = state.score || { method: "mean", better: "higher", label: "" };
    var box = el("fieldset", { "class": "qe-score module" });
    box.appendChild(el("legend", {}, W.score_title));
    box.appendChild(labelled("qe-score-label", W.score_label, input("text", score.label, function (v) { score.label = v; })));
    box.appendChild(labelled("qe-score-method", W.score_method, select(W.methods, score.method, function (v) { score.method = v; })));
    box.appendChild(labelled("qe-score-better", W.score_better, select(W.betters, score.better, function (v) { score.better = v; })));
    return box;
  }

  // Drawn again after a change of shape; focus goes back where it was.
  function draw(focusId) {
    holder.textContent = "";
    var config = editors[kindSelect.value];
    if (!config) { holder.hidden = true; return; }
    W = config.words;
    if (state === null) {
      state = read();
      if (state !== null) lastRead.value = area.value;
    }
    if (state === null) {
      // Refused for its JSON: the questions as the editor last had them, if it sent them.
      state = read(area.getAttribute("data-builder-options") || "");
      if (state !== null && problem && area.getAttribute("data-builder-options")) {
        lastRead.value = area.getAttribute("data-builder-options");
        keepQuestions(W.kept);
      } else {
        state = null;
        holder.hidden = false;
        holder.appendChild(el("p", { "class": "help qe-note", role: "status" }, W.unreadable));
        return;
      }
    }
    holder.hidden = false;
    state.questions.forEach(function (q, index) { holder.appendChild(drawQuestion(q, index)); });
    holder.appendChild(button(W.add, function () {
      state.questions.push({ type: "long_text", text: "", required: false });
      return "qe-" + (state.questions.length - 1) + "-text";
    }, false, "qe-add"));
    if (state.questions.some(function (q) { return q.scored; })) holder.appendChild(drawScore());
    var again = focusId && document.getElementById(focusId);
    if (again) again.focus();
  }

  // The box holds the options of the kind chosen now. Switching kind puts
  // away what it held (a worksheet's questions would be refused by a kind
  // that takes no options) and brings back what that kind had, so switching
  // back loses nothing typed; a kind not seen yet on this page starts empty.
  var shownKind = kindSelect.value;
  var kept = {};
  // A kind with fields of its own for its options (a reading's text and prompts): only the
  // chosen kind's fields show, and the JSON box is put away while they do.
  var jsonBox = area.closest("fieldset");
  function showOwnFields() {
    var own = false;
    document.querySelectorAll("fieldset.kind-options").forEach(function (set) {
      var chosen = set.classList.contains("kind-options-" + kindSelect.value);
      set.style.display = chosen ? "" : "none";
      own = own || chosen;
    });
    // A kind that takes no options asks nothing here (the preview shows what it asks),
    // unless the box holds something to fix.
    var nothing = !editors[kindSelect.value] && ["", "{}"].indexOf(area.value.replace(/\s/g, "")) !== -1
      && !jsonBox.querySelector(".errorlist");
    if (jsonBox) jsonBox.style.display = own || nothing ? "none" : "";
  }
  kindSelect.addEventListener("change", showOwnFields);
  showOwnFields();
  kindSelect.addEventListener("change", function () {
    kept[shownKind] = area.value;
    shownKind = kindSelect.value;
    area.value = Object.prototype.hasOwnProperty.call(kept, shownKind) ? kept[shownKind] : "{}";
    state = null;
    questionsRead();
    showOwnFields();
    draw();
  });
  // Typed into the JSON box: drawn as questions once it reads, kept as they were until then.
  area.addEventListener("input", function () {
    if (!editors[kindSelect.value]) return;
    var typed = read();
    if (typed === null) {
      var reason = "";
      try { JSON.parse(area.value); } catch (e) { reason = e.message; }
      keepQuestions(W.json_problem.replace("%(problem)s", reason || W.not_questions));
      return;
    }
    state = typed;
    lastRead.value = area.value;
    questionsRead();
    showOwnFields();
    draw();
  });
  draw();
});
