"""When a recurring assignment comes round: its slots, derived from the schedule, never
pre-generated. Pure functions of the schedule and a date: no database, no clock."""

import datetime as dt
from collections.abc import Iterator, Sequence
from typing import Protocol


class Scheduled(Protocol):
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
FORTNIGHTLY = "fortnightly"
BEFORE_SESSION = "before_session"
ON_WEEKDAYS = (WEEKLY, FORTNIGHTLY)


def is_recurring(item: Scheduled) -> bool:
    return item.schedule != ONCE


def session_windows(item: Scheduled) -> tuple[tuple[dt.date, dt.date], ...]:
    """(the slot: the day it opens, the last day it is due) for each booked session from the start,
    on the client's calendar, in order. ``item.session_days`` are the sessions' days and
    ``item.answered_days`` the slots something was sent for, as the caller read them.

    A window opens ``days_before`` ahead, never before the start nor on the day of the session
    before it, so windows never overlap; two sessions on one day share one. What was answered stays
    answered: a session moved by up to its window's length keeps the answer sent for it (the window
    is the answer's slot), and an answer whose session was cancelled or moved further stays a slot
    of its own, asked and done on its day. Only windows not answered follow the sessions."""
    if item.schedule != BEFORE_SESSION:
        return ()
    before = dt.timedelta(days=getattr(item, "days_before", None) or 0)
    answered = sorted(
        day
        for day in getattr(item, "answered_days", ())
        if day >= item.starts_on and (item.ends_on is None or day <= item.ends_on)
    )
    found: list[tuple[dt.date, dt.date]] = []
    previous: dt.date | None = None
    for day in sorted(set(getattr(item, "session_days", ()))):
        if day >= item.starts_on and (item.ends_on is None or day <= item.ends_on):
            floor = item.starts_on
            if previous is not None:
                floor = max(floor, previous + dt.timedelta(days=1))
            opens = max(day - before, floor)
            kept = [a for a in answered if max(opens - before, floor) <= a <= day]
            found.append((kept[0] if kept else opens, day))
            answered = [a for a in answered if a not in kept]
        previous = day
    found.extend((day, day) for day in answered)
    return tuple(sorted(found))


def session_of(item: Scheduled, slot: dt.date | None) -> dt.date | None:
    """The day of the session a before-session slot is for; None for any other schedule, and for an
    answer kept as its own slot after its session was cancelled."""
    if slot is None:
        return None
    day = dict(session_windows(item)).get(slot)
    return day if day in set(getattr(item, "session_days", ())) else None


def _openings(item: Scheduled) -> list[dt.date]:
    return [opens for opens, _session in session_windows(item)]


def _comes_round(item: Scheduled, day: dt.date) -> bool:
    if item.schedule == DAILY:
        return True
    if item.schedule == FORTNIGHTLY and _week_number(item, day) % 2:
        return False
    return day.weekday() in set(item.weekdays)


def _week_number(item: Scheduled, day: dt.date) -> int:
    first_monday = item.starts_on - dt.timedelta(days=item.starts_on.weekday())
    return (day - first_monday).days // 7


def _longest_gap(item: Scheduled) -> int:
    return 14 if item.schedule == FORTNIGHTLY else 7


# Open-ended work stops this far from its start, never at infinity.
OPEN_ENDED_HORIZON_DAYS = 3 * 366


def last_day(item: Scheduled, end: dt.date | None = None, *, from_day: dt.date) -> dt.date:
    bounds = [day for day in (item.ends_on, end) if day is not None]
    if not bounds:
        return from_day + dt.timedelta(days=OPEN_ENDED_HORIZON_DAYS)
    return min(bounds)


def slots(
    item: Scheduled, *, start: dt.date | None = None, end: dt.date | None = None
) -> Iterator[dt.date]:
    """Both inclusive, clipped to the schedule."""
    if not is_recurring(item):
        return
    if item.schedule in ON_WEEKDAYS and not item.weekdays:
        return
    day = max(item.starts_on, start or item.starts_on)
    last = last_day(item, end, from_day=day)
    if item.schedule == BEFORE_SESSION:
        yield from (opens for opens in _openings(item) if day <= opens <= last)
        return
    while day <= last:
        if _comes_round(item, day):
            yield day
        day += dt.timedelta(days=1)


def count_slots(item: Scheduled, *, start: dt.date, end: dt.date) -> int:
    """Counted, not walked: a schedule may run for years (tests hold it equal to ``slots``)."""
    if not is_recurring(item):
        return 0
    first = max(item.starts_on, start)
    last = last_day(item, end, from_day=first)
    if last < first:
        return 0
    if item.schedule == BEFORE_SESSION:
        return sum(1 for opens in _openings(item) if first <= opens <= last)
    if item.schedule == DAILY:
        return (last - first).days + 1
    first_monday = item.starts_on - dt.timedelta(days=item.starts_on.weekday())
    cycle = _longest_gap(item)
    since, until = (first - first_monday).days, (last - first_monday).days
    return sum(
        (until - weekday) // cycle - (since - 1 - weekday) // cycle
        for weekday in set(item.weekdays)
    )


def slot_for(item: Scheduled, day: dt.date) -> dt.date | None:
    """None before the first slot; after the schedule ends the last stays open for late work."""
    if not is_recurring(item):
        return None
    day = last_day(item, day, from_day=day)
    if item.schedule == BEFORE_SESSION:
        return next((opens for opens in reversed(_openings(item)) if opens <= day), None)
    for offset in range(_longest_gap(item)):
        candidate = day - dt.timedelta(days=offset)
        if candidate < item.starts_on:
            return None
        if _comes_round(item, candidate):
            return candidate
    return None


def open_slot(item: Scheduled, day: dt.date) -> dt.date | None:
    """None before the first slot and once the last is over."""
    slot = slot_for(item, day)
    if slot is None:
        return None
    if item.schedule == BEFORE_SESSION:
        # Its time is over once the session's day is: the next opens days before the next session.
        session_on = dict(session_windows(item))[slot]
        return slot if day <= session_on else None
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
    """Before the schedule starts, the first one: the client is simply early."""
    if not is_recurring(item):
        return None
    return slot_for(item, day) or first_slot(item)


def slot_for_happened(item: Scheduled, *, happened_on: dt.date, today: dt.date) -> dt.date | None:
    """The slot of the day what it records happened, on the client's calendar, so four urges logged
    one evening count for four days. None when that day is not one of the schedule's up to
    ``today``."""
    if not is_recurring(item) or not item.starts_on <= happened_on <= last_day(
        item, today, from_day=today
    ):
        return None
    return slot_for(item, happened_on)


def answered_slots(item: Scheduled, *, up_to: dt.date) -> set[dt.date]:
    """Before-session work's slots with something sent by ``up_to``: each answer counts for the
    window it now falls in, so a window answered twice counts once."""
    found = {slot_for(item, day) for day in getattr(item, "answered_days", ()) if day <= up_to}
    return {slot for slot in found if slot is not None}
