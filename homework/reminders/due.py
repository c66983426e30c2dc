"""What a client is to be reminded of, and when: pure functions of their
work, their contact choices, their past reminders and a moment. No database,
no clock; the scan (homework.reminders.services) brings all of them.

The rules, in one place:

- Everything due goes in one message, on the client's own clock, at the time
  they chose (``recurring_reminder_at``): the day's occurrence of recurring
  work (TODAY), one-off work due today or tomorrow and not done (DUE_SOON),
  one-off work whose day went by in the last week, not done, named once
  (PAST_ITS_DAY).
- At most one message per client per day, and no more often than their
  ``days_between``; a reminder waiting for safe hours counts as that day's.
- Never outside safe hours: a reminder whose time falls outside them waits
  for the next safe moment (clients.contact.hours), and the day it goes on
  is the day it counts for.
"""

import datetime as dt
import zoneinfo
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from clients.contact import hours
from homework.schedules import ONCE, one_off_standing, slot_for
from practice.reminder_message import ReminderKind

# One-off work due within this many days (today included: 0) is "due soon".
DUE_SOON_WITHIN_DAYS = 1
# Work whose day went by longer ago than this is not brought up again.
PAST_ITS_DAY_FOR_DAYS = 7


@dataclass(frozen=True)
class Work:
    """One active assignment as the rules need it."""

    id: int
    schedule: str
    starts_on: dt.date
    ends_on: dt.date | None
    weekdays: Sequence[int]
    due_on: dt.date | None
    sent: int  # entries sent for it, ever (one-off work)
    sent_slots: frozenset[dt.date] = frozenset()  # slots something was sent for (recurring)
    is_log: bool = False


@dataclass(frozen=True)
class Contact:
    """The client's choices that decide when a reminder may go."""

    zone: str
    safe_hours: object
    reminder_at: dt.time
    days_between: int


@dataclass(frozen=True)
class Past:
    """The client's reminders so far: the days they went (or wait to go) on,
    and the one-off work already named as past its day."""

    days: frozenset[dt.date] = frozenset()
    named_past_its_day: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Due:
    kinds: tuple[ReminderKind, ...]
    send_at: dt.datetime  # aware; the first safe moment at or after its time
    slot_on: dt.date  # the client's day it goes on: the one message of that day
    past_due_ids: tuple[int, ...] = ()
    held: bool = False  # its time fell outside safe hours


def slot_key(client_id: int, day: dt.date) -> str:
    return f"reminder:{client_id}:{day.isoformat()}"


def local_moment(day: dt.date, at: dt.time, zone: str) -> dt.datetime:
    """``at`` on ``day`` on the client's clock, as an aware moment. A time the
    clock skips (spring forward) is read as the moment after the jump; a time
    it shows twice (autumn) is its first showing (zoneinfo's fold=0, taken
    through UTC, as clients.contact.hours reads window starts)."""
    tz = zoneinfo.ZoneInfo(zone)
    return dt.datetime.combine(day, at, tzinfo=tz).astimezone(dt.UTC).astimezone(tz)


def kinds_due(
    work: Iterable[Work], *, today: dt.date, past: Past
) -> tuple[tuple[ReminderKind, ...], tuple[int, ...]]:
    """Which kinds of thing are waiting on the client's ``today``, in
    ReminderKind's order, and the one-off work named as past its day."""
    found: set[ReminderKind] = set()
    past_due: list[int] = []
    for item in work:
        if item.schedule != ONCE:
            slot = slot_for(item, today)
            if slot == today and today not in item.sent_slots:
                found.add(ReminderKind.TODAY)
            continue
        if item.due_on is None:
            continue
        standing = one_off_standing(
            sent=item.sent, due_on=item.due_on, today=today, is_log=item.is_log
        )
        if item.sent or standing.done_for_client:
            continue
        days_left = (item.due_on - today).days
        if 0 <= days_left <= DUE_SOON_WITHIN_DAYS:
            found.add(ReminderKind.DUE_SOON)
        elif -PAST_ITS_DAY_FOR_DAYS <= days_left < 0 and item.id not in past.named_past_its_day:
            found.add(ReminderKind.PAST_ITS_DAY)
            past_due.append(item.id)
    ordered = tuple(kind for kind in ReminderKind if kind in found)
    return ordered, tuple(sorted(past_due))


def reminder_due(
    work: Iterable[Work], *, contact: Contact, past: Past, now: dt.datetime
) -> Due | None:
    """The reminder to write for this client at ``now``, or None.

    None before the day's time on the client's clock, when nothing is
    waiting, when a reminder went (or waits to go) on a day fewer than
    ``days_between`` days ago, or when the week has no safe time at all."""
    today = now.astimezone(zoneinfo.ZoneInfo(contact.zone)).date()
    due_from = local_moment(today, contact.reminder_at, contact.zone)
    if now < due_from:
        return None
    spacing = max(contact.days_between, 1)
    if any(0 <= (today - day).days < spacing or day > today for day in past.days):
        return None
    kinds, past_due = kinds_due(work, today=today, past=past)
    if not kinds:
        return None
    send_at = hours.next_safe_moment(contact.safe_hours, zone=contact.zone, after=now)
    if send_at is None:
        return None
    slot_on = send_at.astimezone(zoneinfo.ZoneInfo(contact.zone)).date()
    if slot_on in past.days:
        return None
    return Due(
        kinds=kinds,
        send_at=send_at,
        slot_on=slot_on,
        past_due_ids=past_due,
        held=send_at > now,
    )


@dataclass(frozen=True)
class Hold:
    """Whether a reminder may go at ``now``: at once, later (``until``, the
    next safe moment on its own day), or not at all (``reason``)."""

    go: bool
    until: dt.datetime | None = None
    reason: str = ""


def may_go_now(*, contact: Contact, slot_on: dt.date, now: dt.datetime) -> Hold:
    """At sending time, with the client's choices as they are then: a
    reminder goes only inside safe hours; outside them it waits for the next
    safe moment of its own day, and past that day it does not go (the next
    day's reminder carries what still waits)."""
    if hours.is_safe_at(contact.safe_hours, zone=contact.zone, moment=now):
        return Hold(go=True)
    until = hours.next_safe_moment(contact.safe_hours, zone=contact.zone, after=now)
    tz = zoneinfo.ZoneInfo(contact.zone)
    if until is None or until.astimezone(tz).date() != slot_on:
        return Hold(go=False, reason="no-safe-time")
    return Hold(go=False, until=until, reason="outside-safe-hours")
