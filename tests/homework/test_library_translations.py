"""The library in other languages: every exercise given, each the same exercise in other words, and
linked to the one it gives once installed."""

import re
from typing import Any

import pytest

from homework.kinds import get_kind
from homework.library import LIBRARY, SOURCE_LANGUAGE, TRANSLATED, install_translations
from homework.library.es import PROGRAMS as SPANISH_PROGRAMS
from homework.models import Exercise, Program

# Measures with no published Spanish wording whose terms allow it here stay in English only.
ENGLISH_ONLY = {"PCL-5", "DASS-21", "WSAS"}
# What a response, a score or a flag is keyed by: words may change, these may not.
NOT_WORDS = {"key", "type", "method", "better", "items", "loinc", "unit"}

SOURCES = {item["title"]: item for item in LIBRARY}
TRANSLATIONS = [
    (language, source, item)
    for language, items in TRANSLATED.items()
    for source, item in items.items()
]


def shape(value: Any, key: str = "") -> Any:
    """The value with every word blanked, so two wordings of one exercise compare equal."""
    if key in NOT_WORDS:
        return value
    if isinstance(value, dict):
        return {name: shape(inner, name) for name, inner in value.items()}
    if isinstance(value, list):
        return [shape(inner, key) for inner in value]
    if isinstance(value, str):
        return ""
    return value


def test_every_library_exercise_is_given_in_spanish_but_the_english_only_measures():
    assert set(TRANSLATED["es"]) == set(SOURCES) - ENGLISH_ONLY


@pytest.mark.parametrize(
    ("language", "source", "item"), TRANSLATIONS, ids=lambda value: str(value)[:30]
)
def test_a_translation_is_the_same_exercise_in_other_words(language, source, item):
    original = SOURCES[source]
    assert item["kind"] == original["kind"]
    assert shape(item["options"]) == shape(original["options"])
    assert get_kind(item["kind"]).clean_options(item["options"]) == item["options"]
    assert item["title"] != source and item["instructions"].strip()
    assert item["therapist_note"].strip()
    assert len(item["title"]) <= (Exercise._meta.get_field("title").max_length or 0)


def test_no_two_exercises_in_any_language_share_a_title():
    titles = [*SOURCES, *(item["title"] for _language, _source, item in TRANSLATIONS)]
    assert len(set(titles)) == len(titles)


def test_the_migration_installed_the_spanish_library_linked_to_the_english(db):
    for _language, source, item in TRANSLATIONS:
        given = Exercise.objects.get(title=item["title"], owner=None)
        assert given.language == "es"
        assert given.translation_of is not None
        assert (given.translation_of.title, given.translation_of.language) == (
            source,
            SOURCE_LANGUAGE,
        )
    assert install_translations(Exercise) == 0


def test_the_spanish_programs_are_built_from_spanish_exercises(db):
    for program in SPANISH_PROGRAMS:
        made = Program.objects.get(title=program["title"], owner=None)
        assert made.language == "es"
        languages = set(made.steps.values_list("exercise__language", flat=True))
        assert languages == {"es"}
        assert made.steps.count() == len(program["steps"])


def titles_named(note: str, titles: set[str]) -> int:
    return sum(quoted in titles for quoted in re.findall(r"“([^”]+)”", note))


def test_a_translated_note_names_the_translated_exercises_it_pairs_with():
    for language, items in TRANSLATED.items():
        titles = {item["title"] for item in items.values()}
        for source, item in items.items():
            assert titles_named(item["therapist_note"], titles) == titles_named(
                SOURCES[source]["therapist_note"], set(SOURCES)
            ), (language, item["title"])
