"""Safe hours: when in their week a client said a message may reach them, as seven lists of "HH:MM"
windows, Monday first, on the client's clock. An empty week is no safe time at all."""

import datetime as dt
import zoneinfo
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

DAYS_IN_WEEK = 7
END_OF_DAY = 24 * 60
ANY_TIME: list[list[str]] = [["00:00", "24:00"]]
# Minutes since midnight, start and end of each window, for each weekday.
Week = list[list[tuple[int, int]]]

NO_TIME_AT_ALL = _(
    "These hours leave no time at all in the week. Choose at least one day with some time, "
    "or turn every kind of message off."
)


def no_hours_chosen() -> list[list[list[str]]]:
    """The default: no hours chosen, so no safe time until the client says."""
    return []


def hours_chosen(value: Any) -> bool:
    return bool(value != [])


def any_time_every_day() -> list[list[list[str]]]:
    """Every hour of every day (migration 0011 names it as the old default)."""
    return [[list(window) for window in ANY_TIME] for _day in range(DAYS_IN_WEEK)]


def minutes(text: str) -> int:
    """ "HH:MM" as minutes since midnight; "24:00" is the end of the day."""
    hours, _sep, mins = text.partition(":")
    if not (len(hours) == 2 and len(mins) == 2 and hours.isdigit() and mins.isdigit()):
        raise ValueError(text)
    value = int(hours) * 60 + int(mins)
    if int(mins) >= 60 or value > END_OF_DAY:
        raise ValueError(text)
    return value


def as_text(value: int) -> str:
    return f"{value // 60:02d}:{value % 60:02d}"


def time_of(value: int) -> dt.time | None:
    """The window edge as a time of day; None for the end of the day."""
    return None if value >= END_OF_DAY else dt.time(value // 60, value % 60)


def read_week(value: Any) -> Week:
    """The stored JSON as minutes, or ValueError if it is not the shape above."""
    if not isinstance(value, list) or len(value) != DAYS_IN_WEEK:
        raise ValueError("seven days")
    week: Week = []
    for day in value:
        if not isinstance(day, list):
            raise ValueError("a day is a list of windows")
        windows = []
        for window in day:
            if not (isinstance(window, list | tuple) and len(window) == 2):
                raise ValueError("a window is [start, end]")
            start, end = minutes(str(window[0])), minutes(str(window[1]))
            if start >= end:
                raise ValueError("a window ends after it starts")
            windows.append((start, end))
        week.append(sorted(windows))
    return week


def write_week(week: Sequence[Sequence[tuple[int, int]]]) -> list[list[list[str]]]:
    return [[[as_text(start), as_text(end)] for start, end in day] for day in week]


def validate_safe_hours(value: Any) -> None:
    """The model's check: not chosen yet, or the shape above with some safe time in the week."""
    if not hours_chosen(value):
        return
    try:
        week = read_week(value)
    except ValueError:
        raise ValidationError(
            _("Safe hours could not be read. Choose them again."), code="invalid"
        ) from None
    if not any(week):
        raise ValidationError(NO_TIME_AT_ALL, code="no_time")


def is_any_time(value: Any) -> bool:
    return hours_chosen(value) and bool(read_week(value) == [[(0, END_OF_DAY)]] * DAYS_IN_WEEK)


def is_safe_at(value: Any, *, zone: str, moment: dt.datetime) -> bool:
    """Whether ``moment`` falls in a safe window on the client's clock; never while no hours are
    chosen."""
    if not hours_chosen(value):
        return False
    local = moment.astimezone(zoneinfo.ZoneInfo(zone))
    now = local.hour * 60 + local.minute
    return any(start <= now < end for start, end in read_week(value)[local.weekday()])


def next_safe_moment(value: Any, *, zone: str, after: dt.datetime) -> dt.datetime | None:
    """The first moment at or after ``after`` inside a safe window (a reminder held for safe hours
    goes then); None when the week has no safe time."""
    if not hours_chosen(value):
        return None
    if is_safe_at(value, zone=zone, moment=after):
        return after
    tz = zoneinfo.ZoneInfo(zone)
    week = read_week(value)
    local = after.astimezone(tz)
    for offset in range(DAYS_IN_WEEK + 1):
        day = local.date() + dt.timedelta(days=offset)
        for start, _end in week[day.weekday()]:
            begins = dt.datetime.combine(day, dt.time(start // 60, start % 60), tzinfo=tz)
            begins = begins.astimezone(dt.UTC).astimezone(tz)
            if begins > after:
                return begins
    return None


def days_outside(value: Any, *, at: dt.time) -> list[int]:
    """Weekdays (0 is Monday) with safe time but not at ``at``: a reminder then waits."""
    if not hours_chosen(value):
        return []
    moment = at.hour * 60 + at.minute
    return [
        number
        for number, windows in enumerate(read_week(value))
        if windows and not any(start <= moment < end for start, end in windows)
    ]
