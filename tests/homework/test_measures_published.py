"""The PCL-5, the DASS-21 and the WSAS as published: their items and answers, each scored from a
hand-checked set of answers to its published total, subscales and band; the cutoff and reliable
change each names; a form sent with items missing refused, naming them; and the client's own progress
page showing dated points only (CLINICAL.md, Standard measures)."""

import datetime as dt
import importlib
import re
import uuid
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from homework.kinds import ResponseInvalid
from homework.kinds.worksheet import KIND
from homework.kinds.worksheet.measures import (
    change_reading,
    cutoff_of,
    reliable_change_of,
    subscale_scores,
)
from homework.library.measures import DASS21_ITEMS, PCL5_ITEMS, WSAS_ITEMS
from homework.library.measures.dass21 import DASS21_CHOICES
from homework.library.measures.pcl5 import PCL5_CHOICES
from homework.library.measures.wsas import WSAS_CHOICES
from homework.models import Entry, Exercise
from tests.conftest import login
from tests.factories import AssignmentFactory, EntryFactory

pytestmark = pytest.mark.django_db

CHOICES = {"PCL-5": PCL5_CHOICES, "DASS-21": DASS21_CHOICES, "WSAS": WSAS_CHOICES}
PREFIX = {"PCL-5": "pcl5", "DASS-21": "dass21", "WSAS": "wsas"}
# Hand-checked: depression (3, 5, 10, 13, 16, 17, 21) 3+2+2+1+1+0+1 = 10, doubled 20, "Moderate";
# anxiety (2, 4, 7, 9, 15, 19, 20) 1+0+0+1+2+1+0 = 5, doubled 10, "Moderate"; stress (1, 6, 8, 11,
# 12, 14, 18) 2+1+3+2+3+0+2 = 13, doubled 26, "Severe". All 21 summed: 28.
DASS_POINTS = [2, 1, 3, 0, 2, 1, 0, 3, 1, 2, 2, 3, 1, 0, 2, 1, 0, 2, 1, 0, 1]


def measure(title: str) -> Exercise:
    return Exercise.objects.get(title=title, owner__isnull=True)


def answers(title: str, points: list[int]) -> dict[str, str]:
    return {f"{PREFIX[title]}_{n}": CHOICES[title][p] for n, p in enumerate(points, start=1)}


# -- as published


@pytest.mark.parametrize(
    ("title", "items", "choices", "points"),
    [
        ("PCL-5", PCL5_ITEMS, PCL5_CHOICES, [0, 1, 2, 3, 4]),
        ("DASS-21", DASS21_ITEMS, DASS21_CHOICES, [0, 1, 2, 3]),
        ("WSAS", WSAS_ITEMS, WSAS_CHOICES, list(range(9))),
    ],
)
def test_each_measure_asks_its_published_items_in_order_with_the_published_answers(
    title, items, choices, points
):
    exercise = measure(title)
    questions = [q for q in KIND.questions(exercise) if q.get("scored")]
    assert [q["text"] for q in questions] == items
    assert all(q["choices"] == choices and q["points"] == points for q in questions)
    assert all(q["scored"] and q["required"] for q in questions)
    # No item of these three is one the published guidance says to follow up.
    assert not any(key.startswith("review") for q in KIND.questions(exercise) for key in q)
    rule = KIND.score_rule(exercise) or {}
    assert rule["source"] and rule["terms"]


def test_the_published_words_where_they_are_easiest_to_get_wrong():
    assert len(PCL5_ITEMS) == 20 and len(DASS21_ITEMS) == 21 and len(WSAS_ITEMS) == 5
    assert (
        PCL5_ITEMS[0] == "Repeated, disturbing, and unwanted memories of the stressful experience?"
    )
    assert PCL5_ITEMS[16] == 'Being "superalert" or watchful or on guard?'
    assert "In the past month, how much were you bothered by:" in measure("PCL-5").instructions
    assert DASS21_ITEMS[0] == "I found it hard to wind down"
    assert DASS21_ITEMS[20] == "I felt that life was meaningless"
    assert "over the past week" in measure("DASS-21").instructions
    assert WSAS_CHOICES[0] == "0 – Not at all" and WSAS_CHOICES[8] == "8 – Very severely"
    assert "retired" in measure("WSAS").therapist_note


# -- scored as published


def test_pcl5_all_twos_is_40_in_the_clinical_range_with_its_four_clusters():
    exercise = measure("PCL-5")
    response = answers("PCL-5", [2] * 20)
    assert KIND.score(response, exercise=exercise) == 40
    assert (KIND.score_scale(exercise) or {})["max"] == 80
    assert subscale_scores(exercise, response) == {
        "intrusion": 10,
        "avoidance": 4,
        "cognition_mood": 14,
        "arousal": 12,
    }
    assert cutoff_of(exercise) == 33 and reliable_change_of(exercise) == 10
    # No severity bands are published for the PCL-5.
    assert KIND.band_of(exercise, 40) == ""


def test_dass21_scales_are_summed_doubled_and_banded_as_published():
    exercise = measure("DASS-21")
    response = answers("DASS-21", DASS_POINTS)
    assert KIND.score(response, exercise=exercise) == 28
    assert subscale_scores(exercise, response) == {"depression": 20, "anxiety": 10, "stress": 26}
    readings = KIND.subscale_readings(exercise, response)
    assert [(r["label"], r["score"], r["band"]) for r in readings] == [
        ("Depression", 20, "Moderate"),
        ("Anxiety", 10, "Moderate"),
        ("Stress", 26, "Severe"),
    ]
    everything = answers("DASS-21", [3] * 21)
    assert subscale_scores(exercise, everything) == {"depression": 42, "anxiety": 42, "stress": 42}
    assert {r["band"] for r in KIND.subscale_readings(exercise, everything)} == {"Extremely severe"}


@pytest.mark.parametrize(
    ("scale", "score", "band"),
    [
        ("depression", 9, "Normal"),
        ("depression", 10, "Mild"),
        ("depression", 28, "Extremely severe"),
        ("anxiety", 7, "Normal"),
        ("anxiety", 8, "Mild"),
        ("anxiety", 20, "Extremely severe"),
        ("stress", 14, "Normal"),
        ("stress", 15, "Mild"),
        ("stress", 34, "Extremely severe"),
    ],
)
def test_dass21_band_edges_are_lovibonds(scale, score, band):
    from homework.kinds.worksheet.measures import subscale_band

    assert subscale_band(measure("DASS-21"), scale, score) == band


def test_dass21_cutoffs_and_jacobson_truax_reliable_change():
    exercise = measure("DASS-21")
    assert [cutoff_of(exercise, s) for s in ("depression", "anxiety", "stress")] == [10, 8, 15]
    # 1.96 × sd × √2 × √(1 − α): the manual's SDs, the 21-item form's α (Henry & Crawford 2005).
    figures = [reliable_change_of(exercise, s) for s in ("depression", "anxiety", "stress")]
    assert figures == [
        pytest.approx(6.7, abs=0.05),  # 6.97 and .88
        pytest.approx(5.8, abs=0.05),  # 4.91 and .82
        pytest.approx(6.9, abs=0.05),  # 7.91 and .90
    ]
    # The whole has no published band, cutoff or reliable change.
    assert cutoff_of(exercise) is None and reliable_change_of(exercise) is None


@pytest.mark.parametrize(
    ("points", "total", "band"),
    [
        ([2, 2, 2, 2, 1], 9, "Subclinical"),
        ([2, 2, 2, 2, 2], 10, "Significant functional impairment"),
        ([4, 4, 4, 4, 4], 20, "Significant functional impairment"),
        ([0, 4, 6, 8, 3], 21, "Moderately severe or worse"),
        ([8, 8, 8, 8, 8], 40, "Moderately severe or worse"),
    ],
)
def test_wsas_totals_fall_in_mundts_bands(points, total, band):
    exercise = measure("WSAS")
    assert KIND.score(answers("WSAS", points), exercise=exercise) == total
    assert KIND.band_of(exercise, total) == band
    assert cutoff_of(exercise) == 10 and reliable_change_of(exercise) is None


def test_the_dass21_migration_gives_the_library_row_the_short_forms_reliability():
    from django.apps import apps

    dass = importlib.import_module("homework.migrations.0037_dass21_short_form_reliability")
    exercise = measure("DASS-21")
    scales = exercise.options["score"]["subscales"]
    for scale in scales:
        scale["reliability"] = dass.OLD_RELIABILITY[scale["key"]]
    scales[2]["reliability"] = 0.8  # a practice's own figure stays theirs
    exercise.options["score"]["source"] = dass.OLD_SOURCE
    exercise.therapist_note = dass.OLD_NOTE
    exercise.save()
    dass.short_form_reliability(apps, None)
    exercise.refresh_from_db()
    score = exercise.options["score"]
    assert [s["reliability"] for s in score["subscales"]] == [0.88, 0.82, 0.8]
    assert (score["source"], exercise.therapist_note) == (dass.NEW_SOURCE, dass.NEW_NOTE)
    dass.long_form_reliability(apps, None)
    exercise.refresh_from_db()
    assert [s["reliability"] for s in exercise.options["score"]["subscales"]] == [0.91, 0.84, 0.8]
    assert exercise.therapist_note == dass.OLD_NOTE


def test_sent_measures_keep_their_subscale_scores_and_the_migration_fills_earlier_ones(cast):
    exercise = measure("DASS-21")
    entry = EntryFactory.create(
        assignment=AssignmentFactory.create(client=cast.alice, exercise=exercise),
        response=answers("DASS-21", DASS_POINTS),
    )
    hand_checked = {"depression": 20, "anxiety": 10, "stress": 26}
    assert KIND.plain_columns(entry.response, exercise=exercise)["subscale_scores"] == hand_checked
    Entry.objects.filter(pk=entry.pk).update(subscale_scores=None)  # as sent before the column
    from django.apps import apps

    fill = importlib.import_module("homework.migrations.0038_entry_subscale_scores")
    fill.fill_subscale_scores(apps, None)
    entry.refresh_from_db()
    assert entry.subscale_scores == hand_checked


def test_change_is_read_against_the_reliable_change_and_the_cutoff():
    pcl5 = measure("PCL-5")
    still_above = change_reading(pcl5, 50, 38)
    assert (still_above.reliable, still_above.direction, still_above.crossed_cutoff) == (
        True,
        "improved",
        False,
    )
    below = change_reading(pcl5, 50, 30)
    assert below.crossed_cutoff and below.latest_side == "below"
    small = change_reading(pcl5, 40, 45)
    assert small.reliable is False and small.direction is None
    worse = change_reading(measure("DASS-21"), 6, 14, subscale="anxiety")
    assert worse.direction == "worsened" and worse.crossed_cutoff and worse.latest_side == "above"
    no_figure = change_reading(measure("WSAS"), 30, 5)
    assert no_figure.needed is None and no_figure.direction is None and no_figure.crossed_cutoff


def test_wsas_someone_retired_may_leave_the_work_item_out_of_the_total(cast):
    exercise = measure("WSAS")
    assert KIND.questions(exercise)[0]["type"] == "yes_no"
    every = answers("WSAS", [8, 3, 3, 3, 3])
    rest = {k: v for k, v in every.items() if k != "wsas_1"}
    assert KIND.score({"wsas_retired": "yes", **rest}, exercise=exercise) == 12
    # Answered anyway, the work item stays out, as the published form scores it.
    assert KIND.score({"wsas_retired": "yes", **every}, exercise=exercise) == 12
    assert KIND.score({"wsas_retired": "no", **every}, exercise=exercise) == 20
    assert KIND.score({"wsas_retired": "no", **rest}, exercise=exercise) is None
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    http = login(cast.alice.portal_user)
    posted = {f"r-{k}": v for k, v in rest.items()}
    refused = http.post(
        reverse("homework:do", args=[assignment.pk]),
        {"key": str(uuid.uuid4()), "version": "0", **posted, "r-wsas_retired": "no"},
    )
    assert refused.status_code == 400 and "question 2 (" in refused.content.decode()
    key = uuid.uuid4()
    sent = http.post(
        reverse("homework:do", args=[assignment.pk]),
        {"key": str(key), "version": "0", **posted, "r-wsas_retired": "yes"},
    )
    assert sent.status_code == 302
    assert Entry.objects.get(key=key).score == 12


# -- the therapist sees the subscales


def test_the_entry_page_and_the_summary_show_each_scale_with_its_band(cast):
    assignment = AssignmentFactory.create(client=cast.alice, exercise=measure("DASS-21"))
    response = answers("DASS-21", DASS_POINTS)
    entry = EntryFactory.create(
        assignment=assignment,
        response=response,
        score=KIND.score(response, exercise=assignment.exercise),
        submitted_at=timezone.now(),
    )
    page = login(cast.tara).get(reverse("admin:homework_entry_change", args=[entry.pk]))
    text = re.sub(r"<[^>]+>|[\u2066-\u2069]", "", page.content.decode())
    assert "Depression 20 (Moderate)" in text
    assert "Stress 26 (Severe)" in text
    section = KIND.summary_context([entry])
    (group,) = section["groups"]
    assert [r["band"] for r in group["subscales"]["readings"]] == ["Moderate", "Moderate", "Severe"]


# -- answered partly


@pytest.mark.parametrize(
    ("title", "points", "left_out"),
    [
        ("PCL-5", [1] * 20, ("pcl5_4", "pcl5_20")),
        ("DASS-21", DASS_POINTS, ("dass21_2", "dass21_17")),
        ("WSAS", [3, 3, 3, 3, 3], ("wsas_1",)),
    ],
)
def test_a_new_measure_sent_partly_answered_is_refused_naming_the_items(
    cast, title, points, left_out
):
    assignment = AssignmentFactory.create(client=cast.alice, exercise=measure(title))
    posted = {f"r-{k}": v for k, v in answers(title, points).items() if k not in left_out}
    key = uuid.uuid4()
    page = login(cast.alice.portal_user).post(
        reverse("homework:do", args=[assignment.pk]), {"key": str(key), "version": "0", **posted}
    )
    assert page.status_code == 400
    text = page.content.decode()
    numbers = {q["key"]: n for n, q in enumerate(KIND.questions(assignment.exercise), start=1)}
    for item in left_out:
        assert f"question {numbers[item]} (" in text
    assert not Entry.objects.filter(key=key, status=Entry.Status.SUBMITTED).exists()
    kept = next(k for k in answers(title, points) if k not in left_out)
    assert re.search(rf'name="r-{kept}" value="[^"]*"[^>]*checked', text)
    with pytest.raises(ResponseInvalid) as refused:
        KIND.validate(
            {k: v for k, v in answers(title, points).items() if k not in left_out},
            exercise=assignment.exercise,
            tz="UTC",
        )
    assert f"question {numbers[left_out[0]]} (" in " ".join(refused.value.errors["__all__"])


# -- the client


@pytest.mark.parametrize("title", ["PCL-5", "DASS-21", "WSAS"])
def test_the_client_sees_dated_totals_with_no_bands_no_scales_and_no_grades(cast, title):
    exercise = measure(title)
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    count = len([q for q in KIND.questions(exercise) if q.get("scored")])
    for days_ago, point in ((14, 3), (1, 2)):
        response = answers(title, [point] * count)
        EntryFactory.create(
            assignment=assignment,
            response=response,
            score=KIND.score(response, exercise=exercise),
            submitted_at=timezone.now() - dt.timedelta(days=days_ago),
        )
    page = login(cast.alice.portal_user).get(reverse("homework:progress")).content.decode()
    assert "Your totals, each time you answered" in page
    assert f": {3 * count:g}" in page and f": {2 * count:g}" in page
    graded = ("Severe", "Moderate", "Mild", "Normal", "Subclinical", "impairment", "cutoff")
    for word in (*graded, "reliable", "better", "Depression", "Intrusions", "Stress"):
        assert word not in page


# -- the options' checks


def _sheet(skip: tuple[str, str] | None = None, **score: Any) -> dict[str, Any]:
    """``skip``: (a question, the key whose "yes" lets it be left out)."""
    questions = [
        {"key": f"q{n}", "type": "single_choice", "text": f"Item {n}", "choices": ["a", "b", "c"],
         "scored": True, "points": [0, 1, 2]}
        for n in (1, 2, 3)
    ]  # fmt: skip
    questions.append({"key": "note", "type": "short_text", "text": "Anything else?"})
    if skip is not None:
        next(q for q in questions if q["key"] == skip[0])["skip_if_yes"] = skip[1]
    return {"questions": questions, "score": {"method": "sum", "better": "lower", **score}}


def _scale(**extra: Any) -> dict[str, Any]:
    return {"key": "first", "label": "First", "items": ["q1", "q2"], **extra}


@pytest.mark.parametrize(
    ("score", "message"),
    [
        ({"cutoff": 7}, "“cutoff” is a number on the score, above 0 and at most 6"),
        ({"cutoff": 0}, "“cutoff” is a number on the score"),
        ({"cutoff": "high"}, "“cutoff” is a number on the score"),
        ({"reliability": 0.8}, "“reliability” and “sd” go together"),
        ({"reliability": 1.2, "sd": 2}, "“reliability” is a coefficient between 0 and 1"),
        ({"reliability": 0.8, "sd": -1}, "“sd” is the published standard deviation"),
        ({"reliable_change": 100}, "“reliable_change” is the points a score must move by"),
        ({"source": ""}, "“source” is a text"),
        ({"terms": "x" * 401}, "“terms” is a text of up to 400 characters"),
        ({"loinc": {"total": "44261-5"}}, "“44261-5” is not a LOINC code"),
        ({"loinc": {"total": "PHQ9"}}, "“PHQ9” is not a LOINC code"),
        ({"loinc": {"whole": "44261-6"}}, "“whole” in “loinc” is neither"),
        ({"subscales": [_scale(items=["q1", "q9"])]}, "“q9” is not one of this worksheet's"),
        ({"subscales": [_scale(items=["q1", "note"])]}, "“note” is not a scored question"),
        (
            {"subscales": [_scale(), _scale(key="second", items=["q2", "q3"])]},
            "“q2” is already in subscale “first”",
        ),
        ({"subscales": [_scale(), _scale(items=["q3"])]}, "two subscales share this key"),
        ({"subscales": [_scale(multiplier=3)]}, "its “multiplier” is 1 or 2"),
        ({"subscales": [_scale(multiplier=True)]}, "its “multiplier” is 1 or 2"),
        ({"subscales": [_scale(key="total")]}, "not “total” or “panel”"),
        ({"subscales": [_scale(items=[])]}, "its “items” list the keys"),
        ({"subscales": [_scale(label="")]}, "its “label” is a short text"),
        ({"subscales": [_scale(weight=2)]}, "“weight” is not something a subscale can have"),
        ({"subscales": [_scale(cutoff=5)]}, "Subscale “first”: the “cutoff” is a number on the score, above 0 and at most 4"),
        (
            {"subscales": [_scale(multiplier=2, bands=[{"from": 0, "to": 4, "label": "All"}])]},
            "Subscale “first”: its “bands” are a list",
        ),
        ({"subscales": "first"}, "“subscales” are a list"),
        ({"skip": ("q2", "note")}, "“note” is not a yes/no question asked before it"),
        ({"skip": ("q1", "q3")}, "“q3” is not a yes/no question asked before it"),
        ({"skip": ("note", "q1")}, "“skip_if_yes” names the key of a yes/no question, on a scored"),
        ({"subscales": [_scale()], "loinc": {"second": "44261-6"}}, "“second” in “loinc”"),
    ],
)  # fmt: skip
def test_published_figures_that_do_not_fit_the_scale_are_refused_by_name(score, message):
    with pytest.raises(ResponseInvalid) as refused:
        KIND.clean_options(_sheet(**score))
    assert any(message in problem for problem in refused.value.errors["options"]), refused.value


def test_published_figures_that_fit_are_kept_as_written():
    options = _sheet(
        cutoff=3,
        reliability=0.8,
        sd=1.5,
        source="A paper.",
        terms="Free.",
        loinc={"total": "44261-6", "first": "70274-6"},
        subscales=[
            _scale(multiplier=2, bands=[{"from": 0, "to": 8, "label": "All"}], cutoff=4),
            {"key": "second", "label": "Second", "items": ["q3"], "reliable_change": 1},
        ],
    )
    assert KIND.clean_options(options)["score"] == {**options["score"], "label": ""}
