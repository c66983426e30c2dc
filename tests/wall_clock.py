"""The wall-clock moments the clock-sensitive tests are run at (``--clock``).

A test marked ``clock`` depends on what the time is; ``make test`` runs the
marked set at each moment here so that a test green at 14:00 is green at any
hour of CI too.
"""

import datetime as dt
import re
from zoneinfo import ZoneInfo

from django.conf import settings

# "now" is the real clock; the others are named moments in the practice's time zone.
NAMED = (
    "now",
    "00:30",
    "23:30",
    "dst-spring",
    "dst-autumn",
    "new-years-eve",
    "new-year",
    "next-year",
)


def _last_sunday(year: int, month: int) -> dt.date:
    day = dt.date(year, month, 31)
    return day - dt.timedelta(days=(day.weekday() + 1) % 7)


def moment(name: str, *, today: dt.date | None = None) -> dt.datetime | None:
    """The aware datetime a clock name stands for, or None for the real clock.

    ``HH:MM`` is that time today, local. The DST moments are half an hour
    after this year's change in Europe/London (01:00 UTC on the last Sunday of
    March and of October): a few hours back from them is another day, and
    another offset. ``new-years-eve`` and ``new-year`` are 23:30 on this
    year's last day and 00:30 on the next year's first (a window that crosses
    New Year names both years); ``next-year`` is this moment a year on.
    """
    if name == "now":
        return None
    zone = ZoneInfo(settings.TIME_ZONE)
    today = today or dt.datetime.now(zone).date()
    if name in {"dst-spring", "dst-autumn"}:
        change = _last_sunday(today.year, 3 if name == "dst-spring" else 10)
        at_utc = dt.datetime.combine(change, dt.time(1, 30), tzinfo=dt.UTC)
        return at_utc.astimezone(zone)
    if name == "new-years-eve":
        return dt.datetime(today.year, 12, 31, 23, 30, tzinfo=zone)
    if name == "new-year":
        return dt.datetime(today.year + 1, 1, 1, 0, 30, tzinfo=zone)
    if name == "next-year":
        return dt.datetime.now(zone) + dt.timedelta(days=365)
    matched = re.fullmatch(r"([01]\d|2[0-3]):([0-5]\d)", name)
    if matched is None:
        raise ValueError(f"--clock takes HH:MM or one of {', '.join(NAMED)}; not {name!r}")
    return dt.datetime.combine(today, dt.time(int(matched[1]), int(matched[2])), tzinfo=zone)


def parse(option: str) -> list[str]:
    """The clock names in ``--clock=00:30,dst-spring``, each checked."""
    names = [name.strip() for name in option.split(",") if name.strip()]
    for name in names:
        moment(name)
    return names
