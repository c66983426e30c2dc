"""An answer the therapist chose to watch raises the review flag, as "felt
unsafe" does: a scored answer at or below (or above) a value, or a chosen
answer. The flag names the answer, never more; nothing is read into what
the client wrote (CLINICAL.md, Risk, flags and alerts)."""

import copy
import importlib
import json
import uuid

import pytest
from django.apps import apps
from django.core import mail
from django.core.management import call_command
from django.test import TestCase
from django.urls import reverse
from django.utils import timezone

from homework import services
from homework.kinds import ResponseInvalid
from homework.kinds.worksheet import KIND as WORKSHEET
from homework.models import Entry, Exercise
from homework.selectors import staff_home
from homework.selectors.caseload import caseload, sorted_rows
from practice.models import User
from tests.conftest import login, save_change_form
from tests.factories import AssignmentFactory, ClientFactory, EntryFactory, ExerciseFactory
from tests.helpers_discreet import assert_discreet, readable_parts
from tests.helpers_worksheets import watching_safety
from tests.homework.summary.conftest import pdf_text

pytestmark = pytest.mark.django_db

CHECK_IN = "Weekly check-in: pull and clarity"
SAFE_WORDS = "How safe have you felt? 0 / 10"
THEIR_WORDS = "He turned up outside my work"
MIGRATION = importlib.import_module("homework.migrations.0029_check_in_watches_safety")


def scale(key: str, **extra: object) -> dict[str, object]:
    return {"key": key, "type": "scale_0_10", "text": f"{key}?", "scored": True, **extra}


def where_question(*, watched: list[str]) -> dict[str, object]:
    return {
        "key": "where",
        "type": "single_choice",
        "text": "Where?",
        "choices": ["Home", "Work"],
        "review_choices": watched,
    }


def kinds_question(*, watched: list[str]) -> dict[str, object]:
    return {
        "key": "kinds",
        "type": "multiple_choice",
        "text": "Which?",
        "choices": ["a", "b", "c"],
        "review_choices": watched,
    }


def watched(*questions: dict[str, object]) -> dict[str, object]:
    return {"questions": list(questions), "score": {"method": "mean", "better": "higher"}}


def problems(options: object) -> list[str]:
    with pytest.raises(ResponseInvalid) as caught:
        WORKSHEET.clean_options(options)
    return caught.value.errors["options"]


def check_in() -> Exercise:
    return Exercise.objects.get(owner__isnull=True, title=CHECK_IN)


def send_check_in(cast, *, safe: int, **fields: str) -> Entry:
    """alice sends the library's weekly check-in through the portal, ticking no flag."""
    assignment = AssignmentFactory.create(client=cast.alice, exercise=check_in())
    key = uuid.uuid4()
    answers = {"pull": 5, "clarity": 5, "supported": 5, "safe": safe, "kindness": 5}
    with TestCase.captureOnCommitCallbacks(execute=True):
        page = login(cast.alice.portal_user).post(
            reverse("homework:do", args=[assignment.pk]),
            {
                "key": str(key),
                "version": "0",
                **{f"r-{name}": str(value) for name, value in answers.items()},
                "r-anything_else": THEIR_WORDS,
                **fields,
            },
        )
    assert page.status_code == 302, page.content
    return Entry.objects.get(key=key)


# -- the options


def test_a_watch_at_or_below_above_and_on_chosen_answers_is_kept_as_saved():
    options = watched(
        scale("safe", review_at_or_below=3),
        scale("pull", review_above=8),
        where_question(watched=["Work"]),
        kinds_question(watched=["c", "a"]),
        {"key": "ok", "type": "yes_no", "text": "Safe at home?", "review_choices": ["no"]},
    )
    cleaned = WORKSHEET.clean_options(options)
    rules = [
        {name: q[name] for name in q if name.startswith("review_")} for q in cleaned["questions"]
    ]
    assert rules == [
        {"review_at_or_below": 3},
        {"review_above": 8},
        {"review_choices": ["Work"]},
        {"review_choices": ["a", "c"]},  # in the question's own order
        {"review_choices": ["no"]},
    ]
    assert WORKSHEET.clean_options(cleaned) == cleaned


@pytest.mark.parametrize(
    ("question", "message"),
    [
        (scale("safe", review_at_or_below=11), "a flag at 11 is outside what this question"),
        (scale("safe", review_at_or_below=-1), "use a number from 0 to 9"),
        (scale("safe", review_at_or_below=10), "a flag at 10 is outside"),
        (scale("safe", review_above=10), "a flag at 10 is outside"),
        (scale("safe", review_at_or_below="3"), "“review_at_or_below” is a whole number"),
        (
            {"key": "safe", "type": "scale_0_10", "text": "Safe?", "review_at_or_below": 3},
            "“review_at_or_below” is a whole number, on a scored question",
        ),
        (
            {"key": "t", "type": "long_text", "text": "What happened?", "review_choices": ["x"]},
            "only choice and yes/no questions can flag an answer",
        ),
        (
            {
                "key": "w",
                "type": "single_choice",
                "text": "Where?",
                "choices": ["Home", "Work"],
                "review_choices": ["Car"],
            },
            "“Car” is not one of this question’s answers",
        ),
        (
            {
                "key": "w",
                "type": "single_choice",
                "text": "Where?",
                "choices": ["Home", "Work"],
                "review_choices": ["Home", "Work"],
            },
            "every answer would raise the flag",
        ),
        (
            {"key": "ok", "type": "yes_no", "text": "Safe?", "review_choices": []},
            "“review_choices” lists the answers that raise the flag",
        ),
    ],
)
def test_a_watch_that_cannot_work_is_refused_naming_its_question(question, message):
    said = problems(watched(scale("other"), question))
    assert any(m.startswith("Question 2: ") and message in m for m in said), said


def test_a_refused_watch_changes_nothing_in_the_admin_or_the_api(cast):
    exercise = ExerciseFactory.create(kind="worksheet", owner=cast.tara, title="Mine")
    exercise.options = watched(scale("safe"))
    services.exercise_save(actor=cast.tara, exercise=exercise)
    before = copy.deepcopy(exercise.options)
    bad = watched(scale("safe", review_at_or_below=12))
    page = save_change_form(
        login(cast.tara),
        reverse("admin:homework_exercise_change", args=[exercise.pk]),
        {
            "kind": "worksheet",
            "title": "Mine, renamed",
            "is_active": "on",
            "instructions": "",
            "therapist_note": "",
            "options": json.dumps(bad),
        },
    )
    assert page.status_code == 200
    assert "a flag at 12 is outside" in page.content.decode()
    api = login(cast.tara).post(
        "/api/v1/exercises/",
        {"kind": "worksheet", "title": "Another", "options": bad},
        content_type="application/json",
    )
    assert api.status_code == 400
    assert "a flag at 12 is outside" in json.dumps(api.json(), ensure_ascii=False)
    exercise.refresh_from_db()
    assert (exercise.title, exercise.options) == ("Mine", before)
    assert not Exercise.objects.filter(title="Another").exists()


# -- the rule


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [({"safe": 0}, True), ({"safe": 3}, True), ({"safe": 4}, False), ({"pull": 9}, True)],
)
def test_a_scored_answer_at_or_below_or_above_its_watch_is_flagged(answer, flagged):
    exercise = Exercise(
        kind="worksheet",
        options=WORKSHEET.clean_options(
            watched(
                scale("safe", review_at_or_below=3), scale("pull", review_above=8, reverse=True)
            )
        ),
    )
    # The reversed "pull" is watched on the answer as given, as the flag names it.
    response = {"safe": 7, "pull": 2, **answer}
    assert WORKSHEET.needs_review(response, exercise=exercise) is flagged


@pytest.mark.parametrize(
    ("response", "flagged"),
    [
        ({"where": "Work"}, True),
        ({"where": "Home"}, False),
        ({"kinds": ["a", "c"]}, True),
        ({"kinds": ["a", "b"]}, False),
        ({"ok": "no"}, True),
        ({"ok": "yes"}, False),
        # Free text is never read for a flag, whatever it says.
        ({"what": "I did not feel safe, he was outside my work", "ok": "yes"}, False),
    ],
)
def test_a_chosen_answer_that_is_watched_is_flagged_and_free_text_never(response, flagged):
    exercise = Exercise(
        kind="worksheet",
        options=WORKSHEET.clean_options(
            {
                "questions": [
                    where_question(watched=["Work"]),
                    kinds_question(watched=["c"]),
                    {"key": "ok", "type": "yes_no", "text": "Safe?", "review_choices": ["no"]},
                    {"key": "what", "type": "long_text", "text": "What happened?"},
                ]
            }
        ),
    )
    assert WORKSHEET.needs_review(response, exercise=exercise) is flagged


def test_the_library_watches_the_check_ins_safety_answer_at_3_or_lower():
    safe = next(q for q in WORKSHEET.questions(check_in()) if q["key"] == "safe")
    assert safe["review_at_or_below"] == 3
    assert "3 or lower is flagged" in check_in().therapist_note


# -- where the flag shows


def test_not_safe_answered_without_the_tick_is_flagged_first_everywhere_by_its_answer(cast):
    entry = send_check_in(cast, safe=0)
    assert entry.needs_review and not entry.felt_unsafe
    home = staff_home(user=cast.tara, previous_visit=None, now=timezone.now())
    assert home.to_review == [entry] and home.new_by_client[0].to_review == 1
    tara = login(cast.tara)
    page = tara.get(reverse("admin:index")).content.decode()
    review_card = page[page.index('id="review-title"') : page.index('id="today-title"')]
    assert SAFE_WORDS in review_card
    assert THEIR_WORDS not in page  # the flag names the answer, not what they wrote

    [row] = [
        r
        for r in caseload(user=cast.tara, therapist=cast.tara, now=timezone.now())
        if r.client == cast.alice
    ]
    assert (row.unread_flags, row.unread_review, row.review_words) == (1, 1, [SAFE_WORDS])
    listed = tara.get(reverse("admin:caseload")).content.decode()
    row_html = listed[listed.index(f'id="client-{cast.alice.pk}"') :]
    assert SAFE_WORDS in row_html[: row_html.index("</tr>")]

    pdf = pdf_text(tara.get(reverse("admin:clients_client_summary", args=[cast.alice.pk])).content)
    glance = pdf[pdf.index("AN ANSWER TO REVIEW") : pdf.index("ASSIGNED WORK")]
    assert SAFE_WORDS in glance

    since = tara.get(
        reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])
    ).content.decode()
    # The open alert first, with its form; then the summary's own "At a glance".
    alerts_card = since[since.index('id="alerts-title"') : since.index("An answer to review")]
    assert SAFE_WORDS in alerts_card and 'name="note"' in alerts_card
    glance = since[since.index("An answer to review") : since.index("Assigned work")]
    assert SAFE_WORDS in glance


def test_the_flag_sends_the_discreet_email_that_names_nothing(cast):
    send_check_in(cast, safe=2)
    [email] = mail.outbox
    assert "soon" in email.subject
    assert_discreet(
        *readable_parts(email),
        canaries=("Alice", "safe", "2 / 10", "outside", CHECK_IN, "check-in"),
    )


def test_a_safe_enough_answer_is_an_ordinary_entry(cast):
    entry = send_check_in(cast, safe=4)
    assert not entry.needs_review
    [email] = mail.outbox
    assert "soon" not in email.subject
    [row] = [
        r
        for r in caseload(user=cast.tara, therapist=cast.tara, now=timezone.now())
        if r.client == cast.alice
    ]
    assert (row.unread_flags, row.review_words) == (0, [])


def test_a_watched_answer_in_a_private_entry_shows_nowhere(cast):
    entry = send_check_in(cast, safe=0, private="on")
    assert entry.private
    page = login(cast.tara).get(reverse("admin:index")).content.decode()
    assert SAFE_WORDS not in page
    listed = login(cast.tara).get(reverse("admin:caseload")).content.decode()
    assert SAFE_WORDS not in listed


# -- entries already sent


def test_the_stored_check_in_gets_the_watch_and_entries_sent_before_stay_unflagged(cast):
    exercise = check_in()
    options = copy.deepcopy(exercise.options)
    safe = next(q for q in options["questions"] if q["key"] == "safe")
    del safe["review_at_or_below"]
    Exercise.objects.filter(pk=exercise.pk).update(
        options=options, therapist_note=MIGRATION.NOTE_BEFORE
    )
    exercise.refresh_from_db()
    own_copy = ExerciseFactory.create(
        kind="worksheet", title=CHECK_IN, owner=cast.tara, options=options
    )
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    earlier = EntryFactory.create(
        assignment=assignment,
        response={"pull": 5, "clarity": 5, "supported": 5, "safe": 1, "kindness": 5},
    )
    assert not earlier.needs_review

    MIGRATION.watch_safety(apps, None)
    exercise.refresh_from_db()
    assert exercise.therapist_note == MIGRATION.NOTE_AFTER
    assert WORKSHEET.questions(exercise)[3]["review_at_or_below"] == 3
    earlier = Entry.objects.select_related("assignment__exercise").get(pk=earlier.pk)
    assert not earlier.needs_review
    assert WORKSHEET.review_words(earlier) == [] and WORKSHEET.present(earlier)["to_review"] == []
    own_copy.refresh_from_db()
    assert own_copy.options == options  # a therapist's own copy is theirs

    MIGRATION.unwatch_safety(apps, None)
    exercise.refresh_from_db()
    assert exercise.options == options and exercise.therapist_note == MIGRATION.NOTE_BEFORE


def test_the_clients_page_names_the_answer_among_its_flags_not_yet_read(cast):
    send_check_in(cast, safe=1)
    page = login(cast.tara).get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
    text = page.content.decode()
    flags = text[text.index('id="now-flags"') : text.index('id="now-session"')]
    assert "How safe have you felt? 1 / 10" in flags


def test_the_caseload_puts_an_answer_to_review_with_felt_unsafe_before_talk_about(cast):
    talk = ClientFactory.create(therapist=cast.tara, display_name="Aaron")
    EntryFactory.create(assignment__client=talk, discuss_in_session=True)
    send_check_in(cast, safe=0)
    rows = sorted_rows(
        caseload(user=cast.tara, therapist=cast.tara, now=timezone.now()), order="-flags"
    )
    assert [row.client for row in rows[:2]] == [cast.alice, talk]


def test_a_watch_written_apart_from_any_question_is_refused():
    """A watch is part of the question it watches: one beside the questions
    names none of them, and is refused rather than kept unread."""
    said = problems({**watched(scale("safe")), "review_at_or_below": 3})
    assert any("“review_at_or_below” is not a worksheet option" in m for m in said), said


def test_the_demo_shows_a_watched_answer_on_the_home_page(db):
    call_command("seed_demo")
    therapist = User.objects.get(email="therapist@demo.test")
    home = staff_home(user=therapist, previous_visit=None, now=timezone.now())
    assert [WORKSHEET.review_words(entry) for entry in home.to_review] == [
        ["How safe have you felt? 3 / 10"]
    ]


def test_the_caseload_names_the_newest_answers_to_review_and_counts_the_rest(cast):
    check_in = AssignmentFactory.create(client=cast.alice, exercise=watching_safety())
    for safe in (0, 1, 2, 3, 3):
        EntryFactory.create(assignment=check_in, response={"safe": safe})
    [row] = [
        r
        for r in caseload(user=cast.tara, therapist=cast.tara, now=timezone.now())
        if r.client == cast.alice
    ]
    assert (row.unread_review, len(row.review_words), row.review_more) == (5, 3, 2)
    page = login(cast.tara).get(reverse("admin:caseload")).content.decode()
    assert "and 2 more answers to review" in page
