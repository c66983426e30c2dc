"""What is due, and when: the pure rules of homework.reminders.due."""

import datetime as dt
import zoneinfo

from clients.contact import hours
from homework.reminders.due import Contact, Past, Work, may_go_now, reminder_due
from practice.reminder_message import ReminderKind

LONDON = "Europe/London"
TZ = zoneinfo.ZoneInfo(LONDON)
DAY = dt.date(2026, 6, 10)  # a Wednesday in summer time


def at(day: dt.date, hour: int, minute: int = 0, zone: str = LONDON) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=zoneinfo.ZoneInfo(zone))


def contact(
    *, safe_hours: object = None, reminder_at: dt.time = dt.time(18), days_between: int = 1
) -> Contact:
    return Contact(
        zone=LONDON,
        safe_hours=safe_hours or hours.any_time_every_day(),
        reminder_at=reminder_at,
        days_between=days_between,
    )


def daily(*, sent_slots: frozenset[dt.date] = frozenset(), id: int = 1) -> Work:
    return Work(
        id=id,
        schedule="daily",
        starts_on=dt.date(2026, 1, 1),
        ends_on=dt.date(2026, 12, 31),
        weekdays=[],
        due_on=None,
        sent=len(sent_slots),
        sent_slots=sent_slots,
    )


def one_off(*, due_on: dt.date, sent: int = 0, id: int = 2) -> Work:
    return Work(
        id=id,
        schedule="once",
        starts_on=due_on - dt.timedelta(days=20),
        ends_on=None,
        weekdays=[],
        due_on=due_on,
        sent=sent,
    )


def only(day_windows: list[list[str]]) -> list[list[list[str]]]:
    return [[list(day_windows[0])] for _day in range(7)]


def test_the_days_reminder_comes_at_the_clients_chosen_time_not_before():
    assert reminder_due([daily()], contact=contact(), past=Past(), now=at(DAY, 17, 59)) is None
    due = reminder_due([daily()], contact=contact(), past=Past(), now=at(DAY, 18, 0))
    assert due is not None and due.kinds == (ReminderKind.TODAY,) and not due.held
    assert due.slot_on == DAY


def test_a_slot_already_sent_for_is_not_reminded():
    done = daily(sent_slots=frozenset({DAY}))
    assert reminder_due([done], contact=contact(), past=Past(), now=at(DAY, 19)) is None


def test_everything_due_goes_in_one_message_and_past_its_day_is_named_once():
    work = [
        daily(),
        one_off(due_on=DAY + dt.timedelta(days=1), id=2),
        one_off(due_on=DAY - dt.timedelta(days=2), id=3),
        one_off(due_on=DAY - dt.timedelta(days=3), sent=1, id=4),  # done: nothing
        one_off(due_on=DAY + dt.timedelta(days=5), id=5),  # not soon yet
    ]
    due = reminder_due(work, contact=contact(), past=Past(), now=at(DAY, 18))
    assert due is not None
    assert due.kinds == (ReminderKind.TODAY, ReminderKind.DUE_SOON, ReminderKind.PAST_ITS_DAY)
    assert due.past_due_ids == (3,)
    later = DAY + dt.timedelta(days=1)
    again = reminder_due(
        [one_off(due_on=DAY - dt.timedelta(days=2), id=3)],
        contact=contact(),
        past=Past(days=frozenset({DAY}), named_past_its_day=frozenset({3})),
        now=at(later, 18),
    )
    assert again is None


def test_at_most_one_a_day_and_no_more_often_than_the_client_chose():
    yesterday = Past(days=frozenset({DAY - dt.timedelta(days=1)}))
    today = Past(days=frozenset({DAY}))
    assert reminder_due([daily()], contact=contact(), past=today, now=at(DAY, 20)) is None
    assert reminder_due([daily()], contact=contact(), past=yesterday, now=at(DAY, 18))
    every_two = contact(days_between=2)
    assert reminder_due([daily()], contact=every_two, past=yesterday, now=at(DAY, 18)) is None


def test_outside_safe_hours_it_waits_for_the_next_safe_moment():
    evenings = only([["20:00", "22:00"]])
    due = reminder_due(
        [daily()], contact=contact(safe_hours=evenings), past=Past(), now=at(DAY, 18)
    )
    assert due is not None and due.held and due.send_at == at(DAY, 20) and due.slot_on == DAY
    mornings = only([["08:00", "09:00"]])
    due = reminder_due(
        [daily()], contact=contact(safe_hours=mornings), past=Past(), now=at(DAY, 18)
    )
    tomorrow = DAY + dt.timedelta(days=1)
    # It goes tomorrow morning, and counts as tomorrow's one message.
    assert due is not None and due.send_at == at(tomorrow, 8) and due.slot_on == tomorrow


def test_at_sending_time_changed_hours_hold_it_or_close_it():
    evenings = contact(safe_hours=only([["20:00", "22:00"]]))
    assert may_go_now(contact=evenings, slot_on=DAY, now=at(DAY, 20, 30)).go
    held = may_go_now(contact=evenings, slot_on=DAY, now=at(DAY, 18))
    assert not held.go and held.until == at(DAY, 20) and held.reason == "outside-safe-hours"
    closed = may_go_now(contact=evenings, slot_on=DAY, now=at(DAY, 23))
    assert not closed.go and closed.until is None and closed.reason == "no-safe-time"


def _sent_at_utc(day: dt.date, reminder_at: dt.time) -> dt.datetime:
    """The UTC moment the day's reminder first becomes due, found by scanning
    the day minute by minute, as beat's scan would."""
    start = at(day, 0).astimezone(dt.UTC)
    for minute in range(26 * 60):
        now = start + dt.timedelta(minutes=minute)
        if reminder_due([daily()], contact=contact(reminder_at=reminder_at), past=Past(), now=now):
            return now
    raise AssertionError("never due")


def test_spring_forward_keeps_the_clients_clock_time():
    # Europe/London moves from GMT to BST at 01:00 UTC on Sunday 29 March 2026.
    before, change, after = dt.date(2026, 3, 28), dt.date(2026, 3, 29), dt.date(2026, 3, 30)
    assert _sent_at_utc(before, dt.time(18)) == dt.datetime(2026, 3, 28, 18, tzinfo=dt.UTC)
    assert _sent_at_utc(change, dt.time(18)) == dt.datetime(2026, 3, 29, 17, tzinfo=dt.UTC)
    assert _sent_at_utc(after, dt.time(18)) == dt.datetime(2026, 3, 30, 17, tzinfo=dt.UTC)
    # 01:30 does not exist that night: it goes when the clock reads 02:30.
    skipped = _sent_at_utc(change, dt.time(1, 30))
    assert skipped == dt.datetime(2026, 3, 29, 1, 30, tzinfo=dt.UTC)
    assert skipped.astimezone(TZ).time() == dt.time(2, 30)


def test_fall_back_keeps_the_clients_clock_time_and_goes_once():
    # Europe/London moves from BST to GMT at 01:00 UTC on Sunday 25 October 2026.
    before, change = dt.date(2026, 10, 24), dt.date(2026, 10, 25)
    assert _sent_at_utc(before, dt.time(18)) == dt.datetime(2026, 10, 24, 17, tzinfo=dt.UTC)
    assert _sent_at_utc(change, dt.time(18)) == dt.datetime(2026, 10, 25, 18, tzinfo=dt.UTC)
    # 01:30 shows twice that night: the first showing, and only one message
    # (the second showing is the same day, which already has its reminder).
    twice = _sent_at_utc(change, dt.time(1, 30))
    assert twice == dt.datetime(2026, 10, 25, 0, 30, tzinfo=dt.UTC)
    second_showing = dt.datetime(2026, 10, 25, 1, 30, tzinfo=dt.UTC)
    assert (
        reminder_due(
            [daily()],
            contact=contact(reminder_at=dt.time(1, 30)),
            past=Past(days=frozenset({change})),
            now=second_showing,
        )
        is None
    )


def test_safe_hours_across_a_clock_change_hold_to_the_clients_clock():
    # Safe from 19:00 only; reminder at 18:00 on the day clocks go back.
    change = dt.date(2026, 10, 25)
    due = reminder_due(
        [daily()],
        contact=contact(safe_hours=only([["19:00", "24:00"]])),
        past=Past(),
        now=dt.datetime(2026, 10, 25, 18, tzinfo=dt.UTC),
    )
    assert due is not None and due.send_at == at(change, 19)
    assert due.send_at.astimezone(dt.UTC) == dt.datetime(2026, 10, 25, 19, tzinfo=dt.UTC)
