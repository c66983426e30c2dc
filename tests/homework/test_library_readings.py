"""The library's readings: short, gentle, and only the Markdown the reading kind renders."""

import importlib
import re

import pytest

from homework.library import LIBRARY
from homework.library.readings import READINGS
from homework.models import Exercise, Program

# Words the portal never says to a client: pressure, blame, labels and jargon
# (CLINICAL.md, "Language"); the readings never say what the client feels, either.
FORBIDDEN = (
    "just leave",
    "you should",
    "should leave",
    "why don't you",
    "why didn't you",
    "your fault",
    "abuse",
    "toxic",
    "narcissis",
    "trauma bond",
    "intermittent reinforcement",
    "you feel",
)


def _words(text: str) -> list[str]:
    plain = re.sub(r"^(## |- )", "", text, flags=re.MULTILINE).replace("*", "")
    return plain.split()


def _client_words(item) -> str:
    options = item["options"]
    return "\n".join([item["title"], item["instructions"], options["text"], *options["prompts"]])


def test_there_are_at_least_eight_readings_all_in_the_library():
    assert len(READINGS) >= 8
    assert {item["kind"] for item in READINGS} == {"reading"}
    assert all(item in LIBRARY for item in READINGS)


@pytest.mark.parametrize("item", READINGS, ids=lambda item: item["title"])
def test_a_reading_is_short_and_ends_with_a_question_for_the_week(item):
    text = item["options"]["text"]
    assert 300 <= len(_words(text)) <= 600
    assert len(text) <= 6000
    assert text == text.strip() and text.endswith("?")
    assert "\n" not in item["instructions"] and item["therapist_note"].strip()


@pytest.mark.parametrize("item", READINGS, ids=lambda item: item["title"])
def test_a_reading_asks_one_to_three_short_questions(item):
    prompts = item["options"]["prompts"]
    assert 1 <= len(prompts) <= 3
    assert all(prompt.strip() == prompt and 0 < len(prompt) <= 300 for prompt in prompts)


@pytest.mark.parametrize("item", READINGS, ids=lambda item: item["title"])
def test_a_reading_never_pressures_blames_or_labels(item):
    words = _client_words(item).lower().replace("’", "'")
    assert [phrase for phrase in FORBIDDEN if phrase in words] == []


@pytest.mark.parametrize("item", READINGS, ids=lambda item: item["title"])
def test_a_reading_invents_no_phone_number(item):
    # Crisis lines are the practice's own, on Help now; a number here could be wrong where the client lives.
    assert not re.search(r"\d{3}", _client_words(item))


@pytest.mark.parametrize("item", READINGS, ids=lambda item: item["title"])
def test_a_reading_uses_only_headings_paragraphs_lists_and_emphasis(item):
    for line in item["options"]["text"].splitlines():
        body = line.removeprefix("## ").removeprefix("- ")
        assert not re.search(r"[<>#`\[\]_]|\*\*|!\[", body), line
        assert not re.match(r"\s|\* |\+ |\d+[.)] ", line), line
        assert body.count("*") % 2 == 0, line
        assert line == line.rstrip(), line


def test_the_reading_about_safety_points_to_help_now_and_asks_nothing_of_leaving():
    safety = next(item for item in READINGS if item["title"] == "When leaving isn't safe yet")
    text = safety["options"]["text"]
    assert "*Help now*" in text and "*Leave this site now*" in text
    assert "You don't have to leave to deserve support." in text


def test_the_migration_adds_missing_readings_and_keeps_a_practices_own(db):
    from django.apps import apps

    migration = importlib.import_module("homework.migrations.0030_library_readings")
    titles = [item["title"] for item in READINGS]
    Program.objects.all().delete()  # its steps hold library exercises
    Exercise.objects.filter(title__in=titles).delete()
    Exercise.objects.create(
        kind="worksheet", title=titles[0], instructions="Ours.", options={"questions": []}
    )

    migration.install_readings(apps, None)

    assert Exercise.objects.filter(title__in=titles[1:], kind="reading").count() == len(titles) - 1
    assert Exercise.objects.get(title=titles[0]).instructions == "Ours."
