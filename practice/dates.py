"""Dates as people read them: the year named only when it does not go without saying."""

import datetime as dt
import zoneinfo
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.utils import formats, timezone
from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

# The year a date may leave out (``years_named_within``); unset: this year.
_year_left_out: ContextVar[int | None] = ContextVar("year_left_out", default=None)
_NO_YEAR = 0  # no date is in the year 0
_DATE_LETTERS = "dDjlNSwzWMFnmbE"


@contextmanager
def years_named_within(first: dt.date, last: dt.date) -> Iterator[None]:
    """Across New Year every date names its year: "3 Jan" could be either."""
    token = _year_left_out.set(first.year if first.year == last.year else _NO_YEAR)
    try:
        yield
    finally:
        _year_left_out.reset(token)


# Shapes each language orders its own way ("7 de diciembre"), named in its format module
# (practice/formats/<locale>/formats.py) and used by name: |date:"WEEKDAY_DATE_FORMAT".
NAMED_FORMATS = (
    "MONTH_DAY_FORMAT",
    "LONG_DATE_FORMAT",
    "LONG_DATETIME_FORMAT",
    "WEEKDAY_DATE_FORMAT",
    "WEEKDAY_DATETIME_FORMAT",
    "YEAR_ADDED_FORMAT",
    "ABBR_MONTH_DAY_FORMAT",
    "ABBR_DATE_FORMAT",
    "ABBR_WEEKDAY_DATE_FORMAT",
    "ABBR_WEEKDAY_DATETIME_FORMAT",
    "WEEKDAY_LONG_DATE_FORMAT",
    "WEEKDAY_MONTH_DAY_TIME_FORMAT",
    "ABBR_DATETIME_FORMAT",
    "ABBR_MONTH_DAY_TIME_FORMAT",
    "ABBR_WEEKDAY_YEAR_DATETIME_FORMAT",
    "ABBR_WEEKDAY_TIME_FORMAT",
)


def with_year(date_format: str, day: dt.date) -> str:
    """The shape (a name is read in the current language), with the year added where needed."""
    date_format = str(formats.get_format(date_format))
    left_out = _year_left_out.get()
    if left_out is None:
        left_out = timezone.localdate(timezone=timezone.get_default_timezone()).year
    if day.year == left_out or "Y" in date_format or "y" in date_format:
        return date_format
    end = max(date_format.rfind(letter) for letter in _DATE_LETTERS) + 1
    if end == 0:
        return date_format  # a time alone
    added = str(formats.get_format("YEAR_ADDED_FORMAT"))
    if added == "YEAR_ADDED_FORMAT":  # a language we give no shapes for (not offered)
        added = " Y"
    return f"{date_format[:end]}{added}{date_format[end:]}"


def calendar_day(value: dt.date | dt.datetime, date_format: str) -> str:
    if isinstance(value, dt.datetime) and timezone.is_aware(value):
        value = timezone.localtime(value)
    day = value.date() if isinstance(value, dt.datetime) else value
    if isinstance(value, dt.datetime):
        return formats.date_format(value, with_year(date_format, day))
    return formats.date_format(day, with_year(date_format, day))


def as_zone(zone: str | dt.tzinfo) -> dt.tzinfo:
    if isinstance(zone, dt.tzinfo):
        return zone
    try:
        return zoneinfo.ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        # A zone this system no longer knows still leaves the page readable.
        return timezone.get_current_timezone()


def end_of_day(day: dt.date, zone: str | dt.tzinfo) -> dt.datetime:
    return dt.datetime.combine(day, dt.time.max, tzinfo=as_zone(zone))


def wall_time(typed: dt.datetime, zone: str | dt.tzinfo) -> dt.datetime | None:
    """On clock-change nights a repeated time is the first of the two; a skipped one is None."""
    tz = as_zone(zone)
    first = typed.replace(tzinfo=tz, fold=0)
    if first.astimezone(dt.UTC).astimezone(tz).replace(tzinfo=None) != typed:
        return None
    return first


def read_on_clock_change(
    refusal: ValidationError, skipped_message: "str | _StrPromise"
) -> dt.datetime:
    """Django refuses clock-change times in developers' words; a repeated time is read instead."""
    if getattr(refusal, "code", None) != "ambiguous_timezone":
        raise refusal
    typed: dt.datetime = refusal.params["datetime"]  # type: ignore[index]
    read = wall_time(typed, timezone.get_current_timezone())
    if read is None:
        raise ValidationError(
            skipped_message, code="skipped", params={"time": typed.strftime("%H:%M")}
        )
    return read


def clocks_differ(moment: dt.datetime, zone: str | dt.tzinfo) -> bool:
    """By UTC offsets, so zones that keep the same time (London and Lisbon) do not differ."""
    return moment.astimezone(as_zone(zone)).utcoffset() != timezone.localtime(moment).utcoffset()


def in_client_time_zone(
    moment: dt.datetime, zone: str | dt.tzinfo, date_format: str, *, marked: bool = True
) -> str:
    """On the client's own clock: on the practice's, a night-time event could read as morning."""
    shown = formats.date_format(moment.astimezone(as_zone(zone)), date_format)
    if marked and clocks_differ(moment, zone):
        return _("%(time)s (their time)") % {"time": shown}
    return shown


@dataclass
class ClientTimeZone:
    """The client's clock for a page; ``differed`` tells whether it needs its one note."""

    zone: str
    noted: bool = False
    differed: bool = False

    def show(self, moment: dt.datetime, date_format: str) -> str:
        if clocks_differ(moment, self.zone):
            self.differed = True
        their_day = moment.astimezone(as_zone(self.zone)).date()
        return in_client_time_zone(
            moment, self.zone, with_year(date_format, their_day), marked=not self.noted
        )


def where_clocks_differ(
    moment: dt.datetime, zone: str | dt.tzinfo, date_format: str, *, marked: bool = True
) -> str:
    """Empty where the two clocks agree, so a page adds it only where it tells something."""
    if not clocks_differ(moment, zone):
        return ""
    zone_name = zone if isinstance(zone, str) else str(zone)
    return ClientTimeZone(zone=zone_name, noted=not marked).show(moment, date_format)
