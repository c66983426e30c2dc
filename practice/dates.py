"""Dates as people read them: without the year when it goes without saying.

"Wednesday 31 December" is ambiguous once it is not this year's, so the
year is named whenever it differs from the practice's current year (the
practice's calendar, ``settings.TIME_ZONE``, as every date shown to staff).
"""

import datetime as dt

from django.utils import formats, timezone


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
