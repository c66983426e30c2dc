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


SCREEN = Scale(
    valued_h=46, mark_h=24, width=560, left=112, top=6, axis=26, font=11, marks=1, middle_date=True
)
# For paper: the page's full width, about half the height, labels still legible.
PRINT = Scale(
    valued_h=24, mark_h=15, width=672, left=92, top=2, axis=13, font=10, marks=0.7,
    middle_date=False,
)  # fmt: skip
RIGHT = 12


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
    heights = [scale.valued_h if lane in VALUED else scale.mark_h for lane in lanes]
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
        points = by_lane[lane]
        if lane in VALUED:
            body.extend(_valued(points, x, top=top, lane_h=lane_h, scale=scale.marks))
        elif lane is Lane.CONTACT:
            body.extend(_contacts(points, x, middle=top + lane_h / 2, scale=scale.marks))
        else:
            body.extend(_steps(points, x, middle=top + lane_h / 2, scale=scale.marks))
        top += lane_h
    body.insert(0, f'<path d="{"".join(frames)}" fill="#fff" stroke="{LINE}"/>')
    axis_y = top + scale.axis * 0.65
    last = since + dt.timedelta(days=span - 1)
    if span == 1:
        body.append(
            svg_text(
                x(since), axis_y, calendar_day(since, "j M"), size=size, fill=MUTED, anchor="middle"
            )
        )
    else:
        body.append(svg_text(left, axis_y, calendar_day(since, "j M"), size=size, fill=MUTED))
        if span >= 5 and scale.middle_date:
            middle = since + dt.timedelta(days=(span - 1) // 2)
            body.append(
                svg_text(
                    x(middle),
                    axis_y,
                    calendar_day(middle, "j M"),
                    size=size,
                    fill=MUTED,
                    anchor="middle",
                )
            )
        body.append(
            svg_text(
                left + plot_w,
                axis_y,
                calendar_day(last, "j M"),
                size=size,
                fill=MUTED,
                anchor="end",
            )
        )
    return svg_document(scale.width, height, title, description, body)


def _valued(
    points: Sequence[TimelinePoint], x: DayX, *, top: float, lane_h: float, scale: float = 1
) -> list[str]:
    """A day logged with no value is a thin tick, never a dot at 0."""
    highest: dict[dt.date, int] = {}
    unnumbered: set[dt.date] = set()
    for point in points:
        if point.value is None:
            unnumbered.add(point.on)
        else:
            highest[point.on] = max(point.value, highest.get(point.on, 0))
    pad = 5 * scale
    inner = lane_h - 2 * pad
    dots = "".join(
        f"M{x(day):.1f} {top + pad + inner * (1 - value / 10):.1f}h0"
        for day, value in sorted(highest.items())
    )
    ticks = "".join(
        f"M{x(day):.1f} {top + pad - 1:g}v{lane_h - 2 * pad + 2:g}"
        for day in sorted(unnumbered - set(highest))
    )
    shapes = []
    if dots:
        shapes.append(
            f'<path d="{dots}" stroke="{ACCENT}" stroke-width="{6 * scale:g}" stroke-linecap="round" fill="none"/>'
        )
    if ticks:
        shapes.append(f'<path d="{ticks}" stroke="{MUTED}" stroke-width="1.5" fill="none"/>')
    return shapes


def _contacts(
    points: Sequence[TimelinePoint], x: DayX, *, middle: float, scale: float = 1
) -> list[str]:
    me = {p.on for p in points if p.mark == "me"}
    them = {p.on for p in points if p.mark == "them"}
    unsaid = {p.on for p in points if p.mark not in ("me", "them")}
    shapes = []
    if me:
        d = "".join(f"M{x(day):.1f} {middle:.1f}h0" for day in sorted(me))
        shapes.append(
            f'<path d="{d}" stroke="{CONTACT}" stroke-width="{9 * scale:g}" stroke-linecap="round" fill="none"/>'
        )
    if them:
        r = 5 * scale
        d = "".join(
            f"M{x(day) - r:.1f} {middle + r:.1f}h{2 * r:g}l{-r:g} {-2 * r:g}z"
            for day in sorted(them)
        )
        shapes.append(f'<path d="{d}" fill="#fff" stroke="{CONTACT}" stroke-width="2"/>')
    if unsaid:
        r = 4 * scale
        d = "".join(
            f"M{x(day) - r:.1f} {middle - r:.1f}h{2 * r:g}v{2 * r:g}h{-2 * r:g}z"
            for day in sorted(unsaid)
        )
        shapes.append(f'<path d="{d}" fill="#fff" stroke="{CONTACT}" stroke-width="1.5"/>')
    return shapes


def _steps(
    points: Sequence[TimelinePoint], x: DayX, *, middle: float, scale: float = 1
) -> list[str]:
    held = {p.on for p in points if p.mark == "held"}
    tried = {p.on for p in points if p.mark != "held"} - held
    r = 6 * scale
    shapes = []
    for days, fill in ((held, ACCENT), (tried, "#fff")):
        if days:
            d = "".join(
                f"M{x(day):.1f} {middle - r:.1f}l{r:g} {r:g}l{-r:g} {r:g}l{-r:g} {-r:g}z"
                for day in sorted(days)
            )
            shapes.append(f'<path d="{d}" fill="{fill}" stroke="{ACCENT}" stroke-width="1.5"/>')
    return shapes
