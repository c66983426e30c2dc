"""The data migration that brings the new measures: the PCL-5, the DASS-21 and the WSAS are
installed, the library's PHQ-9 and GAD-7 gain their cutoff, source, terms and LOINC code (a note the
practice rewrote stays theirs), and going back takes the additions off again."""

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from homework.library.measures.phq_gad import GAD7, PHQ9
from tests.helpers_migrations import migrate, migrate_to_latest

BEFORE = [("homework", "0033_before_session")]
AFTER = [("homework", "0034_library_measures")]
ADDED = ("cutoff", "source", "terms", "loinc")


@pytest.fixture
def as_before(transactional_db: None) -> Iterator[Any]:
    """The library as 0032 left it: PHQ-9 and GAD-7 without the figures, no new measures. Made here
    whatever earlier tests left in the table (a transactional test may have emptied it)."""
    apps = migrate(BEFORE)
    exercise_model = apps.get_model("homework", "Exercise")
    titles = ["PHQ-9", "GAD-7", "PCL-5", "DASS-21", "WSAS"]
    exercise_model.objects.filter(owner__isnull=True, title__in=titles).delete()
    for item, note in (
        (PHQ9, PHQ9["therapist_note"].split(" Cutoff 10")[0]),
        (GAD7, "Our own note."),
    ):
        options = copy.deepcopy(item["options"])
        for name in ADDED:
            del options["score"][name]
        exercise_model.objects.create(
            kind=item["kind"],
            title=item["title"],
            instructions=item["instructions"],
            therapist_note=note,
            options=options,
            owner=None,
        )
    yield exercise_model
    migrate_to_latest()


def test_the_new_measures_are_installed_and_phq9_and_gad7_gain_their_figures(as_before):
    apps = migrate(AFTER)
    exercise_model = apps.get_model("homework", "Exercise")
    titles = set(exercise_model.objects.values_list("title", flat=True))
    assert {"PCL-5", "DASS-21", "WSAS"} <= titles
    phq9 = exercise_model.objects.get(title="PHQ-9", owner__isnull=True)
    assert phq9.options == PHQ9["options"]
    assert phq9.therapist_note == PHQ9["therapist_note"]
    gad7 = exercise_model.objects.get(title="GAD-7", owner__isnull=True)
    assert gad7.options["score"]["loinc"] == {"total": "70274-6"}
    assert gad7.options == GAD7["options"]
    assert gad7.therapist_note == "Our own note."


def test_going_back_takes_the_figures_off_again(as_before):
    migrate(AFTER)
    apps = migrate(BEFORE)
    phq9 = apps.get_model("homework", "Exercise").objects.get(title="PHQ-9", owner__isnull=True)
    assert not set(ADDED) & set(phq9.options["score"])
    assert phq9.therapist_note.endswith("flagged for your review.")
