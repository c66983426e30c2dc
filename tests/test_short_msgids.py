"""A short word that says two things in Spanish is never translated without its context: "Open"
is "Abrir" on a button and "Abierta" on an assignment's badge; "to" is "para" before a recipient
and "hasta" in a range of dates. Read from the source like tests/test_layering.py."""

import re
from pathlib import Path

import pytest
from django.utils import translation

from homework.kinds.support_network import CIRCLES
from homework.models import Assignment, OutboxMessage
from homework.schedules.progress import Progress

ROOT = Path(__file__).resolve().parents[1]
APPS = ("practice", "clients", "homework")
# Each used in two roles somewhere; any use must say which.
AMBIGUOUS = ("Open", "Close", "to", "Ended")
WORDS = "|".join(AMBIGUOUS)
BARE_IN_TEMPLATES = re.compile(
    rf"""{{%\s*(?:translate|trans)\s+(["'])({WORDS})\1\s*(?:as\s+\w+\s*)?%}}"""
)
BARE_IN_PYTHON = re.compile(rf"""\b(?:_|gettext|gettext_lazy)\(\s*(["'])({WORDS})\1\s*\)""")


def bare_uses() -> list[str]:
    found = []
    sources = [
        *((path, BARE_IN_TEMPLATES) for path in (ROOT / "templates").rglob("*.html")),
        *((path, BARE_IN_TEMPLATES) for path in (ROOT / "templates").rglob("*.txt")),
        *(
            (path, BARE_IN_PYTHON)
            for app in APPS
            for path in (ROOT / app).rglob("*.py")
            if "migrations" not in path.parts
        ),
    ]
    for path, pattern in sources:
        for match in pattern.finditer(path.read_text(encoding="utf-8")):
            found.append(f"{path.relative_to(ROOT)}: {match.group(0)}")
    return found


def test_no_ambiguous_short_word_is_translated_without_its_context():
    assert bare_uses() == []


def test_a_bare_use_would_be_found():
    assert BARE_IN_TEMPLATES.search('<a>{% translate "Open" %}</a>')
    assert BARE_IN_PYTHON.search('verbose_name=_("to"),')
    assert not BARE_IN_TEMPLATES.search('{% translate "Open" context "button" %}')


@pytest.mark.parametrize(
    "label",
    [
        *(choice.label for choice in Progress),
        *(choice.label for choice in Assignment.Status),
    ],
)
def test_an_assignments_states_are_said_of_an_assignment(label):
    """Feminine in Spanish ("Activa", "Abierta"), where a client or a program is "Activo"."""
    assert label._args[0] == "assignment status"  # pgettext_lazy's (context, message)


def test_the_english_is_unchanged():
    with translation.override("en-gb"):
        assert str(Progress.OPEN.label) == "Open"
        assert str(dict(CIRCLES)["middle"]) == "Close"
        assert str(OutboxMessage._meta.get_field("recipient").verbose_name) == "to"
