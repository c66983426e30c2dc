// Repeatable rows (boundary steps, people, places): add and remove rows in
// the page, without a reload, so nothing typed in the other rows is touched.
// What it announces comes, translated, from data-msg-* on the row set.
// A removed row is only switched off (its inputs disabled, so they are not
// sent), keeps its number, and can be brought back with "Undo". Nothing is
// kept in browser storage. Without this script the page still works: it always offers one
// empty row, and another appears after each save.
(function () {
  "use strict";

  // Rows are numbered in page order, removed ones included: a removed row
  // keeps its number (it reads "Step 2 (removed)", and can come back as
  // Step 2), so the rows after it are not renumbered into a second "Step 2".
  // Saving numbers the rows that were sent afresh.
  function renumber(list) {
    var n = 0;
    list.querySelectorAll("[data-row]").forEach(function (row) {
      n += 1;
      row.querySelectorAll("[data-row-number]").forEach(function (el) {
        el.textContent = String(n);
      });
    });
    return n;
  }

  function numberOf(row) {
    return row.querySelector("[data-row-number]").textContent;
  }

  function tellAutosave(form) {
    // autosave.js listens for input on the whole form.
    form.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function setRemoved(row, removed) {
    row.querySelectorAll("input, select, textarea").forEach(function (input) {
      input.disabled = removed;
    });
    row.querySelector("[data-row-fields]").hidden = removed;
    row.querySelector("[data-row-removed]").hidden = !removed;
    row.querySelector("[data-row-removed-note]").hidden = !removed;
    if (removed) row.setAttribute("data-removed", "");
    else row.removeAttribute("data-removed");
  }

  // The line a written row folds to, as the server finds it (homework.kinds.rows.fold_line):
  // its first words, and its first choice.
  function showFoldLine(row, summary) {
    var words = row.querySelector("[data-row-fields] input[type=text], [data-row-fields] textarea");
    var choice = row.querySelector("[data-row-fields] input[type=radio]:checked");
    var name = words ? words.value.trim() : "";
    var label = name && choice && choice.labels.length ? choice.labels[0].textContent.trim() : "";
    summary.querySelector("[data-fold-words]").textContent = name;
    summary.querySelector("[data-fold-choice]").textContent = label ? " · " + label : "";
  }

  // Written rows fold as the next one is added, unless something in them needs another look.
  function foldWritten(list) {
    list.querySelectorAll("[data-row]:not([data-removed]) [data-row-fold][open]").forEach(function (fold) {
      var words = fold.querySelector("[data-fold-words]");
      if (words.textContent && !fold.querySelector(".field--error, .field--over")) fold.open = false;
    });
  }

  function wire(row, set) {
    var form = set.closest("form");
    var summary = row.querySelector("[data-row-summary]");
    if (summary) {
      row.addEventListener("input", function () { showFoldLine(row, summary); });
    }
    var status = set.querySelector("[data-rows-status]");
    var remove = row.querySelector("[data-row-remove]");
    var undo = row.querySelector("[data-row-undo]");
    remove.hidden = false;
    remove.addEventListener("click", function () {
      setRemoved(row, true);
      status.textContent = set.getAttribute("data-msg-removed").replace("{n}", numberOf(row));
      undo.focus();
      tellAutosave(form);
    });
    undo.addEventListener("click", function () {
      setRemoved(row, false);
      status.textContent = set.getAttribute("data-msg-restored").replace("{n}", numberOf(row));
      remove.focus();
      tellAutosave(form);
    });
  }

  function renamed(value, index) {
    return value.split("__prefix__").join(String(index));
  }

  document.querySelectorAll("[data-rows]").forEach(function (set) {
    var list = set.querySelector("[data-rows-list]");
    var template = set.querySelector("template[data-row-template]");
    var add = set.querySelector("[data-row-add]");
    var status = set.querySelector("[data-rows-status]");
    var max = parseInt(set.getAttribute("data-max"), 10);
    var next = parseInt(set.getAttribute("data-next-index"), 10);

    list.querySelectorAll("[data-row]").forEach(function (row) { wire(row, set); });
    add.hidden = false;
    add.addEventListener("click", function () {
      var live = list.querySelectorAll("[data-row]:not([data-removed])").length;
      if (live >= max) {
        status.textContent = set.getAttribute("data-msg-full");
        return;
      }
      foldWritten(list);
      var row = template.content.firstElementChild.cloneNode(true);
      var index = next;
      next += 1;
      ["name", "id", "for", "aria-describedby"].forEach(function (attr) {
        // The row itself too: its id is where the error summary's link lands.
        [row].concat(Array.prototype.slice.call(row.querySelectorAll("[" + attr + "]")))
          .forEach(function (el) {
            if (el.hasAttribute(attr)) el.setAttribute(attr, renamed(el.getAttribute(attr), index));
          });
      });
      list.appendChild(row);
      wire(row, set);
      // Its text fields count toward their limits too (limits.js).
      row.dispatchEvent(new CustomEvent("portal:row-added", { bubbles: true }));
      var n = renumber(list);
      status.textContent = set.getAttribute("data-msg-added").replace("{n}", String(n));
      var first = row.querySelector("input:not([type=hidden]), textarea, select");
      if (first) first.focus();
    });
  });
})();
