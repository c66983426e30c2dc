"""Values over time: the urge curve, day by day, and a few values in order."""

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from homework.kinds.charts.svg import (
    ACCENT,
    CONTACT,
    LINE,
    MUTED,
    SOFT,
    rules,
    svg_document,
    svg_dots,
    svg_text,
)
from practice.dates import calendar_day

VALUE_LABEL_WIDTH = 26


@dataclass(frozen=True)
class DayValue:
    day: int
    value: float


@dataclass(frozen=True)
class ContactMark:
    day: int
    by_me: bool  # True: I reached out; False: they did (or it is unknown)


def urge_curve(
    *,
    points: Sequence[DayValue],
    contacts: Sequence[ContactMark],
    days: int,
    start: dt.date,
    title: str,
    description: str,
    legend: bool = True,
) -> SafeString:
    """Days with nothing logged leave a gap: no entry is not "no urge". The scale and the dates are
    always drawn; ``legend=False`` leaves the contact key to words beside the picture."""
    # Without the legend, also lower: printed beside its words, it keeps to their height.
    width, height, bottom = (360, 220, 58) if legend else (360, 176, 42)
    left, right, top = 28, 10, 8
    plot_w, plot_h = width - left - right, height - top - bottom
    days = max(days, 1)

    def x(day: float) -> float:
        return left + (plot_w * day / (days - 1) if days > 1 else plot_w / 2)

    def y(value: float) -> float:
        return top + plot_h * (1 - value / 10)

    body = [
        f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="#fff" stroke="{LINE}"/>'
    ]
    body.append(rules(left, left + plot_w, (y(level) for level in (0, 5, 10))))
    for level in (0, 5, 10):
        body.append(svg_text(left - 6, y(level) + 4, str(level), size=11, fill=MUTED, anchor="end"))
    for mark in contacts:
        cx = x(mark.day)
        body.append(
            f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{top}" y2="{top + plot_h}" stroke="{CONTACT}" stroke-dasharray="4 3"/>'
        )
        body.append(_contact_marker(cx, top + plot_h + 12, mark.by_me))
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
    body.append(svg_dots(((x(point.day), y(point.value)) for point in ordered), radius))
    body.extend(
        _date_axis(start, days, x, axis_y=top + plot_h + 30, left=left, right=left + plot_w)
    )
    if not legend:
        return svg_document(width, height, title, description, body)
    legend_x, legend_y = left, height - 6
    for by_me, label in ((True, _("I reached out")), (False, _("They reached out"))):
        if any(mark.by_me == by_me for mark in contacts):
            body.append(_contact_marker(legend_x + 6, legend_y - 4, by_me=by_me))
            body.append(svg_text(legend_x + 16, legend_y, label, size=11, fill=MUTED))
            legend_x += 130
    return svg_document(width, height, title, description, body)


def _date_axis(
    start: dt.date,
    days: int,
    x: Callable[[float], float],
    *,
    axis_y: float,
    left: float,
    right: float,
) -> list[str]:
    """The first and last days, and the middle one once there is room between them, each with a
    tick at its place on the axis."""
    if days == 1:
        return [
            svg_text(
                x(0),
                axis_y,
                calendar_day(start, "ABBR_MONTH_DAY_FORMAT"),
                size=11,
                fill=MUTED,
                anchor="middle",
            )
        ]
    named = [(0, "start"), *([((days - 1) // 2, "middle")] if days >= 5 else []), (days - 1, "end")]
    ticks = "".join(f"M{x(day):.1f} {axis_y - 30:.1f}v4" for day, _anchor in named)
    drawn = [f'<path d="{ticks}" stroke="{MUTED}" fill="none"/>']
    for day, anchor in named:
        at = {"start": left, "end": right}.get(anchor, x(day))
        label = calendar_day(start + dt.timedelta(days=day), "ABBR_MONTH_DAY_FORMAT")
        drawn.append(svg_text(at, axis_y, label, size=11, fill=MUTED, anchor=anchor))
    return drawn


def _contact_marker(cx: float, cy: float, by_me: bool) -> str:
    if by_me:
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="5" fill="{CONTACT}"/>'
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
    bands: Sequence[tuple[float, float, str]] = (),
) -> SafeString:
    """``labelled=False`` leaves out the numbers and dates too. ``bands`` (from, to, label) shade
    a measure's published ranges behind the line, each named where it has room."""
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
    body.extend(_bands(bands, left=left, width=plot_w, y=y, y_max=y_max))
    body.append(rules(left, left + plot_w, (y(level) for level in (0, y_max / 2, y_max))))
    if labelled:
        for level in (0, y_max / 2, y_max):
            body.append(
                svg_text(left - 6, y(level) + 4, f"{level:g}", size=11, fill=MUTED, anchor="end")
            )
    if count > 1:
        coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, (_label, v) in enumerate(points))
        body.append(
            f'<polyline points="{coords}" fill="none" stroke="{ACCENT}" stroke-width="2.5"/>'
        )
    body.append(svg_dots(((x(index), y(value)) for index, (_label, value) in enumerate(points)), 4))
    if not labelled:
        return svg_document(width, height, title, description, body)
    # Past this many, numbers over each dot would stack into one bar, so they go in words beside the
    # picture.
    numbered = count <= 1 or plot_w / (count - 1) >= VALUE_LABEL_WIDTH
    for index, (label, value) in enumerate(points):
        if numbered:
            body.append(svg_text(x(index), y(value) - 9, f"{value:g}", size=11, anchor="middle"))
        if count <= 4 or index in (0, count - 1):
            anchor = (
                "start"
                if index == 0 and count > 1
                else ("end" if index == count - 1 and count > 1 else "middle")
            )
            body.append(svg_text(x(index), height - 12, label, size=11, fill=MUTED, anchor=anchor))
    return svg_document(width, height, title, description, body)


BAND_LABEL_ROOM = 12


def _bands(
    bands: Sequence[tuple[float, float, str]],
    *,
    left: float,
    width: float,
    y: Callable[[float], float],
    y_max: float,
) -> list[str]:
    """Whole-number ranges: a band from 5 to 9 holds every total from 5 up to the next band's 10."""
    drawn = []
    for index, (low, high, label) in enumerate(bands):
        top, bottom = y(min(high + 1, y_max)), y(low)
        fill = SOFT if index % 2 == 0 else "#fff"
        drawn.append(
            f'<rect x="{left}" y="{top:.1f}" width="{width}" height="{bottom - top:.1f}" '
            f'fill="{fill}"/>'
        )
        if bottom - top >= BAND_LABEL_ROOM:
            drawn.append(
                svg_text(left + width - 4, bottom - 3, label, size=9, fill=MUTED, anchor="end")
            )
    return drawn
