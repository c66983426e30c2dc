"""Standard measures: the PHQ-9 and the GAD-7 as published, answered in
full, item 9 flagged for review, their totals over time, and a weekly or
fortnightly rhythm in one click (CLINICAL.md, Standard measures)."""

import datetime as dt
import re
import uuid

import pytest
from django.urls import reverse
from django.utils import timezone

from homework.kinds import ResponseInvalid
from homework.kinds.worksheet import KIND as WORKSHEET
from homework.library.measures import GAD7_ITEMS, PHQ9_ITEMS
from homework.models import Assignment, Entry, Exercise
from homework.schedules import count_slots, slot_for, slots
from homework.selectors import staff_home
from homework.selectors.period import PeriodQuery
from homework.summary import selectors
from tests.conftest import login
from tests.factories import AssignmentFactory, EntryFactory

pytestmark = pytest.mark.django_db

KIND = WORKSHEET
OFTEN = ["Not at all", "Several days", "More than half the days", "Nearly every day"]


def measure(title: str) -> Exercise:
    return Exercise.objects.get(title=title, owner__isnull=True)


def answers(title: str, points: list[int]) -> dict[str, str]:
    prefix = "phq9" if title == "PHQ-9" else "gad7"
    return {f"{prefix}_{n}": OFTEN[p] for n, p in enumerate(points, start=1)}


def sent(assignment: Assignment, points: list[int], *, days_ago: int = 0, **fields) -> Entry:
    exercise = assignment.exercise
    response = answers(exercise.title, points)
    return EntryFactory.create(
        assignment=assignment,
        response=response,
        score=KIND.score(response, exercise=exercise),
        needs_review=KIND.needs_review(response, exercise=exercise),
        submitted_at=timezone.now() - dt.timedelta(days=days_ago),
        **fields,
    )


# -- as published


def test_the_measures_ask_the_published_items_with_the_published_answers():
    for title, items in (("PHQ-9", PHQ9_ITEMS), ("GAD-7", GAD7_ITEMS)):
        questions = KIND.questions(measure(title))
        scored = [q for q in questions if q.get("scored")]
        assert [q["text"] for q in scored] == items
        assert all(q["choices"] == OFTEN and q["points"] == [0, 1, 2, 3] for q in scored)
        # The closing "how difficult" question: optional, never in the total.
        difficulty = questions[-1]
        assert difficulty["key"] == "difficulty"
        assert not difficulty["required"] and not difficulty.get("scored")
    assert len(PHQ9_ITEMS) == 9 and len(GAD7_ITEMS) == 7
    assert PHQ9_ITEMS[8] == (
        "Thoughts that you would be better off dead or of hurting yourself in some way"
    )
    assert "Over the last 2 weeks" in measure("PHQ-9").instructions


@pytest.mark.parametrize(
    ("title", "total", "band"),
    [
        ("PHQ-9", 0, "Minimal"),
        ("PHQ-9", 4, "Minimal"),
        ("PHQ-9", 5, "Mild"),
        ("PHQ-9", 14, "Moderate"),
        ("PHQ-9", 15, "Moderately severe"),
        ("PHQ-9", 19, "Moderately severe"),
        ("PHQ-9", 20, "Severe"),
        ("PHQ-9", 27, "Severe"),
        ("GAD-7", 9, "Mild"),
        ("GAD-7", 10, "Moderate"),
        ("GAD-7", 15, "Severe"),
        ("GAD-7", 21, "Severe"),
    ],
)
def test_totals_fall_in_the_published_bands(title, total, band):
    exercise = measure(title)
    assert KIND.band_of(exercise, total) == band


def test_the_total_is_the_sum_of_the_points_and_the_difficulty_is_not_counted():
    exercise = measure("PHQ-9")
    response = {**answers("PHQ-9", [3, 3, 3, 3, 3, 3, 3, 3, 3]), "difficulty": "Very difficult"}
    assert KIND.score(response, exercise=exercise) == 27
    assert (KIND.score_scale(exercise) or {}).get("max") == 27
    assert (KIND.score_scale(measure("GAD-7")) or {}).get("max") == 21
    assert KIND.score(answers("GAD-7", [0, 1, 2, 3, 0, 1, 2]), exercise=measure("GAD-7")) == 9


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"questions": [{"type": "single_choice", "text": "x", "choices": ["a", "b"],
                            "scored": True, "points": [0]}],
             "score": {"method": "sum", "better": "lower"}},
            "a whole number for each choice",
        ),
        (
            {"questions": [{"type": "single_choice", "text": "x", "choices": ["a", "b"],
                            "points": [0, 1]}]},
            "only a scored single choice question has “points”",
        ),
        (
            {"questions": [{"type": "yes_no", "text": "x", "review_above": 0}]},
            "“review_above” is a whole number, on a scored question",
        ),
        (
            {"questions": [{"type": "single_choice", "text": "x", "choices": ["a", "b"],
                            "scored": True, "points": [0, 1]}],
             "score": {"method": "sum", "better": "lower",
                       "bands": [{"from": 0, "to": 0, "label": "low"}]}},
            "running from 0 to 1 without gaps",
        ),
        (
            {"questions": [{"type": "scale_0_10", "text": "x", "scored": True}],
             "score": {"method": "sum", "better": "lower", "reliable_change": -2}},
            "“reliable_change” is the points a score must move by",
        ),
    ],
)  # fmt: skip
def test_measure_options_that_cannot_be_scored_as_published_are_refused(change, message):
    with pytest.raises(ResponseInvalid) as refused:
        KIND.clean_options(change)
    assert any(message in problem for problem in refused.value.errors["options"])


# -- answered partly


def test_a_measure_sent_partly_answered_is_refused_naming_the_items_and_nothing_is_lost(cast):
    assignment = AssignmentFactory.create(client=cast.alice, exercise=measure("PHQ-9"))
    posted = {
        f"r-{key}": value
        for key, value in answers("PHQ-9", [1, 1, 0, 2, 0, 1, 0, 0, 0]).items()
        if key not in ("phq9_3", "phq9_9")
    }
    key = uuid.uuid4()
    page = login(cast.alice.portal_user).post(
        reverse("homework:do", args=[assignment.pk]),
        {"key": str(key), "version": "0", **posted},
    )
    assert page.status_code == 400
    text = page.content.decode()
    assert "Still to answer: question 3 (" in text
    assert "question 9 (" in text
    assert "question 4 (" not in text
    # Nothing sent; the answers given are back on the page, ticked.
    assert not Entry.objects.filter(key=key, status=Entry.Status.SUBMITTED).exists()
    assert re.search(r'name="r-phq9_4" value="More than half the days"[^>]*checked', text)


def test_the_api_names_the_missing_items_too():
    exercise = measure("GAD-7")
    with pytest.raises(ResponseInvalid) as refused:
        KIND.validate({"gad7_1": "Not at all"}, exercise=exercise, tz="UTC")
    summary = " ".join(refused.value.errors["__all__"])
    assert "question 2 (" in summary and "question 7 (" in summary
    assert "question 1 (" not in summary


# -- item 9


def test_any_answer_above_not_at_all_on_item_9_raises_the_review_flag_and_only_item_9():
    exercise = measure("PHQ-9")
    assert KIND.needs_review(answers("PHQ-9", [0] * 8 + [1]), exercise=exercise)
    assert not KIND.needs_review(answers("PHQ-9", [3] * 8 + [0]), exercise=exercise)
    assert not KIND.needs_review(answers("GAD-7", [3] * 7), exercise=measure("GAD-7"))


def test_sending_item_9_above_0_sets_the_flag_on_the_entry_not_felt_unsafe(cast):
    assignment = AssignmentFactory.create(client=cast.alice, exercise=measure("PHQ-9"))
    key = uuid.uuid4()
    posted = {f"r-{k}": v for k, v in answers("PHQ-9", [0] * 8 + [2]).items()}
    page = login(cast.alice.portal_user).post(
        reverse("homework:do", args=[assignment.pk]), {"key": str(key), "version": "0", **posted}
    )
    assert page.status_code == 302
    entry = Entry.objects.get(key=key)
    assert entry.needs_review and not entry.felt_unsafe and entry.score == 2


def test_an_answer_to_review_comes_first_for_its_therapist_only_and_never_from_private(cast):
    assignment = AssignmentFactory.create(client=cast.alice, exercise=measure("PHQ-9"))
    flagged = sent(assignment, [0] * 8 + [1], days_ago=1)
    sent(assignment, [0] * 8 + [3], private=True)
    now = timezone.now()
    home = staff_home(user=cast.tara, previous_visit=None, now=now)
    assert home.to_review == [flagged] and home.unsafe == []
    assert (home.new_by_client[0].client, home.new_by_client[0].to_review) == (cast.alice, 1)
    assert staff_home(user=cast.theo, previous_visit=None, now=now).to_review == []
    page = login(cast.tara).get(reverse("admin:index")).content.decode()
    assert "An answer to review" in page
    assert (
        login(cast.theo).get(reverse("admin:index")).content.decode().count("answer to review") == 0
    )


def test_the_summary_and_since_last_session_put_the_answer_to_review_first(cast):
    assignment = AssignmentFactory.create(client=cast.alice, exercise=measure("PHQ-9"))
    flagged = sent(assignment, [1] * 8 + [1], days_ago=1)
    now = timezone.now()
    period = selectors.resolve_period(
        user=cast.tara, client=cast.alice, query=PeriodQuery(), now=now
    )
    data = selectors.summary_data(
        user=cast.tara, client=cast.alice, period=period, full_detail=False, now=now
    )
    assert data.flagged_review == [flagged] and data.flagged_unsafe == []
    # Its line leads with the answer that raised it.
    assert KIND.excerpt(flagged).startswith("Thoughts that you would be better off dead")
    page = login(cast.tara).get(
        reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])
    )
    text = page.content.decode()
    # The summary's own flags lead the page: this one under its own heading.
    flags = text[text.index("An answer to review") : text.index('class="ws-card ws-digest"')]
    assert "Thoughts that you would be better off dead" in flags
    assert "Felt unsafe" not in flags


# -- the trend


def test_the_therapist_reads_the_totals_with_the_band_and_reliable_change(cast):
    assignment = AssignmentFactory.create(client=cast.alice, exercise=measure("PHQ-9"))
    entries = [
        sent(assignment, [2, 2, 2, 2, 2, 2, 2, 2, 0], days_ago=28),  # 16
        sent(assignment, [1, 1, 1, 1, 1, 1, 1, 1, 0], days_ago=14),  # 8
    ]
    chart = KIND.totals_chart(assignment.exercise, entries) or {}
    assert chart["band"] == "Mild"
    assert chart["change"] == (
        "Reliably improved, crossed the cutoff, now below it (first 16, latest 8; a change of 6 "
        "points is reliable; cutoff 10)."
    )
    (line,) = KIND.at_a_glance(entries)
    assert "16 → 8" in line and "Mild" in line and "Reliably improved" in line
    small = (
        KIND.totals_chart(assignment.exercise, [entries[1], sent(assignment, [1] * 6 + [0] * 3)])
        or {}
    )
    assert small["change"].startswith("No reliable change")


def test_the_client_sees_their_totals_as_they_came_without_bands(cast):
    assignment = AssignmentFactory.create(client=cast.alice, exercise=measure("GAD-7"))
    sent(assignment, [3, 3, 3, 3, 3, 0, 0], days_ago=14)
    sent(assignment, [1, 1, 1, 1, 1, 0, 0], days_ago=1)
    page = login(cast.alice.portal_user).get(reverse("homework:progress")).content.decode()
    assert "Your totals, each time you answered" in page
    assert ": 15" in page and ": 5" in page
    for graded in ("Severe", "Mild", "Minimal", "Moderate", "reliable change", "better", "cutoff"):
        assert graded not in page


# -- the rhythm


def test_fortnightly_work_comes_round_every_other_week():
    class Plan:
        schedule = "fortnightly"
        starts_on = dt.date(2026, 1, 5)  # a Monday
        ends_on = dt.date(2026, 3, 29)
        weekdays = [0]

    days = list(slots(Plan()))
    assert days == [dt.date(2026, 1, 5) + dt.timedelta(weeks=2 * n) for n in range(6)]
    assert count_slots(Plan(), start=Plan.starts_on, end=Plan.ends_on) == 6
    assert slot_for(Plan(), dt.date(2026, 1, 18)) == dt.date(2026, 1, 5)
