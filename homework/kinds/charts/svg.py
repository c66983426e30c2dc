"""The SVG every chart is drawn with: its colours, the picture's frame
with its text alternative, and the shapes and labels charts share."""

import hashlib
from collections.abc import Iterable

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from practice.bidi import RIGHT_TO_LEFT

INK = "#23302e"
MUTED = "#56635f"
LINE = "#d9d3c7"
ACCENT = "#2f5f58"
SOFT = "#e9efe9"
CONTACT = "#5b2a86"
FONT = "DejaVu Sans, system-ui, sans-serif"


def svg_document(
    width: int, height: int, title: str, description: str, body: Iterable[str]
) -> SafeString:
    # ids must be unique on a page that shows several charts: derive them
    # from the content, so the function stays pure.
    uid = "c" + hashlib.sha256(f"{title}|{description}".encode()).hexdigest()[:10]
    parts = [
        # A natural size (good in the admin and in print); the portal's CSS
        # stretches it to the width of a phone.
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" '
        f'role="img" aria-labelledby="{uid}-t {uid}-d" font-family="{FONT}" class="chart">',
        f'<title id="{uid}-t">{escape(title)}</title>',
        f'<desc id="{uid}-d">{escape(description)}</desc>',
        *body,
        "</svg>",
    ]
    drawn = "".join(parts)
    return mark_safe(drawn)  # noqa: S308 (every piece of text above is escaped)  # nosec B703


def svg_text(
    x: float,
    y: float,
    text: str,
    *,
    size: int = 12,
    fill: str = INK,
    anchor: str = "start",
    weight: str = "normal",
) -> str:
    # A label in Arabic or Hebrew (a step, a name) runs in its own direction
    # in a browser, still anchored where it stood: drawn left to right, a
    # step ending on "WhatsApp." put that word where its reader starts. The
    # PDF engine ignores this; other labels are drawn exactly as before.
    own_direction = ' unicode-bidi="plaintext"' if RIGHT_TO_LEFT.search(text) else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" '
        f'text-anchor="{anchor}" font-weight="{weight}"{own_direction}>{escape(text)}</text>'
    )


def rules(x1: float, x2: float, ys: Iterable[float]) -> str:
    """Horizontal lines across the plot, as one path: a PDF engine draws each
    element on its own, and three lines cost as much as three shapes."""
    d = "".join(f"M{x1} {y:.1f}H{x2}" for y in ys)
    return f'<path d="{d}" stroke="{LINE}" fill="none"/>'


def svg_dots(points: Iterable[tuple[float, float]], radius: float) -> str:
    """Round dots at the points, as one path of zero-length strokes with round
    caps (drawn as dots by browsers and PDF readers alike): one element, not
    one circle a day."""
    d = "".join(f"M{x:.1f} {y:.1f}h0" for x, y in points)
    if not d:
        return ""
    return (
        f'<path d="{d}" stroke="{ACCENT}" stroke-width="{radius * 2:g}" '
        f'stroke-linecap="round" fill="none"/>'
    )
