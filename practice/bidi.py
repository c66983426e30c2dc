"""A person's own words isolated inside our sentences, so right-to-left text keeps its order."""

import re
import unicodedata

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString

RIGHT_TO_LEFT = re.compile(
    "[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\U00010800-\U00010fff\U0001e800-\U0001efff]"
)

# FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: plain text's <bdi>.
FIRST_STRONG_ISOLATE = "\u2068"
POP_DIRECTIONAL_ISOLATE = "\u2069"
_ISOLATES = re.compile("[\u2066-\u2068][^\u2066-\u2069]*\u2069")


def holds_right_to_left(text: str) -> bool:
    return bool(RIGHT_TO_LEFT.search(_ISOLATES.sub("", text)))


def first_letter_right_to_left(text: str) -> bool:
    for char in _ISOLATES.sub("", text):
        direction = unicodedata.bidirectional(char)
        if direction in ("R", "AL"):
            return True
        if direction == "L":
            return False
    return False


def isolated_text(text: object) -> str:
    value = "" if text is None else str(text)
    if not holds_right_to_left(value):
        return value
    return f"{FIRST_STRONG_ISOLATE}{value}{POP_DIRECTIONAL_ISOLATE}"


def isolated_html(text: object) -> SafeString:
    """Names its direction: the PDF engine reads neither ``dir=auto`` nor <bdi>'s own rules."""
    value = "" if text is None else str(text)
    if not holds_right_to_left(value):
        return conditional_escape(value)
    direction = "rtl" if first_letter_right_to_left(value) else "ltr"
    return format_html('<bdi dir="{}">{}</bdi>', direction, value)
