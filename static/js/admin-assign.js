// The assignment form: show only the dates the chosen schedule uses, offer the
// library's words to personalise, and keep the preview beside the form current.
// Without this script every field shows and the preview button still works.
(function () {
  "use strict";

  function ready(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }

  ready(function () {
    var form =
      document.getElementById("assignment_form") || document.getElementById("assign-many-form");
    if (!form) return;
    var rows = {
      due_on: form.querySelector(".field-due_on"),
      weekdays: form.querySelector(".field-weekdays"),
      days_before: form.querySelector(".field-days_before"),
      ends_on: form.querySelector(".field-ends_on"),
    };

    // Shown only for the schedules that need them, so while they show they are
    // needed: labelled as the admin labels a required field. Left plain, they
    // read as optional until Save refused the form for an empty "Repeats until".
    [rows.weekdays, rows.days_before, rows.ends_on].forEach(function (row) {
      var label = row && row.querySelector(".flex-container > label");
      if (label) label.classList.add("required");
    });

    function schedule() {
      var checked = form.querySelector("input[name=schedule]:checked");
      return checked ? checked.value : "once";
    }

    function showScheduleFields() {
      var s = schedule();
      if (rows.due_on) rows.due_on.hidden = s !== "once";
      if (rows.weekdays) rows.weekdays.hidden = s !== "weekly" && s !== "fortnightly";
      if (rows.days_before) rows.days_before.hidden = s !== "before_session";
      if (rows.ends_on) rows.ends_on.hidden = s === "once";
    }

    var library = {};
    var data = document.getElementById("library-instructions");
    if (data) library = JSON.parse(data.textContent);
    var instructions = form.querySelector("textarea[name=instructions]");
    var exercise = form.querySelector("[name=exercise]");
    // The words offered last: the library's for the exercise already chosen,
    // if the box holds exactly those. A box the page came back with holding
    // the therapist's own words (a refused save, their saved work) is theirs.
    var offered = exercise ? library[exercise.value] || "" : "";

    function offerLibraryWords() {
      // Fill the box with the library's words only while it holds nothing of
      // the therapist's own: empty, or the words offered last time.
      if (!instructions || !exercise) return;
      var words = library[exercise.value] || "";
      if (instructions.value.trim() === "" || instructions.value === offered) {
        instructions.value = words;
        offered = words;
      }
    }

    var previewButton = document.getElementById("preview-button");
    var timer = null;
    function refreshPreview() {
      if (!previewButton || !exercise || !exercise.value) return;
      clearTimeout(timer);
      timer = setTimeout(function () {
        if (form.requestSubmit) form.requestSubmit(previewButton);
        else previewButton.click();
      }, 400);
    }

    // The fields only some kinds use (the "no contact since" date), shown for those kinds.
    var fieldsData = document.getElementById("library-fields");
    var known = fieldsData ? JSON.parse(fieldsData.textContent) : { all: [], exercises: {} };
    var kindFields = known.exercises;
    var kindRows = known.all
      .map(function (name) {
        return form.querySelector(".field-" + name);
      })
      .filter(Boolean);
    function showKindFields() {
      if (!exercise || (exercise.value && !kindFields[exercise.value])) return;
      var used = kindFields[exercise.value] || [];
      kindRows.forEach(function (row) {
        row.hidden = !used.some(function (name) {
          return row.classList.contains("field-" + name);
        });
      });
    }

    form.addEventListener("change", function (event) {
      if (event.target.name === "schedule") showScheduleFields();
      if (event.target === exercise) {
        offerLibraryWords();
        showKindFields();
      }
      refreshPreview();
    });
    // Typing in any box (the words, a date) updates the preview once the typing pauses.
    form.addEventListener("input", refreshPreview);
    // The admin's calendar and "Today" links set a date without an input or change event.
    document.addEventListener("click", function (event) {
      if (event.target.closest && event.target.closest(".datetimeshortcuts a, .calendarbox a")) {
        refreshPreview();
      }
    });
    showScheduleFields();
    showKindFields();
    var frame = document.getElementById("assign-preview");
    if (exercise && exercise.value) {
      offerLibraryWords();
      // A page drawn again after a refused save brings its preview with it.
      if (!(frame && frame.hasAttribute("data-shown"))) refreshPreview();
    }
  });
})();
