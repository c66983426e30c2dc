"""Drawing the timeline as one SVG, one path per kind of mark, so a year costs what a week does."""

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.safestring import SafeString

from homework.kinds.charts.svg import ACCENT, CONTACT, LINE, MUTED, svg_document, svg_text
from homework.kinds.charts.timeline_points import LANE_LABELS, VALUED, Lane, TimelinePoint
from practice.dates import calendar_day

DayX = Callable[[dt.date], float]


@dataclass(frozen=True)
class Scale:
    valued_h: int
    mark_h: int
    width: int
    left: int
    top: int
    axis: int
    font: int
    marks: float
    middle_date: bool


# A valued lane is tall enough to tell a 4 from a 6 against its 0, 5 and 10.
SCREEN = Scale(
    valued_h=64, mark_h=24, width=560, left=112, top=6, axis=26, font=11, marks=1, middle_date=True
)
# For paper: the page's full width, lanes lower than on screen, labels still legible.
PRINT = Scale(
    valued_h=38, mark_h=15, width=672, left=92, top=2, axis=13, font=10, marks=0.7,
    middle_date=False,
)  # fmt: skip
RIGHT = 22  # room for a valued lane's 0 and 10
# Marks on one day stand one above another, this many at most; the table and the words count all.
MOST_STACKED = 4
MARK_GAP = 13  # between stacked marks' middles, at full size


def draw_timeline(
    by_lane: dict[Lane, list[TimelinePoint]],
    lanes: list[Lane],
    *,
    since: dt.date,
    span: int,
    title: str,
    description: str,
    scale: Scale = SCREEN,
) -> SafeString:
    left, size = scale.left, scale.font
    plot_w = scale.width - left - RIGHT
    gap = MARK_GAP * scale.marks
    stacks = {lane: _stacked(lane, by_lane[lane]) for lane in lanes if lane not in VALUED}
    heights = [
        scale.valued_h
        if lane in VALUED
        else round(scale.mark_h + gap * (max(map(len, stacks[lane].values()), default=1) - 1))
        for lane in lanes
    ]
    height = scale.top + sum(heights) + scale.axis

    def x(day: dt.date) -> float:
        return left + plot_w * ((day - since).days + 0.5) / span

    body = []
    top = scale.top
    frames = []
    for lane, lane_h in zip(lanes, heights, strict=True):
        frames.append(f"M{left} {top}h{plot_w}v{lane_h}h{-plot_w}z")
        body.append(
            svg_text(
                left - 6,
                top + lane_h / 2 + size * 0.36,
                str(LANE_LABELS[lane]),
                size=size,
                anchor="end",
            )
        )
        if lane in VALUED:
            body.extend(_valued(by_lane[lane], x, top=top, lane_h=lane_h, scale=scale))
        else:
            placed = _places(stacks[lane], x, middle=top + lane_h / 2, gap=gap)
            draw = _contacts if lane is Lane.CONTACT else _steps
            body.extend(draw(placed, scale=scale.marks))
        top += lane_h
    body.insert(0, f'<path d="{"".join(frames)}" fill="#fff" stroke="{LINE}"/>')
    axis_y = top + scale.axis * 0.65
    last = since + dt.timedelta(days=span - 1)
    if span == 1:
        body.append(
            svg_text(
                x(since),
                axis_y,
                calendar_day(since, "ABBR_MONTH_DAY_FORMAT"),
                size=size,
                fill=MUTED,
                anchor="middle",
            )
        )
    else:
        body.append(
            svg_text(
                left, axis_y, calendar_day(since, "ABBR_MONTH_DAY_FORMAT"), size=size, fill=MUTED
            )
        )
        if span >= 5 and scale.middle_date:
            middle = since + dt.timedelta(days=(span - 1) // 2)
            body.append(
                svg_text(
                    x(middle),
                    axis_y,
                    calendar_day(middle, "ABBR_MONTH_DAY_FORMAT"),
                    size=size,
                    fill=MUTED,
                    anchor="middle",
                )
            )
        body.append(
            svg_text(
                left + plot_w,
                axis_y,
                calendar_day(last, "ABBR_MONTH_DAY_FORMAT"),
                size=size,
                fill=MUTED,
                anchor="end",
            )
        )
    return svg_document(scale.width, height, title, description, body)


def _stacked(lane: Lane, points: Sequence[TimelinePoint]) -> dict[dt.date, list[str]]:
    """Each day's marks, held steps first: every step is a mark of its own, contact one mark for
    each way it happened."""
    days: dict[dt.date, list[str]] = {}
    for point in points:
        marks = days.setdefault(point.on, [])
        if lane is Lane.BOUNDARY:
            marks.append("held" if point.mark == "held" else "tried")
        else:
            mark = point.mark if point.mark in ("me", "them") else ""
            if mark not in marks:
                marks.append(mark)
    order = {"held": 0, "tried": 1, "me": 0, "them": 1, "": 2}
    return {day: sorted(marks, key=order.__getitem__)[:MOST_STACKED] for day, marks in days.items()}


Placed = list[tuple[float, float, str]]


def _places(stacks: dict[dt.date, list[str]], x: DayX, *, middle: float, gap: float) -> Placed:
    return [
        (x(day), middle + gap * (index - (len(marks) - 1) / 2), mark)
        for day, marks in sorted(stacks.items())
        for index, mark in enumerate(marks)
    ]


def _valued(
    points: Sequence[TimelinePoint], x: DayX, *, top: float, lane_h: float, scale: Scale
) -> list[str]:
    """A day logged with no value is a thin tick, never a dot at 0."""
    highest: dict[dt.date, int] = {}
    unnumbered: set[dt.date] = set()
    for point in points:
        if point.value is None:
            unnumbered.add(point.on)
        else:
            highest[point.on] = max(point.value, highest.get(point.on, 0))
    pad = 5 * scale.marks
    inner = lane_h - 2 * pad
    right = scale.width - RIGHT
    shapes = [
        # The lane's own scale: faint lines at 0, 5 and 10, and the 0 and the 10 named at its end.
        f'<path d="{"".join(f"M{scale.left} {top + pad + inner * f:.1f}H{right}" for f in (0, 0.5, 1))}" '
        f'stroke="{LINE}" stroke-dasharray="2 3" fill="none"/>',
        svg_text(right + 3, top + pad + scale.font * 0.36, "10", size=scale.font - 2, fill=MUTED),
        svg_text(
            right + 3, top + pad + inner + scale.font * 0.36, "0", size=scale.font - 2, fill=MUTED
        ),
    ]
    dots = "".join(
        f"M{x(day):.1f} {top + pad + inner * (1 - value / 10):.1f}h0"
        for day, value in sorted(highest.items())
    )
    ticks = "".join(
        f"M{x(day):.1f} {top + pad - 1:g}v{lane_h - 2 * pad + 2:g}"
        for day in sorted(unnumbered - set(highest))
    )
    if dots:
        shapes.append(
            f'<path d="{dots}" stroke="{ACCENT}" stroke-width="{6 * scale.marks:g}" stroke-linecap="round" fill="none"/>'
        )
    if ticks:
        shapes.append(f'<path d="{ticks}" stroke="{MUTED}" stroke-width="1.5" fill="none"/>')
    return shapes


def _contacts(placed: Placed, *, scale: float = 1) -> list[str]:
    shapes = []
    me = "".join(f"M{px:.1f} {py:.1f}h0" for px, py, mark in placed if mark == "me")
    if me:
        shapes.append(
            f'<path d="{me}" stroke="{CONTACT}" stroke-width="{9 * scale:g}" stroke-linecap="round" fill="none"/>'
        )
    r = 5 * scale
    them = "".join(
        f"M{px - r:.1f} {py + r:.1f}h{2 * r:g}l{-r:g} {-2 * r:g}z"
        for px, py, mark in placed
        if mark == "them"
    )
    if them:
        shapes.append(f'<path d="{them}" fill="#fff" stroke="{CONTACT}" stroke-width="2"/>')
    r = 4 * scale
    unsaid = "".join(
        f"M{px - r:.1f} {py - r:.1f}h{2 * r:g}v{2 * r:g}h{-2 * r:g}z"
        for px, py, mark in placed
        if mark == ""
    )
    if unsaid:
        shapes.append(f'<path d="{unsaid}" fill="#fff" stroke="{CONTACT}" stroke-width="1.5"/>')
    return shapes


def _steps(placed: Placed, *, scale: float = 1) -> list[str]:
    r = 6 * scale
    shapes = []
    for status, fill in (("held", ACCENT), ("tried", "#fff")):
        d = "".join(
            f"M{px:.1f} {py - r:.1f}l{r:g} {r:g}l{-r:g} {r:g}l{-r:g} {-r:g}z"
            for px, py, mark in placed
            if mark == status
        )
        if d:
            shapes.append(f'<path d="{d}" fill="{fill}" stroke="{ACCENT}" stroke-width="1.5"/>')
    return shapes
