"""Labels on a chart: how wide they are drawn, how they are cut or wrapped to fit, and the order
their letters are drawn in for print."""

import html
import re
import unicodedata

from arabic_reshaper import reshape
from bidi import get_display
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from homework.kinds.excerpts import ELLIPSIS, shorten

# Letter widths in ems as DejaVu Sans draws them, rounded up so a name never runs past the edge.
NARROW_LETTERS = frozenset("'ijlIJ ,./:;\\|f-()[]t!r’ł")
WIDE_LETTERS = frozenset("mwMW@%…—æœÆŒ&#+<=>^~")
WIDEST_ARABIC = ("SEEN", "SHEEN", "SAD", "DAD")


_OWN_DIRECTION_LABEL = re.compile(r'(<text [^>]*unicode-bidi="plaintext">)([^<]*)(</text>)')


def in_visual_order(svg: str) -> SafeString:
    """Each Arabic or Hebrew label in the order its letters are drawn, as WeasyPrint draws SVG text
    left to right without reordering. For print only: a browser would reverse it again."""
    if 'unicode-bidi="plaintext"' not in svg:
        return mark_safe(svg)  # noqa: S308 (our own chart, unchanged)  # nosec B703

    def drawn(label: re.Match[str]) -> str:
        text = html.unescape(label[2])
        return f"{label[1]}{escape(get_display(reshape(text)))}{label[3]}"

    # Our own markup, with each label's text escaped again.
    redrawn = _OWN_DIRECTION_LABEL.sub(drawn, svg)
    return mark_safe(redrawn)  # noqa: S308 (labels escaped again)  # nosec B703


def label_width(text: str, size: float) -> float:
    """Never much less than drawn."""
    ems = 0.0
    for char in text:
        if unicodedata.combining(char):
            continue
        letter = unicodedata.name(char, "").split()
        if letter[:2] == ["ARABIC", "LETTER"]:
            ems += 1.3 if letter[2] in WIDEST_ARABIC else 1.05
        elif char in NARROW_LETTERS:
            ems += 0.42
        elif char in WIDE_LETTERS or unicodedata.east_asian_width(char) in ("W", "F"):
            ems += 1.0
        elif char.isupper() or letter[:2] == ["HEBREW", "LETTER"]:
            ems += 0.8
        else:
            ems += 0.64
    return ems * size


def _fitted(text: str, room: float, size: float) -> str:
    """Three letters at least."""
    fitted = shorten(text, len(text) + 1)
    limit = len(fitted)
    while limit > 3 and label_width(fitted, size) > room:
        limit -= 1
        fitted = shorten(text, limit)
    return fitted


def wrapped_lines(text: str, room: float, size: float, lines: int = 2) -> list[str]:
    words = text.split()
    wrapped: list[str] = []
    taken = 0
    while taken < len(words) and len(wrapped) < lines:
        line = words[taken]
        taken += 1
        while taken < len(words) and label_width(f"{line} {words[taken]}", size) <= room:
            line = f"{line} {words[taken]}"
            taken += 1
        wrapped.append(_fitted(line, room, size))
    if taken < len(words) and not wrapped[-1].endswith(ELLIPSIS):
        wrapped[-1] = _fitted(" ".join([wrapped[-1], *words[taken:]]), room, size)
    return wrapped
