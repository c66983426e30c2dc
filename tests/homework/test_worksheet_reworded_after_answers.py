"""A question reworded after the client answered it keeps its key (so a typo
fix keeps its answers), but every place the answer is shown names the
wording the client answered: "Did you feel safe?" → "No" must never read
as "Did you feel unsafe?" → "No" in a clinical record."""

import uuid

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from homework import export, services
from homework.kinds.values import SummaryScope
from homework.models import Entry
from homework.services import Flags
from tests.conftest import login
from tests.factories import AssignmentFactory, EntryFactory, ExerciseFactory
from tests.helpers_entries import submit_written_record
from tests.helpers_worksheets import (
    HELPED_TEXT,
    PULL,
    PULL_NOW,
    SAFE,
    UNSAFE,
    WORKSHEET,
    answered,
    as_worded,
    check_in_form,
    drafted_check_in,
    edit_questions,
    flat,
    page_of,
    pages,
    reword_pull_and_safe,
    sent_draft,
    shown_with,
    weekly_check_in,
    wordings_of,
)


def reword_safe(cast, exercise):
    questions = [dict(q) for q in exercise.options["questions"]]
    questions[1]["text"] = UNSAFE  # same key: the answers stay attached
    edit_questions(cast, exercise, questions)
    assert exercise.options["questions"][1]["key"] == questions[1]["key"]
    return questions[1]["key"]


def test_every_page_shows_the_answer_under_the_wording_answered(cast):
    exercise, entry, http = answered(cast)
    reword_safe(cast, exercise)

    for name, page in pages(cast, entry, http).items():
        assert shown_with(page, SAFE, "No"), name
        assert not shown_with(page, UNSAFE, "No"), name
    # The client reads only what they answered; the therapist is told, quietly,
    # that the question reads differently now.
    shown = pages(cast, entry, http)
    assert "unsafe" not in shown["portal"]
    assert UNSAFE in shown["admin"]
    assert UNSAFE in shown["summary"]


def test_the_clients_download_names_the_wording_they_answered(cast):
    exercise, _entry, _http = answered(cast)
    key = reword_safe(cast, exercise)

    download = export.export_json(user=cast.alice.portal_user)
    (item,) = [e for e in download["entries"] if e["exercise"] == "Weekly check-in"]
    texts = {q["key"]: q["text"] for q in item["questions"]}
    assert item["response"][key] == "no"
    assert texts[key] == SAFE
    document = flat(export.export_document(user=cast.alice.portal_user))
    assert shown_with(document, SAFE, "No")
    assert "unsafe" not in document


def test_an_edit_after_the_rewording_answers_the_new_wording(cast):
    exercise, entry, http = answered(cast)
    key = reword_safe(cast, exercise)
    others = [q["key"] for q in exercise.options["questions"] if q["key"] != key]

    sent = http.post(
        reverse("homework:entry_edit", args=[entry.key]),
        {
            **page_of(entry),
            f"r-{others[0]}": "my sister's kitchen",
            f"r-{key}": "yes",
            f"r-{others[1]}": "twice, late at night",
        },
    )

    assert sent.status_code == 302
    for name, page in pages(cast, entry, http).items():
        assert shown_with(page, UNSAFE, "Yes"), name
        assert SAFE not in page, name


def test_a_draft_typed_before_the_rewording_and_sent_after_answers_the_new_wording(cast):
    """The client sees the current wording while they type: an answer they
    change before sending answers the form as it stands when they send it."""
    exercise = ExerciseFactory.create(kind="worksheet", title="Weekly check-in", owner=cast.tara)
    exercise.options = {"questions": [{"type": "yes_no", "text": SAFE}]}
    services.exercise_save(actor=cast.tara, exercise=exercise)
    key = exercise.options["questions"][0]["key"]
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    user, entry_key = cast.alice.portal_user, uuid.uuid4()
    draft = services.entry_save_draft(
        user=user,
        assignment_id=assignment.pk,
        key=entry_key,
        base_version=0,
        data={key: "no"},
        flags=Flags(),
    )
    assert WORKSHEET.present(draft)["answers"][0]["question"] == SAFE

    reword_safe_only = [{**exercise.options["questions"][0], "text": UNSAFE}]
    edit_questions(cast, exercise, reword_safe_only)
    sent = services.entry_submit(
        user=user,
        assignment_id=assignment.pk,
        key=entry_key,
        base_version=draft.version,
        data={key: "yes"},
        flags=Flags(),
    )

    (answer,) = WORKSHEET.present(Entry.objects.get(pk=sent.pk))["answers"]
    assert (answer["question"], answer["answer"]) == (UNSAFE, "Yes")


def test_the_summary_keeps_answers_to_each_wording_apart(cast):
    """A weekly check-in answered before and after a rewording: the answers
    are not gathered under one wording."""
    exercise, first, http = answered(cast)
    key = reword_safe(cast, exercise)
    assignment = first.assignment
    others = [q["key"] for q in exercise.options["questions"] if q["key"] != key]
    http.post(
        reverse("homework:do", args=[assignment.pk]),
        {
            "key": str(uuid.uuid4()),
            "version": "0",
            f"r-{others[0]}": "a walk",
            f"r-{key}": "yes",
            f"r-{others[1]}": "once",
        },
    )
    entries = list(Entry.objects.filter(assignment=assignment).order_by("submitted_at"))
    assert len(entries) == 2

    context = WORKSHEET.summary_context(entries, SummaryScope(full_detail=True))
    (group,) = context["groups"]
    by_text = {question["text"]: question["answers"] for question in group["questions"]}
    assert [answer["text"] for answer in by_text[SAFE]] == ["No"]
    assert [answer["text"] for answer in by_text[UNSAFE]] == ["Yes"]
    summary = flat(render_to_string(WORKSHEET.summary_template, context))
    assert shown_with(summary, SAFE, "No")
    assert not shown_with(summary, UNSAFE, "No")


def test_an_entry_saved_before_wording_was_kept_reads_as_the_form_asks_now(cast):
    """Nothing to go by: shown under today's wording, as before."""
    exercise = ExerciseFactory.create(kind="worksheet", owner=cast.tara)
    exercise.options = {"questions": [{"type": "yes_no", "text": UNSAFE}]}
    services.exercise_save(actor=cast.tara, exercise=exercise)
    key = exercise.options["questions"][0]["key"]
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    entry = EntryFactory.create(assignment=assignment, response={key: "no"})
    assert entry.asked == {}

    (answer,) = WORKSHEET.present(entry)["answers"]
    assert (answer["question"], answer["answer"], answer["now"]) == (UNSAFE, "No", "")


def test_kinds_the_therapist_cannot_reword_keep_no_wording(cast):
    """Only a kind whose questions change under an entry keeps them with it."""
    assignment = AssignmentFactory.create(client=cast.alice)
    entry = submit_written_record(assignment)
    assert entry.asked == {}


def test_the_client_reopening_their_answer_is_told_the_question_reads_differently(cast):
    """The edit form asks today's wording with the old answer ticked: the
    client is told what they answered, so sending it again is their choice."""
    exercise, entry, http = answered(cast)
    reword_safe(cast, exercise)

    page = flat(http.get(reverse("homework:entry_edit", args=[entry.key])).text)

    assert UNSAFE in page
    assert "When you answered, this read: “" + SAFE in page


def test_a_draft_reopened_after_a_rewording_says_what_it_answered(cast):
    exercise = ExerciseFactory.create(kind="worksheet", title="Weekly check-in", owner=cast.tara)
    exercise.options = {"questions": [{"type": "yes_no", "text": SAFE}]}
    services.exercise_save(actor=cast.tara, exercise=exercise)
    key = exercise.options["questions"][0]["key"]
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    services.entry_save_draft(
        user=cast.alice.portal_user,
        assignment_id=assignment.pk,
        key=uuid.uuid4(),
        base_version=0,
        data={key: "no"},
        flags=Flags(),
    )
    edit_questions(cast, exercise, [{**exercise.options["questions"][0], "text": UNSAFE}])

    page = flat(
        login(cast.alice.portal_user).get(reverse("homework:do", args=[assignment.pk])).text
    )

    assert "When you answered, this read: “" + SAFE in page


def test_the_clients_progress_charts_each_wording_apart(cast):
    """A 0–10 answer to "How strong was the pull?" is not drawn on a chart
    headed with what the question asks since."""
    exercise = ExerciseFactory.create(kind="worksheet", owner=cast.tara)
    exercise.options = {
        "questions": [{"type": "scale_0_10", "text": "How calm did you feel?", "scored": True}],
        "score": {"method": "mean", "better": "higher"},
    }
    services.exercise_save(actor=cast.tara, exercise=exercise)
    key = exercise.options["questions"][0]["key"]
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    before = {"type": "scale_0_10", "text": "How strong was the pull?"}
    now = {"type": "scale_0_10", "text": "How calm did you feel?"}
    entries = [
        EntryFactory.create(assignment=assignment, response={key: 8}, asked={key: before}),
        EntryFactory.create(assignment=assignment, response={key: 3}, asked={key: now}),
    ]

    progress = WORKSHEET.progress_context(assignment=assignment, entries=entries)
    assert progress is not None

    charted = {
        chart["text"]: [value for _day, value in chart["points"]] for chart in progress["questions"]
    }
    assert charted == {"How strong was the pull?": [8], "How calm did you feel?": [3]}


# -- saved again after a rewording: each answer keeps the words it answered ---------------
#
# The client's first save after the therapist rewords questions (an autosave, a
# send, an edit) sends every answer on the page. Only the answers they change
# answer the words on screen now; the others still answer what they read when
# they gave them, and the therapist must not read them under words the client
# never saw.


def test_an_autosave_after_a_rewording_keeps_untouched_answers_under_the_words_they_answered(
    cast,
):
    exercise, draft, keys, http = drafted_check_in(cast)
    reword_pull_and_safe(cast, exercise)

    saved = http.post(
        reverse("homework:autosave", args=[draft.assignment_id]),
        {**page_of(draft), **check_in_form(keys, safe="yes")},
    )

    assert saved.status_code == 200, saved.content
    assert wordings_of(draft) == as_worded(keys, safe=UNSAFE)
    # Reopened, the draft still asks the client to check the answer they left
    # as it was; the one they changed answers what they read.
    page = flat(http.get(reverse("homework:do", args=[draft.assignment_id])).text)
    assert "When you answered, this read: “" + PULL in page
    assert "When you answered, this read: “" + SAFE not in page


def test_sending_after_a_rewording_keeps_untouched_answers_under_the_words_they_answered(cast):
    exercise, draft, keys, http = drafted_check_in(cast)
    reword_pull_and_safe(cast, exercise)

    sent = http.post(
        reverse("homework:do", args=[draft.assignment_id]),
        {**page_of(draft), **check_in_form(keys, safe="yes")},
    )

    assert sent.status_code == 302, sent.content
    entry = Entry.objects.get(pk=draft.pk)
    assert entry.is_submitted
    pull, safe, helped = keys
    # "7" typed in the draft is 7 once sent: the same answer, not a new one.
    assert entry.response[pull] == 7
    assert wordings_of(entry) == {pull: PULL, safe: UNSAFE, helped: HELPED_TEXT}
    shown = pages(cast, entry, http)
    for name, page in shown.items():
        assert shown_with(page, PULL, "7"), name
        assert not shown_with(page, PULL_NOW, "7"), name
        assert shown_with(page, UNSAFE, "Yes"), name
        assert SAFE not in page, name
    # The therapist is told, quietly, how the first question reads now; the
    # client reads only what they answered.
    assert PULL_NOW in shown["admin"]
    assert PULL_NOW in shown["summary"]
    assert PULL_NOW not in shown["portal"]


def test_an_edit_after_a_rewording_keeps_untouched_answers_under_the_words_they_answered(cast):
    exercise, draft, keys, http = drafted_check_in(cast)
    entry = sent_draft(http, draft, keys)
    reword_pull_and_safe(cast, exercise)

    edited = http.post(
        reverse("homework:entry_edit", args=[entry.key]),
        {**page_of(entry), **check_in_form(keys, safe="yes")},
    )

    assert edited.status_code == 302, edited.content
    assert wordings_of(entry) == as_worded(keys, safe=UNSAFE)


def test_an_answer_changed_and_changed_back_answers_the_words_on_screen(cast):
    """Once the client has touched an answer after the rewording, it was
    given to the words on screen, even if it ends as it began."""
    exercise, draft, keys, http = drafted_check_in(cast)
    reword_pull_and_safe(cast, exercise)
    url = reverse("homework:autosave", args=[draft.assignment_id])
    http.post(url, {"key": str(draft.key), "version": "1", **check_in_form(keys, safe="yes")})
    http.post(url, {"key": str(draft.key), "version": "2", **check_in_form(keys, safe="no")})

    assert wordings_of(draft) == as_worded(keys, safe=UNSAFE)


@pytest.mark.parametrize("save", ["draft", "send"])
def test_an_older_entry_claims_no_wording_for_answers_left_untouched(cast, save):
    """An entry saved before wordings were kept (``asked`` empty): what its
    untouched answers were given to is not known, so none is written down for
    them (they read as the form asks now, as they always did); the answer the
    client changes answers the words on screen."""
    exercise, assignment, keys = weekly_check_in(cast)
    pull, safe, helped = keys
    older = EntryFactory.create(
        assignment=assignment,
        status=Entry.Status.DRAFT,
        submitted_at=None,
        response={pull: 7, safe: "no", helped: "a walk with my sister"},
        asked={},
    )
    reword_pull_and_safe(cast, exercise)
    write = services.entry_save_draft if save == "draft" else services.entry_submit

    write(
        user=cast.alice.portal_user,
        assignment_id=assignment.pk,
        key=older.key,
        base_version=older.version,
        data={pull: "7", safe: "yes", helped: "a walk with my sister"},
        flags=Flags(),
    )

    assert wordings_of(older) == {safe: UNSAFE}
    answers = {a["key"]: (a["question"], a["answer"]) for a in WORKSHEET.present(older)["answers"]}
    assert answers[pull] == (PULL_NOW, "7 / 10")
    assert answers[safe] == (UNSAFE, "Yes")
