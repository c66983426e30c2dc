"""The support-network map: rings of people and places round "me", each name placed clear of
everything else drawn."""

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from homework.kinds.charts.labels import label_width, wrapped_lines
from homework.kinds.charts.svg import ACCENT, LINE, MUTED, SOFT, svg_document, svg_text


@dataclass(frozen=True)
class Dot:
    name: str
    filled: bool
    is_place: bool = False


@dataclass(frozen=True)
class Ring:
    label: str
    dots: Sequence[Dot]


def rings(
    *,
    circles: Sequence[Ring],
    centre_label: str,
    title: str,
    description: str,
) -> SafeString:
    """Whatever a ring leaves out is said in the text alternative too."""
    size = 360
    centre = size / 2
    radii = [62, 118, 174][: len(circles)]
    per_ring = [5, 8, 12]
    name_chars = [8, 11, 12]
    body = []
    left_out = []
    cut_short: list[str] = []
    for radius in reversed(radii):
        fill = SOFT if radius == radii[0] else "#fff"
        body.append(
            f'<circle cx="{centre}" cy="{centre}" r="{radius}" fill="{fill}" stroke="{LINE}" stroke-width="2"/>'
        )
    body.append(f'<circle cx="{centre}" cy="{centre}" r="{CENTRE_RADIUS}" fill="{ACCENT}"/>')
    taken: list[Box] = []
    names: list[tuple[float, float, str, float]] = []
    body.append(
        svg_text(
            centre, centre + 5, centre_label, size=13, fill="#fff", anchor="middle", weight="bold"
        )
    )
    for index, (ring, radius) in enumerate(zip(circles, radii, strict=False)):
        inner = radii[index - 1] if index else 18
        band = (inner + radius) / 2
        label_y = centre - radius + 14
        body.append(svg_text(centre, label_y, ring.label, size=12, fill=MUTED, anchor="middle"))
        taken.append(_text_box(centre, label_y, label_width(ring.label, 12), 12))
        dot_radius = 6.0
        shown = list(ring.dots[: per_ring[index]])
        hidden = len(ring.dots) - len(shown)
        slots = len(shown) + (1 if hidden else 0)
        positions = [
            (centre + band * math.cos(angle), centre + band * math.sin(angle))
            for slot in range(slots)
            for angle in [-math.pi / 2 + (2 * math.pi) * (slot + 0.5) / slots]
        ]
        # No wider than the line between two dots, so a full ring of long names does not run
        # together.
        between = 2 * band * math.sin(math.pi / max(len(positions), 2))
        room = NAME_LETTER_WIDTH * max(3, min(name_chars[index], int(between // NAME_LETTER_WIDTH)))
        for dot, (dx, dy) in zip(shown, positions, strict=False):
            body.append(_ring_dot(dx, dy, dot, dot_radius))
            reach = dot_radius + 1
            taken.append((dx - reach, dy - reach, dx + reach, dy + reach))
            names.append((dx, dy, dot.name, room))
        if hidden:
            more = ngettext("+ %(n)s more", "+ %(n)s more", hidden) % {"n": hidden}
            dx, dy = positions[len(shown)]
            body.append(svg_text(dx, dy + 4, more, size=11, fill=MUTED, anchor="middle"))
            taken.append(_text_box(dx, dy + 4, label_width(more, 11), 11))
            # Inside role="img" only the title and description are read out.
            left_out.append(
                ngettext(
                    "%(ring)s: %(shown)s of %(total)s drawn, and “%(more)s”.",
                    "%(ring)s: %(shown)s of %(total)s drawn, and “%(more)s”.",
                    len(ring.dots),
                )
                % {"ring": ring.label, "shown": len(shown), "total": len(ring.dots), "more": more}
            )
    for dx, dy, name, room in names:
        for lines in (
            wrapped_lines(name, room, 12),
            wrapped_lines(name, room * 0.75, 12),
            wrapped_lines(name, room / 2, 12),
            wrapped_lines(name, room / 2, 12, lines=1),
        ):
            width = max(label_width(line, 12) for line in lines)
            height = (TEXT_ASCENT + TEXT_DESCENT) * 12 + NAME_LINE_HEIGHT * (len(lines) - 1)
            box = _beside(dx, dy, width, height, size, taken)
            if box is not None:
                break
        if box is None or " ".join(lines) != " ".join(name.split()):
            cut_short.append(name)
        if box is None:
            continue  # no room beside its dot: the name is said in words only
        taken.append(box)
        for line_number, line in enumerate(lines):
            body.append(
                svg_text(
                    (box[0] + box[2]) / 2,
                    box[1] + TEXT_ASCENT * 12 + NAME_LINE_HEIGHT * line_number,
                    line,
                    size=12,
                    anchor="middle",
                )
            )
    # A name cut short in the picture is said in full in the text alternative.
    unsaid = [name for name in cut_short if name not in description]
    if unsaid:
        left_out.append(_("In full: %(names)s.") % {"names": ", ".join(dict.fromkeys(unsaid))})
    if left_out:
        description = " ".join([description, *left_out]).strip()
    return svg_document(size, size, title, description, body)


NAME_LETTER_WIDTH = 7.5
NAME_LINE_HEIGHT = 13
TEXT_ASCENT = 0.76
TEXT_DESCENT = 0.24
LABEL_GAP = 2
NAMED_DOT_REACH = 7
NAME_REACH = NAMED_DOT_REACH + LABEL_GAP
CENTRE_RADIUS = 20


Box = tuple[float, float, float, float]


def _text_box(x: float, baseline: float, width: float, size: float) -> Box:
    return (
        x - width / 2,
        baseline - TEXT_ASCENT * size,
        x + width / 2,
        baseline + TEXT_DESCENT * size,
    )


def _apart(one: Box, other: Box) -> bool:
    return (
        one[2] + LABEL_GAP <= other[0]
        or other[2] + LABEL_GAP <= one[0]
        or one[3] + LABEL_GAP <= other[1]
        or other[3] + LABEL_GAP <= one[1]
    )


def _beside(
    dx: float, dy: float, width: float, height: float, size: float, taken: Sequence[Box]
) -> Box | None:
    """None when there is no place clear of the middle and of everything ``taken``."""
    middle = size / 2
    outward = 1 if dx >= middle else -1
    under, over = dy + NAME_REACH, dy - NAME_REACH - height
    out = dx + NAME_REACH if outward > 0 else dx - NAME_REACH - width
    inside = dx - NAME_REACH - width if outward > 0 else dx + NAME_REACH
    centred = dx - width / 2
    edge = NAMED_DOT_REACH
    out_from = dx - edge if outward > 0 else dx + edge - width
    in_from = dx + edge - width if outward > 0 else dx - edge
    level, lower, higher = dy - height / 2, dy - edge, dy + edge - height
    for left, top in (
        (centred, under),
        (centred, over),
        (out, level),
        (inside, level),
        (out_from, under),
        (out_from, over),
        (out, lower),
        (out, higher),
        (in_from, under),
        (in_from, over),
        (inside, lower),
        (inside, higher),
    ):
        left = min(max(left, 2), size - 2 - width)
        box = (left, top, left + width, top + height)
        near_x = min(max(middle, box[0]), box[2]) - middle
        near_y = min(max(middle, box[1]), box[3]) - middle
        if (
            top >= 0
            and top + height <= size
            and math.hypot(near_x, near_y) >= CENTRE_RADIUS + LABEL_GAP
            and all(_apart(box, other) for other in taken)
        ):
            return box
    return None


def _ring_dot(dx: float, dy: float, dot: Dot, radius: float) -> str:
    fill = ACCENT if dot.filled else "#fff"
    stroke = 2 if radius >= 5 else 1.5
    if dot.is_place:
        half = radius - 1
        return (
            f'<rect x="{dx - half:.1f}" y="{dy - half:.1f}" width="{2 * half:g}" height="{2 * half:g}" '
            f'fill="{fill}" stroke="{ACCENT}" stroke-width="{stroke:g}"/>'
        )
    return (
        f'<circle cx="{dx:.1f}" cy="{dy:.1f}" r="{radius:g}" fill="{fill}" '
        f'stroke="{ACCENT}" stroke-width="{stroke:g}"/>'
    )
