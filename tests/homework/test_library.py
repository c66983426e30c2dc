"""The ready-made library: present after migrating, valid, and never overwritten."""

import pytest
from django.utils.text import slugify

from homework.kinds import all_kinds, get_kind
from homework.library import LIBRARY, install
from homework.models import Exercise


def test_the_migration_loaded_the_library(db):
    titles = set(Exercise.objects.filter(owner__isnull=True).values_list("title", flat=True))
    assert {item["title"] for item in LIBRARY} <= titles


def test_the_library_has_every_kind_and_at_least_twelve_exercises():
    assert len(LIBRARY) >= 12
    assert {item["kind"] for item in LIBRARY} == {kind.slug for kind in all_kinds()}
    assert len({slugify(item["title"]) for item in LIBRARY}) == len(LIBRARY)


@pytest.mark.parametrize("item", LIBRARY, ids=lambda item: item["title"])
def test_every_library_exercise_is_valid_as_saved(item):
    assert get_kind(item["kind"]).clean_options(item["options"]) == item["options"]
    assert item["instructions"].strip() and item["therapist_note"].strip()
    assert len(item["title"]) <= (Exercise._meta.get_field("title").max_length or 0)


def test_the_library_includes_a_scored_check_in_labelled_as_reflection():
    scored = [item for item in LIBRARY if item["options"].get("score")]
    assert scored
    assert any("isn't a test or a diagnosis" in item["instructions"] for item in scored)


def test_installing_again_adds_nothing_and_keeps_the_practices_edits(db):
    edited = Exercise.objects.get(title="One small boundary")
    edited.instructions = "Our own words."
    edited.save()
    Exercise.objects.filter(title="What I'm grieving").delete()
    assert install(Exercise) == 1  # only the one that was removed comes back
    assert install(Exercise) == 0
    assert Exercise.objects.get(title="One small boundary").instructions == "Our own words."
