"""The cycle on one timeline: written records, urges, contact and boundary
steps on one dated axis.

Hurt, warmth and contact come round in a cycle that is hard to see from
inside it (CLINICAL.md, intermittent reinforcement); lanes one above the
other, on the same days, let it show. Kinds say what they contribute
(``ExerciseKind.timeline_points``); this module only draws. A lane with
nothing in it is left out and a value not given is drawn as "logged, no
number": a blank is never drawn as a zero, nor as "no contact".

Drawn with a fixed number of elements (one path per kind of mark), so a
year costs the page what a week does.
"""

import datetime as dt
import enum
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from homework.kinds.charts.svg import ACCENT, CONTACT, LINE, MUTED, _svg, _text
from practice.dates import calendar_day

# Where a day's marks sit across the plot.
DayX = Callable[[dt.date], float]
# Longer than this, the text alternative counts by week rather than by day.
DAYS_IN_TABLE = 35


class Lane(enum.Enum):
    RECORD = "record"
    URGE = "urge"
    CONTACT = "contact"
    BOUNDARY = "boundary"


LANE_LABELS = {
    Lane.RECORD: gettext_lazy("Written records"),
    Lane.URGE: gettext_lazy("Urges"),
    Lane.CONTACT: gettext_lazy("Contact"),
    Lane.BOUNDARY: gettext_lazy("Boundaries"),
}
# Lanes whose points carry a 0–10 value (distress, pull) drawn as a height.
VALUED = frozenset({Lane.RECORD, Lane.URGE})


@dataclass(frozen=True)
class TimelinePoint:
    """One thing on one of the client's days.

    ``value``: 0–10 where the lane has one, None when the client gave none.
    ``mark``: for contact, who reached out ("me", "them", or "" when not
    said); for a boundary step, "tried" or "held". ``key``: the same thing
    said again (a step carried into the next update) is drawn once, on the
    first day it was said.
    """

    on: dt.date
    lane: Lane
    value: int | None = None
    mark: str = ""
    key: object = None


@dataclass(frozen=True)
class TimelineRow:
    """A line of the text alternative: a day (or a week) and what each lane had."""

    label: str
    cells: list[str]


@dataclass(frozen=True)
class Timeline:
    since: dt.date
    until: dt.date
    lanes: list[Lane]
    headings: list[str]
    rows: list[TimelineRow]
    by_week: bool
    title: str
    description: str
    svg: SafeString
    # The same picture drawn compact for paper (the summary PDF), where its
    # height would push the typical summary onto a third page.
    print_svg: SafeString
    legend: list[str] = field(default_factory=list)
    kinds: int = 0  # how many kinds of exercise contributed
    points: list[TimelinePoint] = field(default_factory=list)


def _first_said(points: Iterable[TimelinePoint]) -> list[TimelinePoint]:
    first: dict[object, TimelinePoint] = {}
    unkeyed = []
    for point in sorted(points, key=lambda p: p.on):
        if point.key is None:
            unkeyed.append(point)
        elif point.key not in first:
            first[point.key] = point
    return sorted([*unkeyed, *first.values()], key=lambda p: p.on)


def _contact_words(mark: str, *, for_client: bool) -> str:
    if mark == "me":
        return _("I reached out") if for_client else _("the client reached out")
    if mark == "them":
        return _("they reached out") if for_client else _("the other person reached out")
    return _("contact (who reached out first not said)")


def _cell(lane: Lane, points: Sequence[TimelinePoint], *, for_client: bool) -> str:
    """What one day (or week) had in one lane, in words; empty when nothing."""
    if not points:
        return ""
    if lane in VALUED:
        values = [p.value for p in points if p.value is not None]
        noun = (
            ngettext("%(n)s record", "%(n)s records", len(points))
            if lane is Lane.RECORD
            else ngettext("%(n)s urge", "%(n)s urges", len(points))
        ) % {"n": len(points)}
        if not values:
            return noun
        if lane is Lane.RECORD:
            return _("%(noun)s, distress up to %(v)s/10") % {"noun": noun, "v": max(values)}
        return _("%(noun)s, pull up to %(v)s/10") % {"noun": noun, "v": max(values)}
    if lane is Lane.CONTACT:
        said = dict.fromkeys(_contact_words(p.mark, for_client=for_client) for p in points)
        return "; ".join(said)
    held = sum(1 for p in points if p.mark == "held")
    tried = len(points) - held
    parts = []
    if held:
        parts.append(ngettext("%(n)s step held", "%(n)s steps held", held) % {"n": held})
    if tried:
        parts.append(ngettext("%(n)s step tried", "%(n)s steps tried", tried) % {"n": tried})
    return ", ".join(parts)


def _legend(by_lane: dict[Lane, list[TimelinePoint]], *, for_client: bool) -> list[str]:
    """The marks the picture has, in words, for beside it (as HTML)."""
    legend = []
    valued = [p for lane in VALUED for p in by_lane.get(lane, [])]
    if any(p.value is not None for p in valued):
        legend.append(_("● the highest that day, from 0 (low in the lane) to 10 (high)"))
    if any(p.value is None for p in valued):
        legend.append(_("| logged, with no number given"))
    marks = {p.mark for p in by_lane.get(Lane.CONTACT, [])}
    if "me" in marks:
        legend.append("● " + _contact_words("me", for_client=for_client))
    if "them" in marks:
        legend.append("△ " + _contact_words("them", for_client=for_client))
    if marks - {"me", "them"}:
        legend.append("□ " + _contact_words("", for_client=for_client))
    steps = {p.mark for p in by_lane.get(Lane.BOUNDARY, [])}
    if "held" in steps:
        legend.append(_("◆ a step held"))
    if steps - {"held"}:
        legend.append(_("◇ a step tried"))
    return legend


def _description(lanes: dict[Lane, list[TimelinePoint]]) -> str:
    """The picture in one sentence of counts: only what is there."""
    parts = []
    if records := lanes.get(Lane.RECORD):
        n = len(records)
        parts.append(ngettext("%(n)s written record", "%(n)s written records", n) % {"n": n})
    if urges := lanes.get(Lane.URGE):
        n = len(urges)
        parts.append(ngettext("%(n)s urge logged", "%(n)s urges logged", n) % {"n": n})
    if contacts := lanes.get(Lane.CONTACT):
        n = len({p.on for p in contacts})
        parts.append(ngettext("contact on %(n)s day", "contact on %(n)s days", n) % {"n": n})
    if steps := lanes.get(Lane.BOUNDARY):
        n = len(steps)
        parts.append(
            ngettext("%(n)s boundary step tried or held", "%(n)s boundary steps tried or held", n)
            % {"n": n}
        )
    return ", ".join(parts) + "."


def timeline(
    points: Iterable[TimelinePoint],
    *,
    since: dt.date,
    until: dt.date,
    for_client: bool,
    kinds: int = 0,
) -> Timeline | None:
    """The timeline of ``points`` from ``since`` to ``until`` (both included),
    or None when nothing falls in it: never an empty frame."""
    until = max(until, since)
    shown = [p for p in _first_said(points) if since <= p.on <= until]
    if not shown:
        return None
    by_lane: dict[Lane, list[TimelinePoint]] = defaultdict(list)
    for point in shown:
        by_lane[point.lane].append(point)
    lanes = [lane for lane in Lane if by_lane.get(lane)]
    span = (until - since).days + 1
    by_week = span > DAYS_IN_TABLE

    def bucket(day: dt.date) -> dt.date:
        return day - dt.timedelta(days=day.weekday()) if by_week else day

    grouped: dict[dt.date, dict[Lane, list[TimelinePoint]]] = defaultdict(lambda: defaultdict(list))
    for point in shown:
        grouped[bucket(point.on)][point.lane].append(point)
    rows = [
        TimelineRow(
            label=(
                _("Week of %(date)s") % {"date": calendar_day(max(start, since), "j M")}
                if by_week
                else calendar_day(start, "D j M")
            ),
            cells=[_cell(lane, grouped[start][lane], for_client=for_client) for lane in lanes],
        )
        for start in sorted(grouped)
    ]
    title = _("What happened, day by day, %(since)s to %(until)s") % {
        "since": calendar_day(since, "j M"),
        "until": calendar_day(until, "j M"),
    }
    description = _description(by_lane)
    return Timeline(
        since=since,
        until=until,
        lanes=lanes,
        headings=[str(LANE_LABELS[lane]) for lane in lanes],
        rows=rows,
        by_week=by_week,
        title=title,
        description=description,
        svg=_draw(by_lane, lanes, since=since, span=span, title=title, description=description),
        print_svg=_draw(
            by_lane,
            lanes,
            since=since,
            span=span,
            title=title,
            description=description,
            scale=PRINT,
        ),
        legend=_legend(by_lane, for_client=for_client),
        kinds=kinds,
        points=shown,
    )


@dataclass(frozen=True)
class Scale:
    """The picture's measures: lane heights, margins, label size, and how big
    the marks are (1 on screen)."""

    valued_h: int  # a lane with values (a 0–10 scale inside it)
    mark_h: int  # a lane of marks
    width: int
    left: int
    top: int
    axis: int
    font: int
    marks: float
    middle_date: bool  # the axis names its middle day as well as its ends


SCREEN = Scale(
    valued_h=46, mark_h=24, width=560, left=112, top=6, axis=26, font=11, marks=1, middle_date=True
)
# For paper: the page's full width and about half the height (four lanes in
# about 70pt); labels at the size of the page's footer, still legible.
PRINT = Scale(
    valued_h=24, mark_h=15, width=672, left=92, top=2, axis=13, font=10, marks=0.7,
    middle_date=False,
)  # fmt: skip
RIGHT = 12


def _draw(
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
        # Each day is a slot; its mark sits in the slot's middle.
        return left + plot_w * ((day - since).days + 0.5) / span

    body = []
    top = scale.top
    frames = []
    for lane, lane_h in zip(lanes, heights, strict=True):
        frames.append(f"M{left} {top}h{plot_w}v{lane_h}h{-plot_w}z")
        body.append(
            _text(
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
    # The axis says dates: the first and last day, and on screen the middle one.
    axis_y = top + scale.axis * 0.65
    last = since + dt.timedelta(days=span - 1)
    if span == 1:
        body.append(
            _text(
                x(since), axis_y, calendar_day(since, "j M"), size=size, fill=MUTED, anchor="middle"
            )
        )
    else:
        body.append(_text(left, axis_y, calendar_day(since, "j M"), size=size, fill=MUTED))
        if span >= 5 and scale.middle_date:
            middle = since + dt.timedelta(days=(span - 1) // 2)
            body.append(
                _text(
                    x(middle),
                    axis_y,
                    calendar_day(middle, "j M"),
                    size=size,
                    fill=MUTED,
                    anchor="middle",
                )
            )
        body.append(
            _text(
                left + plot_w,
                axis_y,
                calendar_day(last, "j M"),
                size=size,
                fill=MUTED,
                anchor="end",
            )
        )
    return _svg(scale.width, height, title, description, body)


def _valued(
    points: Sequence[TimelinePoint], x: DayX, *, top: float, lane_h: float, scale: float = 1
) -> list[str]:
    """The highest value of each day as a dot at its height, and a day with
    entries but no value given as a thin tick the lane's height: logged, no
    number (never a dot at 0)."""
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
    """A dot where the client reached out, a hollow triangle where the other
    person did, a hollow square where who reached out was not said."""
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
    """A filled diamond where a step held, a hollow one where it was tried."""
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
