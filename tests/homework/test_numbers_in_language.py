"""Numbers in the summary's sentences in the reader's own form: "6,5" in Spanish."""

import pytest

from homework.kinds.urge_log.curve import trend_sentence
from homework.kinds.worksheet.measures import ChangeReading, change_sentence
from practice.languages import in_language

READING = ChangeReading(
    first=12.5,
    latest=7.0,
    needed=4.5,
    reliable=True,
    direction="improved",
    cutoff=10.0,
    first_side="above",
    latest_side="below",
)


@pytest.mark.parametrize(
    ("language", "decimals", "whole"), [("en-gb", "6.5", "3.0"), ("es", "6,5", "3,0")]
)
def test_an_urge_trend_says_its_means_in_the_readers_form(language, decimals, whole):
    with in_language(language):
        said = trend_sentence({"direction": "easing", "first": 6.5, "last": 3.0}, for_client=False)
    assert f"{decimals} " in said and f"{whole} " in said


@pytest.mark.parametrize(("language", "mark"), [("en-gb", "."), ("es", ",")])
def test_a_measures_change_says_its_scores_in_the_readers_form(language, mark):
    with in_language(language):
        said = change_sentence(READING)
    assert f"12{mark}5" in said and f"4{mark}5" in said
    assert " 7;" in said and " 10)" in said  # a whole number without its ".0"
