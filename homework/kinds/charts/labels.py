"""Labels on a chart: how wide they are drawn, how they are cut or wrapped
to fit, and the order their letters are drawn in for print."""

import html
import re
import unicodedata

from arabic_reshaper import reshape
from bidi import get_display
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from homework.kinds.excerpts import ELLIPSIS, shorten

# How wide letters are, in ems, as DejaVu Sans (the first face above, and
# among the widest) draws them, rounded up: narrow ones, wide ones, capitals,
# and the rest (about 0.63). A name counted at 7 units a letter ran past the
# picture's edge: a "W" is 12 units at size 12, and the ellipsis a whole 12.
NARROW_LETTERS = frozenset("'ijlIJ ,./:;\\|f-()[]t!r’ł")
WIDE_LETTERS = frozenset("mwMW@%…—æœÆŒ&#+<=>^~")
# Arabic letters are drawn wider than Latin ones (up to 1.05 em), and the
# seen and sad families wider still (1.27); Hebrew ones as wide as capitals.
WIDEST_ARABIC = ("SEEN", "SHEEN", "SAD", "DAD")


# A label _text marks as running in its own direction, and its escaped text.
_OWN_DIRECTION_LABEL = re.compile(r'(<text [^>]*unicode-bidi="plaintext">)([^<]*)(</text>)')


def in_visual_order(svg: str) -> SafeString:
    """One of our charts for the PDF: each Arabic or Hebrew label given in
    the order its letters are drawn, left to right.

    WeasyPrint (66) draws SVG text one letter at a time, each shaped on its
    own, left to right in the order of the string (weasyprint/svg/text.py):
    no reordering, and no attribute (``direction``, ``unicode-bidi``) changes
    that. A Hebrew step printed backwards, an Arabic one backwards with its
    letters apart. So here the label is put in the order the Unicode
    algorithm displays it (python-bidi), its direction taken from its first
    letter as ``unicode-bidi="plaintext"`` does in a browser, Arabic letters
    first given the joined forms they take beside each other
    (arabic-reshaper). For print only: a browser orders the label itself,
    and would reverse this again. Labels without such letters, and charts
    without them, are returned exactly as they were.
    """
    if 'unicode-bidi="plaintext"' not in svg:
        return mark_safe(svg)  # noqa: S308 (our own chart, unchanged)  # nosec B703

    def drawn(label: re.Match[str]) -> str:
        text = html.unescape(label[2])
        return f"{label[1]}{escape(get_display(reshape(text)))}{label[3]}"

    # Our own markup, with each label's text escaped again.
    redrawn = _OWN_DIRECTION_LABEL.sub(drawn, svg)
    return mark_safe(redrawn)  # noqa: S308 (labels escaped again)  # nosec B703


def label_width(text: str, size: float) -> float:
    """About how wide ``text`` is drawn at ``size``, never much less."""
    ems = 0.0
    for char in text:
        if unicodedata.combining(char):
            continue  # drawn over the letter before it
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
    """``text`` on one line, cut short (between words where it can, see
    ``shorten``) to fit ``room`` units at ``size``; three letters at least."""
    fitted = shorten(text, len(text) + 1)
    limit = len(fitted)
    while limit > 3 and label_width(fitted, size) > room:
        limit -= 1
        fitted = shorten(text, limit)
    return fitted


def wrapped_lines(text: str, room: float, size: float, lines: int = 2) -> list[str]:
    """``text`` in at most ``lines`` lines of ``room`` units, broken between
    words; a word too wide for a line alone, or words left over, cut short
    with an ellipsis (``_fitted``)."""
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
