"""A person's own words set inside one of our sentences, kept apart from it.

A name, a practice's name or an exercise's title typed in Arabic or Hebrew,
put into an English sentence, runs together with what stands beside it:
two Arabic names joined by a comma read as one right-to-left run, so the
second prints first ("ask ليلى ,سارة"), and a number after one moves to its
other side ("Summary for 3 سارة entries"). Isolated, each inserted text is
laid out on its own, in the direction of its first letter, and the sentence
around it keeps its order.

Text with no right-to-left letter is returned as it was, byte for byte: an
English page, email or summary (and a stored summary's fingerprint) stays
the same, and an inline element costs the PDF engine about as much as a
paragraph.
"""

import re
import unicodedata

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString

# Letters written right to left: Hebrew, Arabic, Syriac, Thaana, N'Ko and
# their neighbours, the presentation forms, and the historic scripts.
RIGHT_TO_LEFT = re.compile(
    "[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\U00010800-\U00010fff\U0001e800-\U0001efff]"
)

# Unicode's FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: plain text's
# <bdi>. Browsers, mail programs and the PDF engine (Pango) honour them.
FIRST_STRONG_ISOLATE = "\u2068"
POP_DIRECTIONAL_ISOLATE = "\u2069"
# What is already isolated (by isolated_text, or LRI/RLI) is its own run:
# a sentence holding an isolated Arabic name still runs left to right.
_ISOLATES = re.compile("[\u2066-\u2068][^\u2066-\u2069]*\u2069")


def holds_right_to_left(text: str) -> bool:
    """Whether the text has a right-to-left letter of its own (not one
    already isolated inside it)."""
    return bool(RIGHT_TO_LEFT.search(_ISOLATES.sub("", text)))


def first_letter_right_to_left(text: str) -> bool:
    """Whether the text's first letter with a direction of its own (not a
    digit, a space or a mark) is one written right to left."""
    for char in _ISOLATES.sub("", text):
        direction = unicodedata.bidirectional(char)
        if direction in ("R", "AL"):
            return True
        if direction == "L":
            return False
    return False


def isolated_text(text: object) -> str:
    """For plain text (an email's text body, a page's or a message's title,
    a PDF's margin): the text between FSI and PDI when it holds a
    right-to-left letter."""
    value = "" if text is None else str(text)
    if not holds_right_to_left(value):
        return value
    return f"{FIRST_STRONG_ISOLATE}{value}{POP_DIRECTIONAL_ISOLATE}"


def isolated_html(text: object) -> SafeString:
    """For HTML (pages, emails and both PDFs): the text, escaped, in a
    <bdi> when it holds a right-to-left letter.

    The <bdi> names its direction rather than leaving it ``auto``: browsers
    would find it themselves, but the PDF engine reads neither ``dir=auto``
    nor <bdi>'s own rules. It lays out each inline element on its own, in
    the direction its ``dir`` gives, which isolates the text just as well.
    """
    value = "" if text is None else str(text)
    if not holds_right_to_left(value):
        return conditional_escape(value)
    direction = "rtl" if first_letter_right_to_left(value) else "ltr"
    return format_html('<bdi dir="{}">{}</bdi>', direction, value)
