"""When a recurring assignment comes round: which dates are its *slots*,
and which slot a date falls in, derived from the schedule, never
pre-generated (homework.schedules says how).

Pure functions of the schedule and a date: no database, no clock.
"""

import datetime as dt
from collections.abc import Iterator, Sequence
from typing import Protocol


class Scheduled(Protocol):
    """What a schedule is made of (an Assignment, or any object with these)."""

    @property
    def schedule(self) -> str: ...
    @property
    def starts_on(self) -> dt.date: ...
    @property
    def ends_on(self) -> dt.date | None: ...
    @property
    def weekdays(self) -> Sequence[int]: ...


ONCE = "once"
DAILY = "daily"
WEEKLY = "weekly"
# On the chosen weekdays of every other week, counted from the week the
# schedule starts in: a standard measure asked every two weeks.
FORTNIGHTLY = "fortnightly"
ON_WEEKDAYS = (WEEKLY, FORTNIGHTLY)


def is_recurring(item: Scheduled) -> bool:
    return item.schedule != ONCE


def _comes_round(item: Scheduled, day: dt.date) -> bool:
    if item.schedule == DAILY:
        return True
    if item.schedule == FORTNIGHTLY and _week_number(item, day) % 2:
        return False
    return day.weekday() in set(item.weekdays)


def _week_number(item: Scheduled, day: dt.date) -> int:
    """Whole weeks (Monday to Sunday) from the week the schedule starts in."""
    first_monday = item.starts_on - dt.timedelta(days=item.starts_on.weekday())
    return (day - first_monday).days // 7


def _longest_gap(item: Scheduled) -> int:
    """The most days between one slot and the next."""
    return 14 if item.schedule == FORTNIGHTLY else 7


# Work "until the therapist stops it" has no end date. A walk over its
# slots with no end asked for stops this far from its start, never at
# infinity: callers bound theirs by today or the period they show.
OPEN_ENDED_HORIZON_DAYS = 3 * 366


def last_day(item: Scheduled, end: dt.date | None = None, *, from_day: dt.date) -> dt.date:
    """The last day to look at: ``end`` clipped to the schedule's end, if it
    has one; for open-ended work without ``end``, the horizon above, from
    the first day looked at."""
    bounds = [day for day in (item.ends_on, end) if day is not None]
    if not bounds:
        return from_day + dt.timedelta(days=OPEN_ENDED_HORIZON_DAYS)
    return min(bounds)


def slots(
    item: Scheduled, *, start: dt.date | None = None, end: dt.date | None = None
) -> Iterator[dt.date]:
    """Every slot between ``start`` and ``end`` (both inclusive, clipped to the schedule)."""
    if not is_recurring(item):
        return
    if item.schedule in ON_WEEKDAYS and not item.weekdays:
        return
    day = max(item.starts_on, start or item.starts_on)
    last = last_day(item, end, from_day=day)
    while day <= last:
        if _comes_round(item, day):
            yield day
        day += dt.timedelta(days=1)


def count_slots(item: Scheduled, *, start: dt.date, end: dt.date) -> int:
    """How many slots fall from ``start`` to ``end`` (inclusive): what
    completion counts as "expected so far" in the admin and the summary.

    Counted, not walked: pages ask this of every assignment, and a schedule
    may run for years (tests hold it equal to counting ``slots``).
    """
    if not is_recurring(item):
        return 0
    first = max(item.starts_on, start)
    last = last_day(item, end, from_day=first)
    if last < first:
        return 0
    if item.schedule == DAILY:
        return (last - first).days + 1
    # Days counted from the Monday of the week the schedule starts in: a
    # chosen weekday comes round at the same remainders in every cycle of a
    # week (weekly) or of two (fortnightly, its first week on).
    first_monday = item.starts_on - dt.timedelta(days=item.starts_on.weekday())
    cycle = _longest_gap(item)
    since, until = (first - first_monday).days, (last - first_monday).days
    return sum(
        (until - weekday) // cycle - (since - 1 - weekday) // cycle
        for weekday in set(item.weekdays)
    )


def slot_for(item: Scheduled, day: dt.date) -> dt.date | None:
    """The slot ``day`` falls in: the latest slot on or before it.

    Before the first slot there is none (None); after the schedule ends,
    the last slot stays open, so late work still has a home.
    """
    if not is_recurring(item):
        return None
    day = last_day(item, day, from_day=day)
    # A weekly slot is at most six days back (a fortnightly one 13); a daily one is the day itself.
    for offset in range(_longest_gap(item)):
        candidate = day - dt.timedelta(days=offset)
        if candidate < item.starts_on:
            return None
        if _comes_round(item, candidate):
            return candidate
    return None


def open_slot(item: Scheduled, day: dt.date) -> dt.date | None:
    """The slot whose time is not over on ``day``: the one ``day`` falls in
    (``slot_for``, the slot the portal offers and files work under) until
    the schedule would come round again, past its end too, so the last
    weekly slot is over a week after it, as the others are. None before
    the first slot and once the last is over."""
    slot = slot_for(item, day)
    if slot is None:
        return None
    comes_round_again = next(
        slot + dt.timedelta(days=n)
        for n in range(1, _longest_gap(item) + 1)
        if _comes_round(item, slot + dt.timedelta(days=n))
    )
    return slot if day < comes_round_again else None


def first_slot(item: Scheduled) -> dt.date | None:
    return next(slots(item), None)


def next_slot_after(item: Scheduled, day: dt.date) -> dt.date | None:
    return next(slots(item, start=day + dt.timedelta(days=1)), None)


def slot_for_new_entry(item: Scheduled, day: dt.date) -> dt.date | None:
    """The slot a new entry started on ``day`` belongs to; before the
    schedule starts, the first one (the client is simply early)."""
    if not is_recurring(item):
        return None
    return slot_for(item, day) or first_slot(item)


def slot_for_happened(item: Scheduled, *, happened_on: dt.date, today: dt.date) -> dt.date | None:
    """The slot a log's sent entry counts for: that of the day what it
    records happened, on the client's calendar. An urge log is often filled
    in later, four urges of four days on one evening: filed where it was
    begun, that is one day done, beside a chart that draws four.

    None when that day is not one of the schedule's up to ``today``: before
    its start (before the first slot of a weekly one), after its end, or
    still to come. The entry then keeps the slot it was begun in, where
    anything sent early or late is filed (``slot_for_new_entry``).
    """
    if not is_recurring(item) or not item.starts_on <= happened_on <= last_day(
        item, today, from_day=today
    ):
        return None
    return slot_for(item, happened_on)
