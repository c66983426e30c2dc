"""The boundary ladder: each step a rung, with its status."""

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.safestring import SafeString

from homework.kinds.charts.svg import ACCENT, MUTED, svg_document, svg_text
from homework.kinds.excerpts import shorten


@dataclass(frozen=True)
class Rung:
    text: str
    status: str
    status_label: str


def ladder(*, rungs: Sequence[Rung], title: str, description: str) -> SafeString:
    rung_h = 50
    width, height = 360, 16 + rung_h * max(len(rungs), 1)
    rail_left, rail_right = 12, 56
    mid = (rail_left + rail_right) / 2
    body = [
        f'<line x1="{rail_left}" x2="{rail_left}" y1="4" y2="{height - 4}" stroke="{MUTED}" stroke-width="3"/>',
        f'<line x1="{rail_right}" x2="{rail_right}" y1="4" y2="{height - 4}" stroke="{MUTED}" stroke-width="3"/>',
    ]
    for position, rung in enumerate(rungs):
        cy = height - 8 - rung_h * position - rung_h / 2
        body.append(
            f'<line x1="{rail_left}" x2="{rail_right}" y1="{cy:.1f}" y2="{cy:.1f}" stroke="{MUTED}" stroke-width="3"/>'
        )
        body.append(_status_marker(mid, cy, rung.status))
        body.append(
            svg_text(rail_right + 12, cy - 3, shorten(rung.text, 32), size=13, weight="bold")
        )
        body.append(svg_text(rail_right + 12, cy + 14, rung.status_label, size=12, fill=MUTED))
    return svg_document(width, height, title, description, body)


def _status_marker(cx: float, cy: float, status: str) -> str:
    """Held: filled with a tick. Tried: half filled. Planned: an outline. Not yet: dashed."""
    r = 11
    if status == "held":
        return (
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r}" fill="{ACCENT}" stroke="{ACCENT}" stroke-width="2.5"/>'
            f'<polyline points="{cx - 5:.1f},{cy:.1f} {cx - 1:.1f},{cy + 4:.1f} {cx + 6:.1f},{cy - 4:.1f}" '
            f'fill="none" stroke="#fff" stroke-width="2.5"/>'
        )
    if status == "tried":
        return (
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r}" fill="#fff" stroke="{ACCENT}" stroke-width="2.5"/>'
            f'<path d="M {cx - r:.1f} {cy:.1f} A {r} {r} 0 0 0 {cx + r:.1f} {cy:.1f} Z" fill="{ACCENT}"/>'
        )
    dash = ' stroke-dasharray="3 3"' if status == "not_yet" else ""
    return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r}" fill="#fff" stroke="{MUTED}" stroke-width="2.5"{dash}/>'
