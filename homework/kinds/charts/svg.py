"""The SVG every chart is drawn with: colours, the frame with its text alternative, and shared
shapes and labels."""

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
    # ids are derived from the content so they are unique on a page and the function stays pure.
    uid = "c" + hashlib.sha256(f"{title}|{description}".encode()).hexdigest()[:10]
    parts = [
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
    # Arabic or Hebrew labels run in their own direction in a browser; the PDF engine ignores this.
    own_direction = ' unicode-bidi="plaintext"' if RIGHT_TO_LEFT.search(text) else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" '
        f'text-anchor="{anchor}" font-weight="{weight}"{own_direction}>{escape(text)}</text>'
    )


def rules(x1: float, x2: float, ys: Iterable[float]) -> str:
    """One path: a PDF engine draws each element on its own."""
    d = "".join(f"M{x1} {y:.1f}H{x2}" for y in ys)
    return f'<path d="{d}" stroke="{LINE}" fill="none"/>'


def svg_dots(points: Iterable[tuple[float, float]], radius: float) -> str:
    """One path of zero-length round-capped strokes: one element, not one circle a day."""
    d = "".join(f"M{x:.1f} {y:.1f}h0" for x, y in points)
    if not d:
        return ""
    return (
        f'<path d="{d}" stroke="{ACCENT}" stroke-width="{radius * 2:g}" '
        f'stroke-linecap="round" fill="none"/>'
    )
