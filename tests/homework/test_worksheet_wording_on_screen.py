"""An answer answers the words on the client's screen.

A tab opened before the therapist reworded a question still shows the old
words: an answer given or changed there answers those, not the new ones the
client never saw. And a client told "this has been reworded, check your
answer" can say it still fits, so the therapist reads it under the new words.
The page says which words it showed by a mark per question, never by the
words themselves: a mark naming no wording the exercise knows changes nothing.
"""

import json
import re
import uuid

import pytest
from django.urls import reverse

from homework import services
from homework.kinds.base import Shown
from homework.kinds.worksheet.options import clean_worksheet_options
from homework.kinds.worksheet.wording import wording_mark
from homework.models import Entry, Exercise
from homework.services import Flags
from tests.conftest import login
from tests.helpers_worksheets import (
    HELPED_TEXT,
    PULL,
    PULL_NOW,
    SAFE,
    UNSAFE,
    WORKSHEET,
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

STILL_LABEL = "My answer still fits the question as it reads now."


def marks_on(page: str) -> dict[str, str]:
    """What a portal page says it shows: ``worded-<key>`` → mark, as posted."""
    return dict(re.findall(r'name="(worded-[a-z0-9_]+)" value="([0-9a-f]{12})"', page))


def still_boxes(page: str) -> dict[str, str]:
    return dict(
        re.findall(r'type="checkbox" name="(still-[a-z0-9_]+)" value="([0-9a-f]{12})"', page)
    )


def _autosave(http, entry_or_key, assignment_id, version, fields):
    key = entry_or_key if isinstance(entry_or_key, str) else str(entry_or_key.key)
    return http.post(
        reverse("homework:autosave", args=[assignment_id]),
        {"key": key, "version": str(version), **fields},
    )


# -- 1. a stale tab: the words on its screen, not the ones since


@pytest.mark.parametrize("save", ["autosave", "send"])
def test_an_answer_given_in_a_tab_opened_before_the_rewording_answers_the_old_words(cast, save):
    exercise, assignment, keys = weekly_check_in(cast)
    pull, safe, helped = keys
    http = login(cast.alice.portal_user)
    page = http.get(reverse("homework:do", args=[assignment.pk])).text  # the tab opens
    shown = marks_on(page)
    assert set(shown) == {f"worded-{key}" for key in keys}
    reword_pull_and_safe(cast, exercise)  # the therapist rewords, the tab stays as it was

    key = str(uuid.uuid4())
    fields = {**check_in_form(keys, safe="no"), **shown}
    if save == "autosave":
        reply = _autosave(http, key, assignment.pk, 0, fields)
        assert reply.status_code == 200, reply.content
    else:
        reply = http.post(
            reverse("homework:do", args=[assignment.pk]), {"key": key, "version": "0", **fields}
        )
        assert reply.status_code == 302, reply.content

    entry = Entry.objects.get(key=key)
    assert wordings_of(entry) == {pull: PULL, safe: SAFE, helped: HELPED_TEXT}
    if save == "send":
        for name, text in pages(cast, entry, http).items():
            assert shown_with(text, SAFE, "No"), name
            assert not shown_with(text, UNSAFE, "No"), name


def test_a_change_made_in_a_stale_tab_answers_the_words_that_tab_showed(cast):
    """The entry kept the old words; the old tab changes the answer: still those words."""
    exercise, draft, keys, http = drafted_check_in(cast)
    shown = marks_on(http.get(reverse("homework:do", args=[draft.assignment_id])).text)
    reword_pull_and_safe(cast, exercise)

    reply = _autosave(
        http,
        draft,
        draft.assignment_id,
        draft.version,
        {**check_in_form(keys, safe="yes"), **shown},
    )

    assert reply.status_code == 200, reply.content
    assert wordings_of(draft) == as_worded(keys, safe=SAFE)
    # Opened afresh, the page shows the new words and says what the answer answered.
    page = flat(http.get(reverse("homework:do", args=[draft.assignment_id])).text)
    assert "When you answered, this read: “" + SAFE in page


def test_an_edit_in_a_stale_tab_answers_the_words_that_tab_showed(cast):
    exercise, draft, keys, http = drafted_check_in(cast)
    entry = sent_draft(http, draft, keys)
    shown = marks_on(http.get(reverse("homework:entry_edit", args=[entry.key])).text)
    reword_pull_and_safe(cast, exercise)

    edited = http.post(
        reverse("homework:entry_edit", args=[entry.key]),
        {
            **page_of(entry),
            **check_in_form(keys, safe="yes"),
            **shown,
        },
    )

    assert edited.status_code == 302, edited.content
    assert wordings_of(entry) == as_worded(keys, safe=SAFE)


def test_a_tab_older_than_two_rewordings_answers_the_first_words(cast):
    """Every wording a question has had is known, not only the last one."""
    exercise, assignment, keys = weekly_check_in(cast)
    safe = keys[1]
    http = login(cast.alice.portal_user)
    shown = marks_on(http.get(reverse("homework:do", args=[assignment.pk])).text)
    reword_pull_and_safe(cast, exercise)
    questions = [dict(q) for q in exercise.options["questions"]]
    questions[1]["text"] = "Did you feel safe where you live this week?"
    edit_questions(cast, exercise, questions)
    assert [w["text"] for w in exercise.options["worded_before"][safe]] == [SAFE, UNSAFE]

    key = str(uuid.uuid4())
    reply = _autosave(http, key, assignment.pk, 0, {**check_in_form(keys, safe="no"), **shown})

    assert reply.status_code == 200, reply.content
    assert wordings_of(Entry.objects.get(key=key))[safe] == SAFE


BAD_MARKS = {
    "too long": "0" * 10_000,
    "not a mark": "<b>Did you feel loved?</b>",
    "upper case": "ABCDEF123456",
    "a list": ["0123456789ab", "ba9876543210"],
    "another question's words": wording_mark({"type": "yes_no", "text": "Did you feel loved?"}),
}


@pytest.mark.parametrize("bad", list(BAD_MARKS))
def test_a_mark_naming_no_wording_the_exercise_knows_is_read_as_none(cast, bad):
    """Unknown, malformed or someone else's: the answer answers the words the
    form has now, as when a page sends no mark, and nothing else is written."""
    exercise, assignment, keys = weekly_check_in(cast)
    pull, safe, helped = keys
    reword_pull_and_safe(cast, exercise)
    http = login(cast.alice.portal_user)
    key = str(uuid.uuid4())
    fields = {**check_in_form(keys, safe="no"), f"worded-{safe}": BAD_MARKS[bad]}
    fields[f"worded-{pull}"] = BAD_MARKS[bad]
    fields["worded-no_such_question"] = wording_mark({"type": "yes_no", "text": SAFE})
    fields[f"still-{safe}"] = BAD_MARKS[bad]

    reply = _autosave(http, key, assignment.pk, 0, fields)

    assert reply.status_code == 200, reply.content
    entry = Entry.objects.get(key=key)
    assert wordings_of(entry) == {pull: PULL_NOW, safe: UNSAFE, helped: HELPED_TEXT}
    assert set(entry.asked) == set(keys)


def test_many_marks_are_read_no_further_than_a_page_could_send():
    post = {f"worded-q{i}": "0123456789ab" for i in range(5000)}
    shown = Shown.from_post(post)
    assert len(shown.wording_on_screen) == 100
    assert Shown.from_post({"worded-": "0123456789ab", "still-": "x"}) == Shown()


def test_the_exercise_keeps_older_wordings_from_what_was_saved_never_from_what_was_sent():
    saved = clean_worksheet_options(
        {"questions": [{"key": "safe", "type": "yes_no", "text": SAFE}]}
    )
    assert "worded_before" not in saved
    sent = {
        "questions": [{"key": "safe", "type": "yes_no", "text": UNSAFE}],
        "worded_before": {"safe": [{"type": "yes_no", "text": "Did you feel loved?"}]},
    }
    once = clean_worksheet_options(sent, saved=saved)
    assert once["worded_before"] == {"safe": [{"type": "yes_no", "text": SAFE}]}
    # Back to the first words: both are kept once, the latest last.
    back = clean_worksheet_options(
        {"questions": [{"key": "safe", "type": "yes_no", "text": SAFE}]}, saved=once
    )
    assert back["worded_before"] == {
        "safe": [{"type": "yes_no", "text": SAFE}, {"type": "yes_no", "text": UNSAFE}]
    }
    # Respelt only (case, spacing): the same words, nothing to keep.
    respelt = clean_worksheet_options(
        {"questions": [{"key": "safe", "type": "yes_no", "text": SAFE.upper()}]}, saved=saved
    )
    assert "worded_before" not in respelt


# -- the kind itself


def test_the_kind_keeps_the_wording_the_page_showed_and_only_a_known_one(cast):
    exercise = Exercise(
        kind="worksheet",
        options=clean_worksheet_options(
            {"questions": [{"key": "safe", "type": "yes_no", "text": UNSAFE}]},
            saved=clean_worksheet_options(
                {"questions": [{"key": "safe", "type": "yes_no", "text": SAFE}]}
            ),
        ),
    )
    old = wording_mark({"type": "yes_no", "text": SAFE})
    new = wording_mark({"type": "yes_no", "text": UNSAFE})
    kept = {"safe": {"type": "yes_no", "text": SAFE}}

    def asked(response, shown, *, before=None, answered_before=None):
        return WORKSHEET.asked(
            exercise,
            response,
            before=before or {},
            answered_before=answered_before or {},
            shown=shown,
        )["safe"]["text"]

    assert asked({"safe": "no"}, Shown(wording_on_screen={"safe": old})) == SAFE
    assert asked({"safe": "no"}, Shown(wording_on_screen={"safe": new})) == UNSAFE
    assert asked({"safe": "no"}, Shown(wording_on_screen={"safe": "0123456789ab"})) == UNSAFE
    assert asked({"safe": "no"}, None) == UNSAFE
    # Unchanged: the words it answered, until the client says it still fits the new ones.
    unchanged = {"before": kept, "answered_before": {"safe": "no"}}
    assert asked({"safe": "no"}, Shown(wording_on_screen={"safe": new}), **unchanged) == SAFE
    assert asked(
        {"safe": "no"},
        Shown(wording_on_screen={"safe": new}, answer_still_fits={"safe": new}),
        **unchanged,
    ) == (UNSAFE)
    # A box ticked under other words (a page older than this rewording) confirms nothing.
    assert asked({"safe": "no"}, Shown(answer_still_fits={"safe": old}), **unchanged) == SAFE
    assert asked(
        {"safe": "no"},
        Shown(wording_on_screen={"safe": old}, answer_still_fits={"safe": new}),
        **unchanged,
    ) == (SAFE)


# -- 2. "reworded, check your answer": the client can say it still fits


def test_the_reopened_draft_offers_to_say_the_answer_still_fits_the_new_words(cast):
    exercise, draft, keys, http = drafted_check_in(cast)
    reword_pull_and_safe(cast, exercise)
    pull, safe, helped = keys

    page = http.get(reverse("homework:do", args=[draft.assignment_id])).text

    boxes = still_boxes(page)
    assert set(boxes) == {f"still-{pull}", f"still-{safe}"}  # not the question left as it was
    current = {q["key"]: q for q in Exercise.objects.get(pk=exercise.pk).options["questions"]}
    assert boxes[f"still-{safe}"] == wording_mark(current[safe])
    assert marks_on(page)[f"worded-{helped}"] == wording_mark(current[helped])
    assert STILL_LABEL in page
    assert page.count(STILL_LABEL) == 2


def test_saying_the_answer_still_fits_records_it_under_the_new_words(cast):
    exercise, draft, keys, http = drafted_check_in(cast)
    reword_pull_and_safe(cast, exercise)
    pull, safe, helped = keys
    page = http.get(reverse("homework:do", args=[draft.assignment_id])).text
    boxes = still_boxes(page)

    # The answer stays "no"; only the box for it is ticked.
    reply = _autosave(
        http,
        draft,
        draft.assignment_id,
        draft.version,
        {
            **check_in_form(keys, safe="no"),
            **marks_on(page),
            f"still-{safe}": boxes[f"still-{safe}"],
        },
    )

    assert reply.status_code == 200, reply.content
    assert wordings_of(draft) == {pull: PULL, safe: UNSAFE, helped: HELPED_TEXT}
    reopened = flat(http.get(reverse("homework:do", args=[draft.assignment_id])).text)
    assert "When you answered, this read: “" + SAFE not in reopened
    assert "When you answered, this read: “" + PULL in reopened


def test_a_sent_answer_confirmed_on_the_edit_page_reads_under_the_new_words(cast):
    exercise, draft, keys, http = drafted_check_in(cast)
    entry = sent_draft(http, draft, keys)
    reword_pull_and_safe(cast, exercise)
    pull, safe, helped = keys
    page = http.get(reverse("homework:entry_edit", args=[entry.key])).text
    boxes = still_boxes(page)
    assert set(boxes) == {f"still-{pull}", f"still-{safe}"}

    edited = http.post(
        reverse("homework:entry_edit", args=[entry.key]),
        {
            **page_of(entry),
            **check_in_form(keys, safe="no"),
            **marks_on(page),
            f"still-{safe}": boxes[f"still-{safe}"],
        },
    )

    assert edited.status_code == 302, edited.content
    assert wordings_of(entry) == {pull: PULL, safe: UNSAFE, helped: HELPED_TEXT}
    for name, text in pages(cast, entry, http).items():
        assert shown_with(text, UNSAFE, "No"), name
        assert shown_with(text, PULL, "7"), name  # not confirmed: as answered
    assert f"“{UNSAFE}”" not in pages(cast, entry, http)["admin"]  # no "reworded since" note


def test_sending_without_the_box_leaves_the_answer_under_the_words_it_answered(cast):
    exercise, draft, keys, http = drafted_check_in(cast)
    reword_pull_and_safe(cast, exercise)
    page = http.get(reverse("homework:do", args=[draft.assignment_id])).text

    sent = http.post(
        reverse("homework:do", args=[draft.assignment_id]),
        {
            **page_of(draft),
            **check_in_form(keys, safe="no"),
            **marks_on(page),
        },
    )

    assert sent.status_code == 302, sent.content
    assert wordings_of(draft) == as_worded(keys, safe=SAFE)


def test_the_api_and_pages_sending_no_marks_save_as_before(cast):
    exercise, assignment, keys = weekly_check_in(cast)
    reword_pull_and_safe(cast, exercise)
    entry = services.entry_save_draft(
        user=cast.alice.portal_user,
        assignment_id=assignment.pk,
        key=uuid.uuid4(),
        base_version=0,
        data=json.loads(json.dumps({keys[1]: "no"})),
        flags=Flags(),
    )
    assert wordings_of(entry) == {keys[1]: UNSAFE}


def test_the_quick_exits_last_words_answer_the_words_on_screen(cast):
    """Leaving by the quick exit sends the page's marks with its last words."""
    exercise, assignment, keys = weekly_check_in(cast)
    http = login(cast.alice.portal_user)
    shown = marks_on(http.get(reverse("homework:do", args=[assignment.pk])).text)
    reword_pull_and_safe(cast, exercise)
    key = str(uuid.uuid4())
    posted = {**check_in_form(keys, safe="no"), **shown}

    left = http.post(
        reverse("homework:quick_exit"),
        {
            "beacon": "1",
            "draft-assignment": str(assignment.pk),
            "draft-key": key,
            "draft-version": "0",
            **{f"draft-{name}": value for name, value in posted.items()},
        },
    )

    assert left.status_code == 204
    assert wordings_of(Entry.objects.get(key=key)) == as_worded(keys, safe=SAFE)
