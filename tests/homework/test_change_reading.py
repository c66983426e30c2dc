"""Change that is honest: the reliable change of a measure (its own figure, or Jacobson–Truax from
its reliability and sd), the change from the first score to the latest read against it and the
cutoff, in words; and the therapist's pages that show it (the client's own never do)."""

import math

import pytest
from django.urls import reverse

from homework.kinds.worksheet import measures
from homework.selectors.caseload import sorted_rows
from homework.selectors.measures import measure_changes, measure_histories
from tests.conftest import Cast, login
from tests.factories import ClientFactory, EntryFactory
from tests.helpers_measures import assigned, measure, sent_total

pytestmark = pytest.mark.django_db

CASELOAD = reverse("admin:caseload")


# -- the arithmetic


def test_jacobson_truax_from_reliability_and_sd_matches_the_hand_worked_figure():
    # By hand: 1.96 × 5 × √2 × √(1 − 0.84) = 1.96 × 5 × 1.41421 × 0.4 = 5.5437.
    exercise = measure(reliability=0.84, sd=5)
    assert measures.reliable_change_of(exercise) == pytest.approx(5.5437, abs=1e-4)
    # The PHQ-9's published sd and reliability give its published 6 points or so (≈5.9).
    phq = measure(reliability=0.84, sd=5.35)
    assert round(measures.reliable_change_of(phq) or 0, 1) == 5.9
    assert measures.reliable_change_of(phq) == pytest.approx(
        1.96 * 5.35 * math.sqrt(2) * math.sqrt(0.16)
    )


def test_the_measures_own_figure_wins_and_none_is_said_without_one():
    assert measures.reliable_change_of(measure(reliable_change=6, reliability=0.9, sd=5)) == 6
    assert measures.reliable_change_of(measure()) is None
    for broken in (
        {"reliability": 1, "sd": 5},
        {"reliability": 0.8},
        {"sd": -1, "reliability": 0.8},
    ):
        assert measures.reliable_change_of(measure(**broken)) is None, broken
    assert measures.reliable_change_of(measure(reliable_change=True)) is None  # not a number


def test_a_subscale_reads_its_own_figures_and_the_measures_direction():
    exercise = measure(
        better="lower",
        subscales=[
            {
                "key": "stress",
                "label": "Stress",
                "items": ["one"],
                "multiplier": 2,
                "bands": [],
                "cutoff": 15,
                "reliability": 0.81,
                "sd": 4.0,
            },
        ],
    )
    # By hand: 1.96 × 4 × 1.41421 × 0.43589 (√0.19) = 4.8329
    assert measures.reliable_change_of(exercise, "stress") == pytest.approx(4.8329, abs=1e-4)
    assert measures.cutoff_of(exercise, "stress") == 15
    assert measures.cutoff_of(exercise) is None
    reading = measures.change_reading(exercise, 20, 14, subscale="stress")
    assert reading.reliable and reading.direction == "improved" and reading.crossed_cutoff
    assert measures.reliable_change_of(exercise, "no such subscale") is None


# -- the words


def words(exercise, first, latest) -> str:
    return measures.change_words(measures.change_reading(exercise, first, latest))


def test_reliably_improved_and_below_the_cutoff():
    exercise = measure(reliable_change=6, cutoff=10)
    reading = measures.change_reading(exercise, 16, 8)
    assert (reading.reliable, reading.direction, reading.crossed_cutoff) == (True, "improved", True)
    assert reading.latest_side == "below"
    assert words(exercise, 16, 8) == "reliably improved, crossed the cutoff, now below it"
    assert words(exercise, 9, 2) == "reliably improved, below the cutoff"
    assert measures.change_sentence(reading) == (
        "Reliably improved, crossed the cutoff, now below it "
        "(first 16, latest 8; a change of 6 points is reliable; cutoff 10)."
    )


def test_reliably_worse_and_now_above_the_cutoff():
    exercise = measure(reliable_change=6, cutoff=10)
    reading = measures.change_reading(exercise, 4, 12)
    assert reading.direction == "worsened" and reading.latest_side == "above"
    assert (
        words(exercise, 4, 12) == "reliable change: worse, crossed the cutoff, now at or above it"
    )
    # At the cutoff is in the clinical range, as published.
    assert words(exercise, 10, 17) == "reliable change: worse, at or above the cutoff"


def test_no_reliable_change_short_of_the_figure_even_across_the_cutoff():
    exercise = measure(reliable_change=6, cutoff=10)
    reading = measures.change_reading(exercise, 12, 7)
    assert not reading.reliable and reading.direction is None and reading.crossed_cutoff
    assert words(exercise, 12, 7) == "no reliable change, crossed the cutoff, now below it"
    # Exactly the figure is reliable.
    assert measures.change_reading(exercise, 12, 6).reliable


def test_higher_is_better_turns_the_direction_round():
    exercise = measure(better="higher", reliable_change=3)
    assert words(exercise, 5, 10) == "reliably improved"
    assert words(exercise, 10, 5) == "reliable change: worse"


def test_without_a_figure_only_what_is_known_is_said():
    only_cutoff = measure(cutoff=10)
    reading = measures.change_reading(only_cutoff, 16, 12)
    assert not reading.reliable and reading.needed is None
    assert words(only_cutoff, 16, 12) == "at or above the cutoff"
    assert "reliabl" not in measures.change_sentence(reading)
    neither = measure()
    assert words(neither, 16, 12) == "16 to 12"
    assert measures.change_sentence(measures.change_reading(neither, 16, 12)) == (
        "First 16, latest 12."
    )


# -- what staff read: complete, shared totals only


def test_the_history_holds_only_complete_shared_totals_of_measures(cast: Cast):
    exercise = measure(reliable_change=6, cutoff=10)
    work = assigned(cast.alice, exercise)
    sent_total(work, 16, days_ago=30)
    sent_total(work, 20, days_ago=20, private=True)  # the client's alone
    sent_total(work, 18, days_ago=15, status="draft", submitted_at=None)
    # An item left out: no total, so nothing to say.
    EntryFactory.create(assignment=work, response={"one": 9})
    sent_total(work, 8, days_ago=1)
    assigned(cast.alice, measure("Own check-in"))  # no entries: no history
    (history,) = measure_histories(user=cast.tara, client=cast.alice)
    assert [score for _at, score in history.scores] == [16, 8]
    assert history.reading is not None and history.reading.direction == "improved"
    assert measure_histories(user=cast.theo, client=cast.alice) == []
    (change,) = measure_changes(user=cast.tara, clients=[cast.alice])[cast.alice.pk]
    assert change.latest == 8
    assert change.words == "reliably improved, crossed the cutoff, now below it"


# -- the caseload's column


def test_the_caseload_says_each_measures_change_in_a_few_words(cast: Cast):
    phq = measure("PHQ-9", reliable_change=6, cutoff=10)
    gad = measure("GAD-7", reliable_change=4)
    sent_total(work := assigned(cast.alice, phq), 16, days_ago=30)
    sent_total(work, 8, days_ago=2)
    sent_total(work := assigned(cast.alice, gad), 9, days_ago=30)
    sent_total(work, 8, days_ago=2)
    once = ClientFactory.create(therapist=cast.tara, display_name="Once")
    sent_total(assigned(once, phq), 12, days_ago=3)
    page = login(cast.tara).get(CASELOAD).content.decode()
    assert "Measures, first to latest" in page
    cell = page[page.index('class="caseload-measures"', page.index("Alice")) :]
    cell = cell[: cell.index("</td>")]
    assert "GAD-7</span>: no reliable change" in cell
    assert "PHQ-9</span>: reliably improved, crossed the cutoff, now below it" in cell
    assert cell.index("GAD-7") < cell.index("PHQ-9")
    assert "PHQ-9</span>: one score so far" in page


def test_the_caseload_sorts_worse_news_first(cast: Cast):
    exercise = measure(reliable_change=4)
    for name, first, latest in (("Worse", 4, 12), ("Same", 8, 9), ("Better", 12, 2)):
        client = ClientFactory.create(therapist=cast.tara, display_name=name)
        work = assigned(client, exercise)
        sent_total(work, first, days_ago=10)
        sent_total(work, latest, days_ago=1)
    http = login(cast.tara)
    names = ["Worse", "Same", "Better", "Alice"]
    page = http.get(CASELOAD, {"o": "measures"}).content.decode()
    assert sorted(names, key=lambda name: page.index(f">{name}<")) == names
    backwards = http.get(CASELOAD, {"o": "-measures"}).content.decode()
    # Alice has none: last whichever way.
    assert sorted(names, key=lambda name: backwards.index(f">{name}<")) == [
        "Better",
        "Same",
        "Worse",
        "Alice",
    ]
    assert sorted_rows([], order="measures") == []


def test_the_caseload_never_reads_a_private_total(cast: Cast):
    work = assigned(cast.alice, measure(reliable_change=4))
    sent_total(work, 4, days_ago=10)
    sent_total(work, 16, days_ago=1, private=True)
    page = login(cast.tara).get(CASELOAD).content.decode()
    assert "one score so far" in page and "worse" not in page


# -- the therapist's pages, and never the client's


def with_two_scores(cast: Cast):
    work = assigned(cast.alice, measure("PHQ-9", reliable_change=6, cutoff=10))
    sent_total(work, 16, days_ago=30)
    sent_total(work, 8, days_ago=2)
    return work


def test_the_client_page_shows_each_score_in_its_band_and_the_change(cast: Cast):
    with_two_scores(cast)
    page = (
        login(cast.tara)
        .get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
        .content.decode()
    )
    panel = page[page.index('id="measures-title"') :]
    panel = panel[: panel.index("</section>")]
    assert "PHQ-9 total" in panel
    # The picture's bands, named, and its text alternative with each dated score and its band.
    assert ">Middling</text>" in panel and ">High</text>" in panel
    assert "16 (High)" in panel and "8 (Middling)" in panel
    # The table: each score, dated, in its band.
    assert "<td>16</td><td>High</td>" in panel and "<td>8</td><td>Middling</td>" in panel
    assert "Reliably improved, crossed the cutoff, now below it" in panel
    # Theo's client page is not his to open.
    assert login(cast.theo).get(
        reverse("admin:clients_client_change", args=[cast.alice.pk])
    ).status_code in (302, 403, 404)


def test_since_last_session_shows_the_bands_and_the_change(cast: Cast):
    with_two_scores(cast)
    page = (
        login(cast.tara)
        .get(reverse("admin:clients_client_since_last_session", args=[cast.alice.pk]))
        .content.decode()
    )
    assert "Measures over time" in page
    assert "<td>16</td><td>High</td>" in page
    assert "Reliably improved, crossed the cutoff, now below it" in page


def test_the_clients_own_progress_page_shows_dated_points_and_no_grade(cast: Cast):
    work = with_two_scores(cast)
    exercise = work.exercise
    exercise.options["score"]["total_to_client"] = True
    exercise.save(update_fields=["options"])
    page = login(cast.alice.portal_user).get(reverse("homework:progress")).content.decode()
    assert ": 16" in page and ": 8" in page
    for graded in ("Low", "Middling", "High", "band", "reliabl", "Reliabl", "cutoff", "improved"):
        assert graded not in page, graded
