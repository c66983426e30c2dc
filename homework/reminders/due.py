"""What a client is to be reminded of, and when: pure functions, no database, no clock. Everything
due goes in one message on the client's clock, at most one a day and no more often than their
``days_between``, and never outside safe hours."""

import datetime as dt
import zoneinfo
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from clients.contact import hours
from homework.schedules import ONCE, one_off_standing, slot_for
from practice.reminder_message import ReminderKind

# One-off work due within this many days (today: 0) is "due soon".
DUE_SOON_WITHIN_DAYS = 1
PAST_ITS_DAY_FOR_DAYS = 7


@dataclass(frozen=True)
class Work:
    id: int
    schedule: str
    starts_on: dt.date
    ends_on: dt.date | None
    weekdays: Sequence[int]
    due_on: dt.date | None
    sent: int
    sent_slots: frozenset[dt.date] = frozenset()
    is_log: bool = False
    days_before: int | None = None
    session_days: tuple[dt.date, ...] = ()  # before-session work: its sessions' days
    answered_days: frozenset[dt.date] = frozenset()  # and the slots already answered


@dataclass(frozen=True)
class Contact:
    zone: str
    safe_hours: object
    reminder_at: dt.time
    days_between: int


@dataclass(frozen=True)
class Past:
    days: frozenset[dt.date] = frozenset()
    named_past_its_day: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Due:
    kinds: tuple[ReminderKind, ...]
    send_at: dt.datetime  # aware; the first safe moment at or after its time
    slot_on: dt.date  # the client's day it goes on: the one message of that day
    past_due_ids: tuple[int, ...] = ()
    held: bool = False


def slot_key(client_id: int, day: dt.date) -> str:
    return f"reminder:{client_id}:{day.isoformat()}"


def local_moment(day: dt.date, at: dt.time, zone: str) -> dt.datetime:
    """A skipped time is the moment after the jump; a time shown twice is its first showing."""
    tz = zoneinfo.ZoneInfo(zone)
    return dt.datetime.combine(day, at, tzinfo=tz).astimezone(dt.UTC).astimezone(tz)


def kinds_due(
    work: Iterable[Work], *, today: dt.date, past: Past
) -> tuple[tuple[ReminderKind, ...], tuple[int, ...]]:
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
    """None before the day's time, when nothing is waiting, within ``days_between`` of the last, or
    when the week has no safe time."""
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
    go: bool
    until: dt.datetime | None = None
    reason: str = ""


def may_go_now(*, contact: Contact, slot_on: dt.date, now: dt.datetime) -> Hold:
    """With the client's choices as they are now: outside safe hours it waits for the next safe
    moment of its own day, and past that day it does not go."""
    if hours.is_safe_at(contact.safe_hours, zone=contact.zone, moment=now):
        return Hold(go=True)
    until = hours.next_safe_moment(contact.safe_hours, zone=contact.zone, after=now)
    tz = zoneinfo.ZoneInfo(contact.zone)
    if until is None or until.astimezone(tz).date() != slot_on:
        return Hold(go=False, reason="no-safe-time")
    return Hold(go=False, until=until, reason="outside-safe-hours")
