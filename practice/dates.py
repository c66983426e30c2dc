"""Dates as people read them: without the year when it goes without saying.

"Wednesday 31 December" is ambiguous once it is not this year's, so the
year is named whenever it differs from the practice's current year (the
practice's calendar, ``settings.TIME_ZONE``, as every date shown to staff).

Times in the client's life (when a difficult moment happened, when an urge
came) are the exception: they are shown on the client's own clock
(``on_their_clock``), marked when that clock is not the reader's.
"""

import datetime as dt
import zoneinfo
from dataclasses import dataclass

from django.utils import formats, timezone
from django.utils.translation import gettext as _


def calendar_day(value: dt.date | dt.datetime, date_format: str) -> str:
    """``value`` in ``date_format`` (a format with no year in it, such as
    "j M"), with the year after it when that is not this year.

    An aware moment is read on the current time zone's calendar, as
    Django's ``date`` filter reads it.
    """
    if isinstance(value, dt.datetime) and timezone.is_aware(value):
        value = timezone.localtime(value)
    day = value.date() if isinstance(value, dt.datetime) else value
    this_year = timezone.localdate(timezone=timezone.get_default_timezone()).year
    return formats.date_format(value, date_format if day.year == this_year else f"{date_format} Y")


def as_zone(zone: str | dt.tzinfo) -> dt.tzinfo:
    if isinstance(zone, dt.tzinfo):
        return zone
    try:
        return zoneinfo.ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        # Client.timezone is validated; a name this system no longer knows
        # still leaves the page readable, on the reader's clock.
        return timezone.get_current_timezone()


def clocks_differ(moment: dt.datetime, zone: str | dt.tzinfo) -> bool:
    """Whether ``zone``'s clock and the reader's (the current time zone) show
    different times at ``moment``: by their UTC offsets then, so two zones
    that keep the same time (London and Lisbon) do not differ."""
    return moment.astimezone(as_zone(zone)).utcoffset() != timezone.localtime(moment).utcoffset()


def on_their_clock(
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
class TheirClock:
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
        if clocks_differ(moment, self.zone):
            self.differed = True
        return on_their_clock(moment, self.zone, date_format, marked=not self.noted)
