"""Finds English sentences left on a page meant to be in Spanish.

Cheap on purpose: the visible text (and the attributes a person reads or
hears) split into sentences, and a sentence is English when most of its
common words are common English words and few are common Spanish ones. The
practice's own data (exercise texts, the client's words, names) is passed
in as ``allowed`` and taken out before the check: it is shown as written.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Iterator
from html.parser import HTMLParser
from typing import Any

READ_ALOUD = ("alt", "title", "aria-label", "placeholder", "aria-description")
# Elements whose content nobody reads (a script's messages as JSON are read: _Text).
NOT_READ = {"script", "style", "noscript"}

ENGLISH = frozenset(
    [
        "the", "and", "you", "your", "to", "of", "is", "this", "that", "with", "for", "not", "yet",
        "have", "will", "are", "was", "were", "be", "been", "it", "its", "it's", "what", "when",
        "how", "why", "who", "which", "there", "here", "from", "they", "them", "their", "our", "we",
        "us", "my", "me", "i", "i'm", "an", "or", "but", "if", "so", "all", "any", "can", "could",
        "would", "should", "do", "does", "don't", "did", "has", "had", "no", "on", "in", "at", "by",
        "as", "out", "up", "about", "more", "most", "some", "only", "just", "than", "then", "now",
        "still", "back", "into", "over", "one", "two", "here's", "let's", "please", "click", "save",
        "saved", "send", "sent", "see", "read", "write", "written", "add", "edit", "open", "close",
        "show", "hide", "until", "after", "before", "again", "also", "other", "each", "every",
        "never", "always"
    ]
)  # fmt: skip
# Without "a", common to both: "You have a new update" is English.
SPANISH = frozenset(
    [
        "el", "la", "los", "las", "un", "una", "unos", "unas", "y", "o", "de", "del", "al",
        "en", "con", "por", "para", "que", "qué", "no", "sí", "es", "son", "está", "están", "tu",
        "tus", "te", "ti", "tú", "su", "sus", "se", "lo", "le", "les", "mi", "mis", "me", "yo",
        "nos", "como", "cómo", "cuando", "cuándo", "más", "muy", "pero", "si", "ya", "hay", "este",
        "esta", "esto", "estos", "estas", "ese", "esa", "eso", "aquí", "todo", "toda", "todos",
        "cada", "hasta", "desde", "sin", "sobre", "entre", "también", "ha", "han", "he", "has",
        "fue", "ser", "estar", "puedes", "puede"
    ]
)  # fmt: skip
# A button or a heading of one word has no sentence around it: these alone are English.
ENGLISH_ALONE = frozenset(
    [
        "save", "send", "open", "close", "back", "next", "edit", "delete", "cancel", "done",
        "continue", "submit", "home", "settings", "progress", "history", "help", "yes", "print",
        "download", "show", "hide", "remove", "add", "menu", "saved", "sent", "loading"
    ]
)  # fmt: skip
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
IDENTIFIER = re.compile(r"\w*_\w*")
# The start of a longer text, cut short for a list or a table.
EXCERPT = re.compile(r"([^.!?:;·—…]{9,})…")
SENTENCE_END = re.compile(r"(?<=[.!?:;·—\n])\s+|\s{2,}")


def json_strings(value: Any) -> Iterator[str]:
    """Every string in a decoded JSON value (not its keys)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from json_strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from json_strings(item)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[str] = []
        self._skipping = 0
        self._messages = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        # A script's messages come from the page as JSON (json_script): they are read.
        self._messages = tag == "script" and values.get("type") == "application/json"
        if tag in NOT_READ:
            self._skipping += 1
        self.pieces += [values[name] or "" for name in READ_ALOUD if values.get(name)]
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.pieces.append(values["value"] or "")
        if tag == "meta" and values.get("name") == "description":
            self.pieces.append(values.get("content") or "")
        # Messages a script shows may be rendered into data- attributes: they are read too.
        self.pieces += [
            value for name, value in attrs if value and name.startswith("data-") and " " in value
        ]

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in NOT_READ:
            self._skipping -= 1

    def handle_endtag(self, tag: str) -> None:
        self._messages = False
        if tag in NOT_READ and self._skipping:
            self._skipping -= 1

    def handle_data(self, data: str) -> None:
        if self._messages:
            self.pieces += list(json_strings(json.loads(data)))
        elif not self._skipping:
            self.pieces.append(data)


def visible_text(html: str) -> list[str]:
    """Each text node and read attribute of ``html``, whitespace folded."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    return [" ".join(piece.split()) for piece in parser.pieces if piece.strip()]


def is_english(sentence: str) -> bool:
    # A key ("what_was_said") is for programs, not read as words.
    words = [word.lower() for word in WORD.findall(IDENTIFIER.sub(" ", sentence))]
    english = sum(word in ENGLISH for word in words)
    spanish = sum(word in SPANISH for word in words)
    if len(words) == 1:
        return words[0] in ENGLISH_ALONE
    # One common word ("to", "a") is not a sentence; two English with no Spanish is.
    return english >= 2 and english > 2 * spanish


@functools.lru_cache(maxsize=4)
def _data(allowed: frozenset[str]) -> tuple[re.Pattern[str] | None, str]:
    """One pattern for every piece of data (longest first, so a long answer goes
    before a short word inside it), and all of it as one text to find parts in."""
    words = sorted({" ".join(text.split()) for text in allowed if len(text.strip()) > 2}, key=len)
    words.reverse()
    pattern = re.compile("|".join(map(re.escape, words))) if words else None
    return pattern, "\n".join(words)


def _without_data(piece: str, allowed: frozenset[str]) -> str:
    pattern, everything = _data(allowed)
    if pattern is None:
        return piece
    # A part of the data the page set apart (an excerpt cut short, a line around a link).
    core = piece.strip(" ;,.:…—-()“”\"'")
    if len(core) > 8 and core in everything:
        return ""
    return EXCERPT.sub(
        lambda cut: "" if cut[1].strip() in everything else cut[0], pattern.sub(" ", piece)
    )


def english_sentences(html: str, allowed: Iterable[str] = ()) -> list[str]:
    """The sentences of ``html`` that read as English, once ``allowed`` is taken out."""
    data = allowed if isinstance(allowed, frozenset) else frozenset(allowed)
    return [
        sentence.strip()
        for piece in visible_text(html)
        for sentence in SENTENCE_END.split(_without_data(piece, data))
        if sentence.strip() and is_english(sentence)
    ]


MARKUP = re.compile(r"[*_`]+")


def _pieces(text: str) -> Iterator[str]:
    """The text, each line of it and each sentence: a page breaks them apart."""
    yield text
    yield MARKUP.sub("", text)  # a reading's Markdown, as its page shows it
    for line in MARKUP.sub("", text).splitlines():
        yield line.strip(" -*#>")
        yield from re.split(r"(?<=[.!?])\s+", line)


def _is_words(text: str) -> bool:
    # A name or a title, or words: a stored key ("memory", "written_record") is shown
    # through its translated label, so it must not excuse an English one.
    return len(text) > 2 and (" " in text or text[:1].isupper())


def practice_words() -> frozenset[str]:
    """Everything the practice, its staff and its clients wrote, from every row."""
    from django.apps import apps
    from django.db import models

    words: set[str] = set()
    for label in ("practice", "clients", "homework"):
        for model in apps.get_app_config(label).get_models():
            fields = [
                field.name
                for field in model._meta.concrete_fields
                if isinstance(field, models.CharField | models.TextField | models.JSONField)
                and not field.choices
            ]
            for row in model._default_manager.values_list(*fields) if fields else ():
                words |= {
                    piece.strip()
                    for value in row
                    for text in json_strings(value)
                    for piece in _pieces(text)
                    if _is_words(piece.strip())
                }
    return frozenset(words)
