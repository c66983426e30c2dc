"""Pictures of progress, drawn on the server as SVG.

Pure functions: plain data in, an escaped SVG string out. No database, no
request, no fonts or images fetched from anywhere, so the same pictures go
into the portal, the session summary PDF and the client's export. Every
picture carries a <title> and <desc> (its text alternative); templates show
the numbers beside it as text too. Colour never carries meaning alone:
shapes and words do.
"""

import hashlib
import html
import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from arabic_reshaper import reshape
from bidi import get_display
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from homework.excerpts import ELLIPSIS, shorten
from practice.bidi import RIGHT_TO_LEFT

INK = "#23302e"
MUTED = "#56635f"
LINE = "#d9d3c7"
ACCENT = "#2f5f58"
SOFT = "#e9efe9"
CONTACT = "#5b2a86"
FONT = "DejaVu Sans, system-ui, sans-serif"
# The room a value's number ("10", "6.5") takes over its dot, at size 11.
VALUE_LABEL_WIDTH = 26
# How wide letters are, in ems, as DejaVu Sans (the first face above, and
# among the widest) draws them, rounded up: narrow ones, wide ones, capitals,
# and the rest (about 0.63). A name counted at 7 units a letter ran past the
# picture's edge: a "W" is 12 units at size 12, and the ellipsis a whole 12.
NARROW_LETTERS = frozenset("'ijlIJ ,./:;\\|f-()[]t!r’ł")
WIDE_LETTERS = frozenset("mwMW@%…—æœÆŒ&#+<=>^~")
# Arabic letters are drawn wider than Latin ones (up to 1.05 em), and the
# seen and sad families wider still (1.27); Hebrew ones as wide as capitals.
WIDEST_ARABIC = ("SEEN", "SHEEN", "SAD", "DAD")


@dataclass(frozen=True)
class DayValue:
    """A value on day ``day`` (0 = the first day of the chart)."""

    day: int
    value: float


@dataclass(frozen=True)
class ContactMark:
    day: int
    by_me: bool  # True: I reached out; False: they did (or it is unknown)


@dataclass(frozen=True)
class Rung:
    text: str
    status: str  # planned, tried, held, not_yet
    status_label: str


@dataclass(frozen=True)
class Dot:
    name: str
    filled: bool  # a person who steadies me; places are drawn as squares
    is_place: bool = False


@dataclass(frozen=True)
class Ring:
    label: str
    dots: Sequence[Dot]


def _svg(width: int, height: int, title: str, description: str, body: Iterable[str]) -> SafeString:
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
    return mark_safe("".join(parts))  # noqa: S308 (every piece of text above is escaped)


def _text(
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
        return mark_safe(svg)  # noqa: S308 (our own chart, unchanged)

    def drawn(label: re.Match[str]) -> str:
        text = html.unescape(label[2])
        return f"{label[1]}{escape(get_display(reshape(text)))}{label[3]}"

    # Our own markup, with each label's text escaped again.
    return mark_safe(_OWN_DIRECTION_LABEL.sub(drawn, svg))  # noqa: S308


def _label_width(text: str, size: float) -> float:
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
    while limit > 3 and _label_width(fitted, size) > room:
        limit -= 1
        fitted = shorten(text, limit)
    return fitted


def _wrapped(text: str, room: float, size: float, lines: int = 2) -> list[str]:
    """``text`` in at most ``lines`` lines of ``room`` units, broken between
    words; a word too wide for a line alone, or words left over, cut short
    with an ellipsis (``_fitted``)."""
    words = text.split()
    wrapped: list[str] = []
    taken = 0
    while taken < len(words) and len(wrapped) < lines:
        line = words[taken]
        taken += 1
        while taken < len(words) and _label_width(f"{line} {words[taken]}", size) <= room:
            line = f"{line} {words[taken]}"
            taken += 1
        wrapped.append(_fitted(line, room, size))
    if taken < len(words) and not wrapped[-1].endswith(ELLIPSIS):
        wrapped[-1] = _fitted(" ".join([wrapped[-1], *words[taken:]]), room, size)
    return wrapped


def _rules(x1: float, x2: float, ys: Iterable[float]) -> str:
    """Horizontal lines across the plot, as one path: a PDF engine draws each
    element on its own, and three lines cost as much as three shapes."""
    d = "".join(f"M{x1} {y:.1f}H{x2}" for y in ys)
    return f'<path d="{d}" stroke="{LINE}" fill="none"/>'


def _dots(points: Iterable[tuple[float, float]], radius: float) -> str:
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


def urge_curve(
    *,
    points: Sequence[DayValue],
    contacts: Sequence[ContactMark],
    days: int,
    title: str,
    description: str,
    labelled: bool = True,
) -> SafeString:
    """The strongest pull of each day (0–10), day by day, with contact marked.

    Days with nothing logged leave a gap: no entry is not "no urge".
    ``labelled=False`` leaves out the scale, the day numbers and the legend,
    for a page that says them in words beside the picture (the summary PDF:
    the engine lays out every letter drawn inside an SVG on its own).
    """
    width, height = (360, 220) if labelled else (360, 160)
    left, right, top, bottom = (28, 10, 8, 58) if labelled else (6, 6, 6, 24)
    plot_w, plot_h = width - left - right, height - top - bottom
    days = max(days, 1)

    def x(day: float) -> float:
        return left + (plot_w * day / (days - 1) if days > 1 else plot_w / 2)

    def y(value: float) -> float:
        return top + plot_h * (1 - value / 10)

    body = [
        f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="#fff" stroke="{LINE}"/>'
    ]
    body.append(_rules(left, left + plot_w, (y(level) for level in (0, 5, 10))))
    if labelled:
        for level in (0, 5, 10):
            body.append(
                _text(left - 6, y(level) + 4, str(level), size=11, fill=MUTED, anchor="end")
            )
    for mark in contacts:
        cx = x(mark.day)
        body.append(
            f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{top}" y2="{top + plot_h}" stroke="{CONTACT}" stroke-dasharray="4 3"/>'
        )
        body.append(_contact_marker(cx, top + plot_h + 12, mark.by_me))
    # Consecutive days join up; a gap starts a new line.
    ordered = sorted(points, key=lambda point: point.day)
    segment: list[DayValue] = []
    for point in [*ordered, None]:
        if point is not None and (not segment or point.day == segment[-1].day + 1):
            segment.append(point)
            continue
        if len(segment) > 1:
            coords = " ".join(f"{x(p.day):.1f},{y(p.value):.1f}" for p in segment)
            body.append(
                f'<polyline points="{coords}" fill="none" stroke="{ACCENT}" stroke-width="2.5" stroke-linejoin="round"/>'
            )
        segment = [point] if point is not None else []
    radius = 3.5 if days <= 40 else 2
    body.append(_dots(((x(point.day), y(point.value)) for point in ordered), radius))
    if not labelled:
        return _svg(width, height, title, description, body)
    axis_y = top + plot_h + 30
    if days == 1:
        # The first day alone, under its dot: "Day 1 … Day 1" read as if
        # nothing had moved.
        body.append(_text(x(0), axis_y, _("Day 1"), size=11, fill=MUTED, anchor="middle"))
    else:
        body.append(_text(left, axis_y, _("Day 1"), size=11, fill=MUTED))
        body.append(
            _text(
                left + plot_w,
                axis_y,
                _("Day %(n)s") % {"n": days},
                size=11,
                fill=MUTED,
                anchor="end",
            )
        )
    legend_x, legend_y = left, height - 6
    for by_me, label in ((True, _("I reached out")), (False, _("They reached out"))):
        if any(mark.by_me == by_me for mark in contacts):
            body.append(_contact_marker(legend_x + 6, legend_y - 4, by_me=by_me))
            body.append(_text(legend_x + 16, legend_y, label, size=11, fill=MUTED))
            legend_x += 130
    return _svg(width, height, title, description, body)


def _contact_marker(cx: float, cy: float, by_me: bool) -> str:
    if by_me:  # a circle
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="5" fill="{CONTACT}"/>'
    # a triangle pointing at the day: it came from outside
    return (
        f'<polygon points="{cx - 6:.1f},{cy + 5:.1f} {cx + 6:.1f},{cy + 5:.1f} {cx:.1f},{cy - 6:.1f}" '
        f'fill="#fff" stroke="{CONTACT}" stroke-width="2"/>'
    )


def values_over_time(
    *,
    points: Sequence[tuple[str, float]],
    y_max: float,
    title: str,
    description: str,
    labelled: bool = True,
) -> SafeString:
    """A few values in order (e.g. weekly check-in totals), labelled by date.

    The scale's name goes beside the picture, as HTML; ``labelled=False``
    leaves out the numbers and dates too (see ``urge_curve``)."""
    # Unlabelled, it is a trend beside its numbers (the summary): low and wide.
    width, height = (360, 190) if labelled else (360, 70)
    left, right, top, bottom = (30, 22, 16, 34) if labelled else (8, 8, 8, 8)
    plot_w, plot_h = width - left - right, height - top - bottom
    y_max = y_max or 1
    count = len(points)

    def x(index: int) -> float:
        return left + (plot_w * index / (count - 1) if count > 1 else plot_w / 2)

    def y(value: float) -> float:
        return top + plot_h * (1 - min(max(value, 0), y_max) / y_max)

    body = [
        f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="#fff" stroke="{LINE}"/>'
    ]
    body.append(_rules(left, left + plot_w, (y(level) for level in (0, y_max / 2, y_max))))
    if labelled:
        for level in (0, y_max / 2, y_max):
            body.append(
                _text(left - 6, y(level) + 4, f"{level:g}", size=11, fill=MUTED, anchor="end")
            )
    if count > 1:
        coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, (_label, v) in enumerate(points))
        body.append(
            f'<polyline points="{coords}" fill="none" stroke="{ACCENT}" stroke-width="2.5"/>'
        )
    body.append(_dots(((x(index), y(value)) for index, (_label, value) in enumerate(points)), 4))
    if not labelled:
        return _svg(width, height, title, description, body)
    # A number over each dot while they fit side by side (a number is about
    # 26 units wide); a year of weekly check-ins would stack them into one
    # black bar, so past that the numbers are in words beside the picture.
    numbered = count <= 1 or plot_w / (count - 1) >= VALUE_LABEL_WIDTH
    for index, (label, value) in enumerate(points):
        if numbered:
            body.append(_text(x(index), y(value) - 9, f"{value:g}", size=11, anchor="middle"))
        if count <= 4 or index in (0, count - 1):
            anchor = (
                "start"
                if index == 0 and count > 1
                else ("end" if index == count - 1 and count > 1 else "middle")
            )
            body.append(_text(x(index), height - 12, label, size=11, fill=MUTED, anchor=anchor))
    return _svg(width, height, title, description, body)


def ladder(*, rungs: Sequence[Rung], title: str, description: str) -> SafeString:
    """The boundary ladder: the first step at the bottom, each rung with its status."""
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
        body.append(_text(rail_right + 12, cy - 3, shorten(rung.text, 32), size=13, weight="bold"))
        body.append(_text(rail_right + 12, cy + 14, rung.status_label, size=12, fill=MUTED))
    return _svg(width, height, title, description, body)


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


def rings(
    *,
    circles: Sequence[Ring],
    centre_label: str,
    title: str,
    description: str,
    labelled: bool = True,
) -> SafeString:
    """Concentric circles, closest in the middle; a name beside each dot.

    Filled dots: people who steady me; hollow: not always; squares: places
    and services. Very full rings show the first names and "+ n more".
    Each name goes where it is clear of every other, of the dots and of the
    edge: under its dot, else over or beside it, cut narrower where the
    dots around leave little room (see ``_beside``).
    ``labelled=False`` draws the dots alone, for a page that names the
    people in words beside the picture (see ``urge_curve``): a ring too
    full for one row of dots takes smaller dots in several rows, so every
    one is drawn. Whatever a ring leaves out is said in the text
    alternative too.
    """
    size = 360
    centre = size / 2
    radii = [62, 118, 174][: len(circles)]
    # Without names beside them, dots fit about three times as close.
    per_ring = [5, 8, 12] if labelled else [15, 24, 36]
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
    # What a name must keep clear of besides the middle: each ring's name,
    # every dot and "+ n more"; then each name placed beside its dot.
    taken: list[Box] = []
    names: list[tuple[float, float, str, float]] = []
    if labelled:
        body.append(
            _text(
                centre,
                centre + 5,
                centre_label,
                size=13,
                fill="#fff",
                anchor="middle",
                weight="bold",
            )
        )
    for index, (ring, radius) in enumerate(zip(circles, radii, strict=False)):
        inner = radii[index - 1] if index else 18
        band = (inner + radius) / 2
        if labelled:
            label_y = centre - radius + 14
            body.append(_text(centre, label_y, ring.label, size=12, fill=MUTED, anchor="middle"))
            taken.append(_text_box(centre, label_y, _label_width(ring.label, 12), 12))
        if not labelled and len(ring.dots) > per_ring[index]:
            places, dot_radius = _packed(len(ring.dots), max(inner, CENTRE_RADIUS), radius)
            positions = [(centre + x, centre + y) for x, y in places]
            # More than the smallest dots hold: the last place says how many more.
            drawn = len(places) if len(places) == len(ring.dots) else len(places) - 1
            shown = list(ring.dots[:drawn])
            hidden = len(ring.dots) - drawn
        else:
            dot_radius = 6.0
            shown = list(ring.dots[: per_ring[index]])
            hidden = len(ring.dots) - len(shown)
            slots = len(shown) + (1 if hidden else 0)
            positions = [
                # Spread round the ring, starting clear of its label at the top.
                (centre + band * math.cos(angle), centre + band * math.sin(angle))
                for slot in range(slots)
                for angle in [-math.pi / 2 + (2 * math.pi) * (slot + 0.5) / slots]
            ]
        # A name fits between its neighbours: no wider than the straight
        # line between two dots of the ring, so a full ring of long names
        # does not run them into each other. Inner rings are shorter: their
        # names are cut shorter.
        between = 2 * band * math.sin(math.pi / max(len(positions), 2))
        room = NAME_LETTER_WIDTH * max(3, min(name_chars[index], int(between // NAME_LETTER_WIDTH)))
        for dot, (dx, dy) in zip(shown, positions, strict=False):
            body.append(_ring_dot(dx, dy, dot, dot_radius))
            reach = dot_radius + 1  # with its outline
            taken.append((dx - reach, dy - reach, dx + reach, dy + reach))
            if labelled:
                names.append((dx, dy, dot.name, room))
        if hidden:
            more = ngettext("+ %(n)s more", "+ %(n)s more", hidden) % {"n": hidden}
            dx, dy = positions[len(shown)]
            body.append(_text(dx, dy + 4, more, size=11, fill=MUTED, anchor="middle"))
            taken.append(_text_box(dx, dy + 4, _label_width(more, 11), 11))
            # Inside a picture with role="img" only the title and the
            # description are read out: the marker is said there too.
            left_out.append(
                ngettext(
                    "%(ring)s: %(shown)s of %(total)s drawn, and “%(more)s”.",
                    "%(ring)s: %(shown)s of %(total)s drawn, and “%(more)s”.",
                    len(ring.dots),
                )
                % {"ring": ring.label, "shown": len(shown), "total": len(ring.dots), "more": more}
            )
    for dx, dy, name, room in names:
        # Where a dot's neighbours leave too little room, the name is cut
        # narrower, then to one line (and said in full in words).
        for lines in (
            _wrapped(name, room, 12),
            _wrapped(name, room * 0.75, 12),
            _wrapped(name, room / 2, 12),
            _wrapped(name, room / 2, 12, lines=1),
        ):
            width = max(_label_width(line, 12) for line in lines)
            height = (TEXT_ASCENT + TEXT_DESCENT) * 12 + NAME_LINE_HEIGHT * (len(lines) - 1)
            box = _beside(dx, dy, width, height, size, taken)
            if box is not None:
                break
        if box is None or " ".join(lines) != " ".join(name.split()):
            cut_short.append(name)
        if box is None:
            continue  # no room left beside its dot: the name is said in words only
        taken.append(box)
        for line_number, line in enumerate(lines):
            body.append(
                _text(
                    (box[0] + box[2]) / 2,
                    box[1] + TEXT_ASCENT * 12 + NAME_LINE_HEIGHT * line_number,
                    line,
                    size=12,
                    anchor="middle",
                )
            )
    # A name cut short in the picture is said in full in its text
    # alternative, unless the description names it already (the map's does).
    unsaid = [name for name in cut_short if name not in description]
    if unsaid:
        left_out.append(_("In full: %(names)s.") % {"names": ", ".join(dict.fromkeys(unsaid))})
    if left_out:
        description = " ".join([description, *left_out]).strip()
    return _svg(size, size, title, description, body)


# The room for a name on the map is counted in letters of about this width
# (at size 12); a name is then cut to the width it is drawn (_fitted).
NAME_LETTER_WIDTH = 7.5
# A long name takes a second line under the first, this far below it.
NAME_LINE_HEIGHT = 13
# A line of text takes an em: DejaVu Sans's typographic ascender, this
# much of the size over its baseline, and its descender under it.
TEXT_ASCENT = 0.76
TEXT_DESCENT = 0.24
# The room kept between a name and anything else drawn on the map.
LABEL_GAP = 2
# How far a named dot (6) and its outline reach from its centre.
NAMED_DOT_REACH = 7
# A name's box sits this far from its dot's centre, the gap past the dot (a
# first line's baseline about 18 under the dot, where it always was).
NAME_REACH = NAMED_DOT_REACH + LABEL_GAP
# The "me" in the middle of the map: the closest ring's dots stay clear of it.
CENTRE_RADIUS = 20
# Dot sizes a crowded ring may take, largest first; below the last one a
# filled dot and an outline can no longer be told apart.
PACKED_DOT_RADII = (5, 4, 3.5, 3, 2.5)


# Left, top, right, bottom.
Box = tuple[float, float, float, float]


def _text_box(x: float, baseline: float, width: float, size: float) -> Box:
    """Where a line centred on ``x`` is drawn."""
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
    """The box for a name ``width`` by ``height`` by its dot at ``dx, dy``:
    under it, over it, then beside it (away from the middle first), centred
    on the dot and then to one side of it; the first of those inside the
    picture and clear of the middle and of everything ``taken``. None when
    there is no such place."""
    middle = size / 2
    outward = 1 if dx >= middle else -1
    under, over = dy + NAME_REACH, dy - NAME_REACH - height
    out = dx + NAME_REACH if outward > 0 else dx - NAME_REACH - width
    inside = dx - NAME_REACH - width if outward > 0 else dx + NAME_REACH
    # A box's edge in line with the dot's: the name runs on out, or in, from it.
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
        # Kept inside the picture by its width, as a name by the edge always was.
        left = min(max(left, 2), size - 2 - width)
        box = (left, top, left + width, top + height)
        # How near the box comes to the middle: "me" is a circle.
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


def _packed(count: int, inner: float, outer: float) -> tuple[list[tuple[float, float]], float]:
    """Places (relative to the centre) for ``count`` dots between two circles,
    in as many rows round the band as needed, with the largest dots that fit;
    as many as the smallest dots allow when even those do not."""
    for dot_radius in PACKED_DOT_RADII:
        pitch = 2 * dot_radius + 5  # a dot, its outline and a gap
        rows = []
        row = inner + dot_radius + 3
        while row <= outer - dot_radius - 3:
            rows.append(row)
            row += pitch
        room = [int(2 * math.pi * row // pitch) for row in rows]
        if sum(room) >= count:
            break
    count = min(count, sum(room))
    places: list[tuple[float, float]] = []
    left = count
    for position, (row, fits) in enumerate(zip(rows, room, strict=True)):
        # Shared out in proportion to each row's room, so every row looks as full.
        here = min(fits, math.ceil(left * fits / sum(room[position:])))
        for slot in range(here):
            angle = -math.pi / 2 + 2 * math.pi * (slot + 0.5) / here
            places.append((row * math.cos(angle), row * math.sin(angle)))
        left -= here
    return places, dot_radius


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
