"""Before each session: the windows, as pure functions of the sessions' days and the slots already
answered (no database, no clock)."""

import datetime as dt
from dataclasses import dataclass, field

from homework import schedules
from homework.reminders.due import Past, Work, kinds_due
from practice.reminder_message import ReminderKind

MON = dt.date(2026, 3, 2)  # a Monday


def day(n: int) -> dt.date:
    return MON + dt.timedelta(days=n)


@dataclass(frozen=True)
class Plan:
    starts_on: dt.date = MON
    days_before: int = 3
    session_days: tuple[dt.date, ...] = ()
    answered_days: frozenset[dt.date] = frozenset()
    ends_on: dt.date | None = None
    schedule: str = schedules.BEFORE_SESSION
    weekdays: list[int] = field(default_factory=list)


def test_each_booked_session_opens_its_window_days_before_it():
    plan = Plan(session_days=(day(3), day(10)))  # Thursdays
    assert schedules.session_windows(plan) == ((day(0), day(3)), (day(7), day(10)))
    assert list(schedules.slots(plan)) == [day(0), day(7)]
    assert schedules.count_slots(plan, start=MON, end=day(30)) == 2
    assert schedules.count_slots(plan, start=day(1), end=day(30)) == 1
    assert schedules.first_slot(plan) == day(0)
    assert schedules.next_slot_after(plan, day(2)) == day(7)
    # Open from the day it opens through the session's day; between sessions nothing is open.
    assert [schedules.open_slot(plan, day(n)) for n in range(12)] == [
        day(0), day(0), day(0), day(0), None, None, None,
        day(7), day(7), day(7), day(7), None,
    ]  # fmt: skip
    # Late work after the session still belongs to that session's window.
    assert schedules.slot_for(plan, day(5)) == day(0)
    assert schedules.unit(plan) == schedules.CHECK_INS


def test_windows_never_overlap_and_two_sessions_on_a_day_share_one():
    plan = Plan(days_before=10, starts_on=day(1), session_days=(day(3), day(10), day(10)))
    # The first is clipped to the start, the second to the day after the first session.
    assert schedules.session_windows(plan) == ((day(1), day(3)), (day(4), day(10)))


def test_sessions_before_the_start_or_after_the_end_give_no_window():
    plan = Plan(starts_on=day(5), ends_on=day(12), session_days=(day(3), day(9), day(16)))
    # The session before the start still bounds the next window: it opens after that session.
    assert schedules.session_windows(plan) == ((day(6), day(9)),)


def test_no_session_booked_is_nothing_asked():
    plan = Plan()
    assert list(schedules.slots(plan)) == []
    assert schedules.slot_for(plan, day(3)) is None
    assert schedules.open_slot(plan, day(3)) is None
    assert schedules.count_slots(plan, start=MON, end=day(60)) == 0


def test_a_session_moved_keeps_its_answer_and_a_missed_one_follows_the_session():
    answered = Plan(session_days=(day(3),), answered_days=frozenset({day(0)}))
    # Moved two days later: the window is the answer's, still answered, not asked again.
    moved = Plan(session_days=(day(5),), answered_days=frozenset({day(0)}))
    assert schedules.session_windows(answered) == ((day(0), day(3)),)
    assert schedules.session_windows(moved) == ((day(0), day(5)),)
    assert schedules.answered_slots(moved, up_to=day(4)) == {day(0)}
    # Nothing sent yet: the window moves with the session.
    assert schedules.session_windows(Plan(session_days=(day(5),))) == ((day(2), day(5)),)


def test_an_answer_whose_session_was_cancelled_stays_done_on_its_day():
    plan = Plan(session_days=(day(10),), answered_days=frozenset({day(0)}))
    # Too old for the next session's window: a slot of its own, and the next session asks afresh.
    assert schedules.session_windows(plan) == ((day(0), day(0)), (day(7), day(10)))
    assert schedules.answered_slots(plan, up_to=day(20)) == {day(0)}
    assert schedules.open_slot(plan, day(1)) is None


def test_a_session_missed_is_overdue_until_the_next_window_opens():
    plan = Plan(session_days=(day(3), day(10)))
    missed = schedules.missed_before_session
    assert not missed(plan, today=day(3), latest_sent=None)  # due by the session: still open
    assert missed(plan, today=day(4), latest_sent=None)
    assert not missed(plan, today=day(4), latest_sent=day(0))
    assert not missed(plan, today=day(7), latest_sent=None)  # the next is open: asked again


def test_the_reminder_goes_on_the_day_a_window_opens():
    work = Work(
        id=1,
        schedule=schedules.BEFORE_SESSION,
        starts_on=MON,
        ends_on=None,
        weekdays=[],
        due_on=None,
        sent=0,
        days_before=3,
        session_days=(day(3),),
    )
    assert kinds_due([work], today=day(0), past=Past()) == ((ReminderKind.TODAY,), ())
    assert kinds_due([work], today=day(1), past=Past()) == ((), ())
    answered = Work(**{**work.__dict__, "sent_slots": frozenset({day(0)})})
    assert kinds_due([answered], today=day(0), past=Past()) == ((), ())
