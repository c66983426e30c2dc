"""The shared readers of a measure's score rule (homework.kinds.worksheet.measures), as the
FHIR export uses them: subscales, LOINC codes, and what counts as a measure."""

import pytest

from homework.kinds.worksheet.measures import is_measure, loinc_of, subscale_scores
from tests import factories
from tests.helpers_measures import answers, pcl5_shaped, phq9

pytestmark = pytest.mark.django_db


def test_a_subscale_adds_its_items_points_times_its_multiplier():
    measure = pcl5_shaped()
    measure.options["score"]["subscales"][1]["multiplier"] = 2  # as the DASS-21 doubles
    points = [4, 3, 2, 1, 0] + [2, 2] + [1] * 7 + [3] * 6
    scores = subscale_scores(measure, answers(measure, points))
    assert scores == {"b": 10.0, "c": 8.0, "d": 7.0, "e": 18.0}


def test_a_subscale_with_an_item_unanswered_has_no_score():
    measure = pcl5_shaped()
    response = answers(measure, [1] * 20)
    del response["pcl5_6"]
    assert set(subscale_scores(measure, response)) == {"b", "d", "e"}


def test_a_rule_without_subscales_or_codes_reads_as_empty():
    measure = factories.ExerciseFactory.create(
        kind="worksheet",
        options={
            "questions": [{"key": "q", "type": "scale_0_10", "text": "How?", "scored": True}],
            "score": {"method": "sum", "better": "lower", "label": "Ours"},
        },
    )
    assert subscale_scores(measure, {"q": 3}) == {}
    assert loinc_of(measure) is None
    assert not is_measure(measure)  # no published figure: the practice's own check-in


def test_what_counts_as_a_measure():
    assert is_measure(phq9()) and is_measure(pcl5_shaped())
    cutoff_only = pcl5_shaped()
    del cutoff_only.options["score"]["bands"], cutoff_only.options["score"]["loinc"]
    del cutoff_only.options["score"]["subscales"]
    cutoff_only.options["score"]["cutoff"] = 33  # the PCL-5 publishes a cutoff, not bands
    assert is_measure(cutoff_only)
    assert loinc_of(phq9(), "panel") == "44249-1" and loinc_of(pcl5_shaped(), "d") is None
    check_in = factories.ExerciseFactory.create(
        kind="worksheet", options=factories.options_for("worksheet")
    )
    assert not is_measure(check_in)
    assert not is_measure(factories.ExerciseFactory.create(kind="written_record"))
