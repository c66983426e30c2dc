"""Every word a person reads in a template goes through the translation machinery.

The scan reads each template's source with Django's own lexer, drops what
`{% translate %}` / `{% blocktranslate %}` and `{{ }}` produce, and parses the
HTML that is left: any text node, or any attribute a person reads or hears
(alt, title, aria-label, placeholder, a button's value), that still holds a
letter is English the translators never saw.
"""

from __future__ import annotations

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.template.base import Lexer, TokenType

TEMPLATES = Path(settings.BASE_DIR) / "templates"

# A letter in any script; digits and symbols ("·", "—", "/ 10") need no translation.
LETTER = re.compile(r"[^\W\d_]")
# Stands in for whatever a tag or variable prints, so "{{ n }} items" still reads as text;
# letterless and name-like, so `<details {% if x %}open{% endif %}>` still parses as a tag.
PLACEHOLDER = "_0_"
# Blocks that hold CSS class names, never words.
NOT_TEXT_BLOCKS = ("bodyclass", "coltype")
READ_ALOUD = (
    "alt",
    "title",
    "aria-label",
    "placeholder",
    "aria-description",
    "aria-roledescription",
)


class _VisibleText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._hidden_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._hidden_depth += 1
        values = dict(attrs)
        for name in READ_ALOUD:
            self._check(values.get(name), f"{tag}[{name}]")
        if tag == "input" and (values.get("type") or "") in ("submit", "button", "reset"):
            self._check(values.get("value"), "input[value]")
        if tag == "meta" and values.get("name") == "description":
            self._check(values.get("content"), "meta[content]")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in ("script", "style"):
            self._hidden_depth -= 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._hidden_depth:
            self._hidden_depth -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden_depth:
            self._check(data, "text")

    def _check(self, value: str | None, where: str) -> None:
        if value and LETTER.search(value.replace(PLACEHOLDER, "")):
            self.found.append(f"{where}: {' '.join(value.replace(PLACEHOLDER, '…').split())}")


def _skeleton(source: str) -> str:
    """The template with every translated, printed or commented part replaced by a placeholder."""
    parts: list[str] = []
    skipping_until: str | None = None
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.COMMENT:
            continue
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0]
            if skipping_until:
                if name == skipping_until:
                    skipping_until = None
                    parts.append(PLACEHOLDER)
                continue
            if name in ("blocktranslate", "blocktrans"):
                skipping_until = "end" + name
                continue
            if name == "comment":
                skipping_until = "endcomment"
                continue
            if name == "block" and token.contents.split()[1] in NOT_TEXT_BLOCKS:
                skipping_until = "endblock"
                continue
            parts.append(PLACEHOLDER)
        elif skipping_until:
            continue
        elif token.token_type == TokenType.VAR:
            parts.append(PLACEHOLDER)
        else:
            parts.append(token.contents)
    return "".join(parts)


def untranslated_text(path: Path) -> list[str]:
    parser = _VisibleText()
    parser.feed(_skeleton(path.read_text()))
    parser.close()
    return parser.found


TEMPLATE_FILES = sorted(
    path for path in TEMPLATES.rglob("*") if path.suffix in (".html", ".txt") and path.is_file()
)


@pytest.mark.parametrize("path", TEMPLATE_FILES, ids=lambda path: str(path.relative_to(TEMPLATES)))
def test_template_has_no_text_outside_translate_tags(path: Path) -> None:
    assert untranslated_text(path) == []


def test_the_scan_sees_text_attributes_and_skips_translated_words(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(
        '{% load i18n %}<h1>{% translate "Hello" %}</h1>'
        "<p>{% blocktranslate %}Hi {{ name }}{% endblocktranslate %} · {{ count }} / 10</p>"
        "{# a note #}{% comment %}Draft{% endcomment %}<script>let x = 1;</script>"
        '<img alt="{% translate "A tree" %}" src="x.png">'
        '<p>Untranslated</p><img alt="Plain alt"><input type="submit" value="Send">'
    )
    assert untranslated_text(page) == [
        "text: Untranslated",
        "img[alt]: Plain alt",
        "input[value]: Send",
    ]


COUNT_WITHOUT_PLURAL = re.compile(r"\{%\s*blocktrans(?:late)?\b[^%]*\bwith\b[^%]*\bcount=")


@pytest.mark.parametrize("path", TEMPLATE_FILES, ids=lambda path: str(path.relative_to(TEMPLATES)))
def test_a_count_in_a_sentence_takes_a_plural_form(path: Path) -> None:
    # "{{ count }} sent" reads the same for 2 and 5 in English, not in Polish or Russian:
    # a count goes through `{% blocktranslate count counter=... %}...{% plural %}`.
    assert not COUNT_WITHOUT_PLURAL.findall(path.read_text())


# The counted nouns (and "more", "drawn") this app's sentences put after a number.
COUNTED = re.compile(
    r"%\(\w+\)[sd]\s+(?:\w+\s+){0,2}?"
    r"(steps|days|characters|questions|choices|minutes|people|places|parts|clients|times"
    r"|weeks|check-ins|entries|more|drawn|for a reality check)\b"
)
SINGULAR_ONLY = {"_", "gettext", "gettext_lazy", "pgettext", "pgettext_lazy"}
# The library is the practice's data, each language's words its own rows (homework/library/es).
NOT_INTERFACE = ("migrations", "library")
SOURCE = [
    path
    for package in ("practice", "clients", "homework")
    for path in sorted((Path(settings.BASE_DIR) / package).rglob("*.py"))
    if not set(NOT_INTERFACE) & set(path.parts)
]


def _counts_without_plural(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        if node.func.id not in SINGULAR_ONLY or not node.args:
            continue
        message = node.args[-1]
        if (
            isinstance(message, ast.Constant)
            and isinstance(message.value, str)
            and COUNTED.search(message.value)
        ):
            found.append(f"{path.name}:{node.lineno}: {message.value}")
    return found


def test_a_count_in_python_takes_a_plural_form() -> None:
    # "%(n)s steps" through gettext has one form; Polish needs three. ngettext.
    assert [found for path in SOURCE for found in _counts_without_plural(path)] == []


# Where a person reads the text: a service's refusal (the admin shows a
# PermissionDenied or ValidationError in a message), Django's messages, form
# and model labels, the admin's titles. Logs and the API schema are for developers.
REFUSALS = {"PermissionDenied", "ValidationError", "ResponseInvalid"}
MESSAGES = {"success", "info", "warning", "error", "add_message"}
READ_KEYWORDS = {
    "label",
    "help_text",
    "verbose_name",
    "verbose_name_plural",
    "empty_label",
    "subject",
}
READ_ATTRIBUTES = {"site_header", "site_title", "index_title", "short_description"}


def _is_words(node: ast.expr) -> bool:
    parts = node.values if isinstance(node, ast.JoinedStr) else [node]
    return any(
        isinstance(part, ast.Constant) and isinstance(part.value, str) and LETTER.search(part.value)
        for part in parts
    )


def _reads(node: ast.Call) -> list[ast.expr]:
    func = node.func
    texts = [kw.value for kw in node.keywords if kw.arg in READ_KEYWORDS]
    if (isinstance(func, ast.Name) and func.id in REFUSALS) or (
        isinstance(func, ast.Attribute)
        and (
            func.attr == "message_user"
            or (
                func.attr in MESSAGES
                and isinstance(func.value, ast.Name)
                and func.value.id == "messages"
            )
        )
    ):
        texts += node.args
    return texts


def _bare_words(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        texts: list[ast.expr] = []
        if isinstance(node, ast.Call):
            texts = _reads(node)
        elif isinstance(node, ast.Assign) and any(
            getattr(target, "attr", getattr(target, "id", None)) in READ_ATTRIBUTES
            for target in node.targets
        ):
            texts = [node.value]
        found += [
            f"{path.name}:{text.lineno}: {ast.unparse(text)}" for text in texts if _is_words(text)
        ]
    return found


def test_words_a_person_reads_in_python_go_through_gettext() -> None:
    assert [found for path in SOURCE for found in _bare_words(path)] == []


def test_the_paper_size_a_manager_picks_is_named_in_their_language() -> None:
    from django.utils.functional import Promise

    from practice.models import PracticeSettings

    choices = dict(PracticeSettings._meta.get_field("paper_size").choices or [])
    assert isinstance(choices["Letter"], Promise)
