"""The cycle on one timeline: written records, urges, contact and boundary steps on one dated axis
(CLINICAL.md, intermittent reinforcement). A value not given is never drawn as a zero, nor as "no
contact"."""

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from homework.kinds.charts.timeline_drawing import PRINT, draw_timeline
from homework.kinds.charts.timeline_points import LANE_LABELS, VALUED, Lane, TimelinePoint
from practice.dates import calendar_day

DAYS_IN_TABLE = 35


@dataclass(frozen=True)
class TimelineRow:
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
    # Compact for paper, where its height would push a summary onto a third page.
    print_svg: SafeString
    legend: list[str] = field(default_factory=list)
    kinds: int = 0
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
    """Only what is there."""
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
    """None when nothing falls in it: never an empty frame."""
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
                _("Week of %(date)s")
                % {"date": calendar_day(max(start, since), "ABBR_MONTH_DAY_FORMAT")}
                if by_week
                else calendar_day(start, "ABBR_WEEKDAY_DATE_FORMAT")
            ),
            cells=[_cell(lane, grouped[start][lane], for_client=for_client) for lane in lanes],
        )
        for start in sorted(grouped)
    ]
    title = _("What happened, day by day, %(since)s to %(until)s") % {
        "since": calendar_day(since, "ABBR_MONTH_DAY_FORMAT"),
        "until": calendar_day(until, "ABBR_MONTH_DAY_FORMAT"),
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
        svg=draw_timeline(
            by_lane, lanes, since=since, span=span, title=title, description=description
        ),
        print_svg=draw_timeline(
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
