"""The readings in Spanish hold to what the English ones do: short, gentle, only the small Markdown,
and each the same page as the English one it gives, heading for heading."""

import re

import pytest
from django.utils import translation

from homework.library.es.readings import READINGS
from homework.library.readings import READINGS as ENGLISH

ENGLISH_BY_TITLE = {item["title"]: item for item in ENGLISH}
GIVEN = list(READINGS.items())

# CLINICAL.md's "Language" in Spanish: no pressure, blame, labels or jargon, and never telling the
# client what they feel.
FORBIDDEN = (
    "simplemente",
    "deberías",
    "deberias",
    "por qué no te",
    "por qué no lo",
    "tu culpa",
    "culpa tuya",
    "abuso",
    "maltrat",
    "tóxic",
    "narcis",
    "vínculo traumático",
    "refuerzo intermitente",
    "te sientes",
)
# Neutral Spanish, readable in Spain and in Latin America: no vosotros, no "coger".
REGIONAL = re.compile(r"\b(vosotros|vosotras|os|coger|coges|coge|cogí)\b")


def _words(text: str) -> list[str]:
    plain = re.sub(r"^(## |- )", "", text, flags=re.MULTILINE).replace("*", "")
    return plain.split()


def _client_words(item) -> str:
    options = item["options"]
    return "\n".join([item["title"], item["instructions"], options["text"], *options["prompts"]])


def _structure(text: str) -> list[str]:
    """Each line as what it is (heading, list item, paragraph, blank), with its emphasis count."""
    kinds = []
    for line in text.splitlines():
        kind = (
            "h" if line.startswith("## ") else "-" if line.startswith("- ") else "p" if line else ""
        )
        kinds.append(f"{kind}{line.count('*')}")
    return kinds


def test_every_english_reading_is_given_in_spanish():
    assert set(READINGS) == set(ENGLISH_BY_TITLE)


@pytest.mark.parametrize(("source", "item"), GIVEN, ids=[source for source, _ in GIVEN])
def test_a_spanish_reading_is_the_english_page_in_other_words(source, item):
    assert _structure(item["options"]["text"]) == _structure(
        ENGLISH_BY_TITLE[source]["options"]["text"]
    )
    assert len(item["options"]["prompts"]) == len(ENGLISH_BY_TITLE[source]["options"]["prompts"])


@pytest.mark.parametrize(("source", "item"), GIVEN, ids=[source for source, _ in GIVEN])
def test_a_spanish_reading_is_short_and_ends_with_a_question_for_the_week(source, item):
    text = item["options"]["text"]
    assert 300 <= len(_words(text)) <= 600
    assert len(text) <= 6000
    assert text == text.strip() and text.endswith("?")
    assert text.splitlines()[-3] == "## Una pregunta para la semana"
    assert "\n" not in item["instructions"]
    assert all(0 < len(prompt) <= 300 for prompt in item["options"]["prompts"])


@pytest.mark.parametrize(("source", "item"), GIVEN, ids=[source for source, _ in GIVEN])
def test_a_spanish_reading_never_pressures_blames_or_labels(source, item):
    words = _client_words(item).lower()
    assert [phrase for phrase in FORBIDDEN if phrase in words] == []
    assert REGIONAL.findall(words) == []


@pytest.mark.parametrize(("source", "item"), GIVEN, ids=[source for source, _ in GIVEN])
def test_a_spanish_reading_invents_no_phone_number(source, item):
    assert not re.search(r"\d{3}", _client_words(item))


@pytest.mark.parametrize(("source", "item"), GIVEN, ids=[source for source, _ in GIVEN])
def test_a_spanish_reading_uses_only_headings_paragraphs_lists_and_emphasis(source, item):
    for line in item["options"]["text"].splitlines():
        body = line.removeprefix("## ").removeprefix("- ")
        assert not re.search(r"[<>#`\[\]_]|\*\*|!\[", body), line
        assert not re.match(r"\s|\* |\+ |\d+[.)] ", line), line
        assert body.count("*") % 2 == 0, line
        assert line == line.rstrip(), line


def test_the_spanish_reading_about_safety_names_the_buttons_as_the_portal_does():
    text = READINGS["When leaving isn't safe yet"]["options"]["text"]
    with translation.override("es"):
        help_now, leave = (
            translation.gettext("Help now"),
            translation.gettext("Leave this site now"),
        )
    assert (help_now, leave) != ("Help now", "Leave this site now")
    assert f"*{help_now}*" in text and f"*{leave}*" in text
    assert "No tienes que irte para merecer apoyo." in text
