"""Dates as people read them: without the year when it goes without saying.

"Wednesday 31 December" is ambiguous once it is not this year's, so the
year is named whenever it differs from the practice's current year (the
practice's calendar, ``settings.TIME_ZONE``, as every date shown to staff).
A document about a stretch of time (the session summary) says instead
which year goes without saying there (``years_named_within``): its own, or
none when it runs over New Year, where "3 Jan" could be either.

Times in the client's life (when a difficult moment happened, when an urge
came) are the exception: they are shown on the client's own clock
(``in_client_time_zone``), marked when that clock is not the reader's.
"""

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

# The year a date may leave out, where one is set (``years_named_within``):
# a year, or _NO_YEAR when every date names its own. Unset: this year.
_year_left_out: ContextVar[int | None] = ContextVar("year_left_out", default=None)
_NO_YEAR = 0  # no date is in the year 0
# The letters of a Django date format that print part of the date (not the time).
_DATE_LETTERS = "dDjlNSwzWMFnmbE"


@contextmanager
def years_named_within(first: dt.date, last: dt.date) -> Iterator[None]:
    """Within this block, dates are read as part of a document about the days
    ``first`` to ``last``: the year goes without saying only when all of them
    are in one year, and then only for dates in that year. Across New Year,
    every date names its year."""
    token = _year_left_out.set(first.year if first.year == last.year else _NO_YEAR)
    try:
        yield
    finally:
        _year_left_out.reset(token)


def with_year(date_format: str, day: dt.date) -> str:
    """``date_format`` (such as "j M" or "D j M, H:i"), with the year after
    its date part ("D j M Y, H:i") unless ``day``'s year goes without saying
    here, or the format names the year already."""
    left_out = _year_left_out.get()
    if left_out is None:
        left_out = timezone.localdate(timezone=timezone.get_default_timezone()).year
    if day.year == left_out or "Y" in date_format or "y" in date_format:
        return date_format
    end = max(date_format.rfind(letter) for letter in _DATE_LETTERS) + 1
    if end == 0:
        return date_format  # a time alone
    return f"{date_format[:end]} Y{date_format[end:]}"


def calendar_day(value: dt.date | dt.datetime, date_format: str) -> str:
    """``value`` in ``date_format`` (a format with no year in it, such as
    "j M"), with the year after it when that is not this year (or, within
    ``years_named_within``, not the year that goes without saying there).

    An aware moment is read on the current time zone's calendar, as
    Django's ``date`` filter reads it.
    """
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
        # Client.timezone is validated; a name this system no longer knows
        # still leaves the page readable, on the reader's clock.
        return timezone.get_current_timezone()


def end_of_day(day: dt.date, zone: str | dt.tzinfo) -> dt.datetime:
    """The last moment of ``day`` on ``zone``'s calendar: what "until
    11 March" means to the person who reads it there."""
    return dt.datetime.combine(day, dt.time.max, tzinfo=as_zone(zone))


def wall_time(typed: dt.datetime, zone: str | dt.tzinfo) -> dt.datetime | None:
    """A naive time as a clock in ``zone`` showed it, made aware: on the
    nights the clocks change, a time the clock showed twice (01:30 as they go
    back) is the first of the two, which reads back as typed; a time the
    clocks skipped (01:30 as they go forward) never happened, and gives None
    for the caller to say so."""
    tz = as_zone(zone)
    first = typed.replace(tzinfo=tz, fold=0)
    if first.astimezone(dt.UTC).astimezone(tz).replace(tzinfo=None) != typed:
        return None
    return first


def read_on_clock_change(
    refusal: ValidationError, skipped_message: "str | _StrPromise"
) -> dt.datetime:
    """A form field's refusal of a typed time, read again where it is Django's
    refusal of a clock-change night: Django turns away both the repeated and
    the skipped time alike, in words meant for developers, which would keep
    a real moment (even the form's own "now", in that hour) from being
    written down. The repeated time is read by ``wall_time``; the skipped one
    is refused with ``skipped_message`` (given the time as ``%(time)s``); any
    other refusal stands."""
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
    """Whether ``zone``'s clock and the reader's (the current time zone) show
    different times at ``moment``: by their UTC offsets then, so two zones
    that keep the same time (London and Lisbon) do not differ."""
    return moment.astimezone(as_zone(zone)).utcoffset() != timezone.localtime(moment).utcoffset()


def in_client_time_zone(
    moment: dt.datetime, zone: str | dt.tzinfo, date_format: str, *, marked: bool = True
) -> str:
    """``moment`` as the client's own clock showed it (``zone``, the client's
    time zone): for a time in the client's life, which read on the
    practice's clock could turn a night-time event into a morning one.

    When that clock differs from the reader's, "(their time)" follows,
    unless ``marked`` is False because the page says so once already. On
    the client's own pages their zone is the current one: never marked.
    """
    shown = formats.date_format(moment.astimezone(as_zone(zone)), date_format)
    if marked and clocks_differ(moment, zone):
        return _("%(time)s (their time)") % {"time": shown}
    return shown


@dataclass
class ClientTimeZone:
    """The client's clock, handed to the templates that show times in their
    life (``{% their_time %}``).

    ``noted``: the page says once that these times are the client's own (the
    session summary, which must not grow a marker on every line). ``differed``
    is set once a time was shown that reads differently on the reader's clock,
    so the page knows whether that note is needed at all.
    """

    zone: str
    noted: bool = False
    differed: bool = False

    def show(self, moment: dt.datetime, date_format: str) -> str:
        """With the year when it does not go without saying (``with_year``),
        by the date the client's clock showed."""
        if clocks_differ(moment, self.zone):
            self.differed = True
        their_day = moment.astimezone(as_zone(self.zone)).date()
        return in_client_time_zone(
            moment, self.zone, with_year(date_format, their_day), marked=not self.noted
        )


def where_clocks_differ(
    moment: dt.datetime, zone: str | dt.tzinfo, date_format: str, *, marked: bool = True
) -> str:
    """A shared time (a session) as the client's clock shows it, only where
    that differs from the reader's: "" where the two agree, so a page adds
    it only where it tells something. Named as ``ClientTimeZone`` names dates."""
    if not clocks_differ(moment, zone):
        return ""
    zone_name = zone if isinstance(zone, str) else str(zone)
    return ClientTimeZone(zone=zone_name, noted=not marked).show(moment, date_format)
