"""A weekly slot across its week, as the admin, the portal and the summary read it.

The one rule (homework.schedules.open_slot): a slot is open until the
schedule comes round again, as the portal offers it and files work under it
(a Monday check-in done on Wednesday is Monday's); while open it is not yet
due, so the therapist's "so far" does not count it as missed until its
time is over, unless something was sent for it. The client is never told
a slot was missed: the portal only offers what is open.
"""

import datetime as dt

import pytest
from django.utils import timezone

from clients.models import Session
from homework.models import Assignment
from homework.selectors import Progress, completion, todo_for_client, with_progress
from homework.selectors.period import period_between_sessions, period_for_dates
from homework.selectors.work_in_period import completion_for_period
from homework.summary.render import summary_document
from homework.summary.selectors import summary_data
from tests.factories import (
    EntryFactory,
    ExerciseFactory,
    SessionFactory,
    weekly_assignment,
)

pytestmark = pytest.mark.django_db

MON_2_MARCH = dt.date(2026, 3, 2)  # London keeps GMT until the 29th: no clock change in the way
SUN_29_MARCH = dt.date(2026, 3, 29)


def day(n: int) -> dt.date:
    return dt.date(2026, 3, n)


def noon(on: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(on, dt.time(12)))


def mondays(cast, *, starts_on=MON_2_MARCH, ends_on=SUN_29_MARCH) -> Assignment:
    return weekly_assignment(cast.alice, weekdays=[0], starts_on=starts_on, ends_on=ends_on)


def sent(assignment: Assignment, *, slot: dt.date, on: dt.date) -> None:
    EntryFactory.create(assignment=assignment, occurrence_on=slot, submitted_at=noon(on))


def admin(assignment: Assignment, today: dt.date) -> tuple[int, int]:
    annotated = with_progress(Assignment.objects.filter(pk=assignment.pk), today=today).get()
    progress = completion(annotated, today=today)
    assert progress.due_so_far is not None
    return progress.done, progress.due_so_far


def summary(cast, assignment: Assignment, today: dt.date, period=None) -> tuple[int, int]:
    period = period or period_for_dates(since=assignment.starts_on, until=today, session=None)
    found = completion_for_period(user=cast.tara, client=cast.alice, period=period, now=noon(today))
    (item,) = [i for i in found.items if i.assignment_id == assignment.pk]
    return item.done, item.expected


def portal(cast, today: dt.date, monkeypatch) -> tuple[dt.date | None, bool] | None:
    """The slot "To do" offers, and whether it is done; None once the work has left it."""
    monkeypatch.setattr(timezone, "now", lambda: noon(today))
    todo = todo_for_client(user=cast.alice.portal_user).assignments
    if not todo:
        return None
    (assignment,) = todo
    occurrence = assignment.occurrence
    assert occurrence is not None
    return occurrence.on, occurrence.done


# Mondays from 2 to 23 March; Monday 2's done on Thursday 5, Monday 9's never.
@pytest.mark.parametrize(
    ("today", "open_in_portal", "done_so_far", "due_so_far"),
    [
        (day(2), (day(2), False), 0, 0),  # Monday: today's, open
        (day(4), (day(2), False), 0, 0),  # Wednesday: Monday's still open, not missed
        (day(5), (day(2), True), 1, 1),  # Thursday: sent for Monday
        (day(9), (day(9), False), 1, 1),  # the next Monday opens
        (day(15), (day(9), False), 1, 1),  # its Sunday: still open
        (day(16), (day(16), False), 1, 2),  # the Monday after: 9 March's time is over
        (day(25), (day(23), False), 1, 3),  # the last slot, open after the last Monday
        # Its week over: due. The schedule has ended, and a log (a written
        # record) with something sent has left "To do", as a one-off log
        # does past its due date (schedules.recurring_done).
        (day(30), None, 1, 4),
    ],
)
def test_a_weekly_slot_is_due_once_the_next_comes_round_everywhere(
    cast, monkeypatch, today, open_in_portal, done_so_far, due_so_far
):
    Assignment.objects.filter(pk=cast.alice_assignment.pk).update(status="completed")
    assignment = mondays(cast)
    if today >= day(5):  # what the client had sent by then
        sent(assignment, slot=day(2), on=day(5))
    assert admin(assignment, today) == (done_so_far, due_so_far)
    assert summary(cast, assignment, today) == (done_so_far, due_so_far)
    assert portal(cast, today, monkeypatch) == open_in_portal


def test_the_last_weekly_slot_counts_as_ended_once_its_week_is_over(cast):
    assignment = mondays(cast)
    for monday in (2, 9, 16):
        sent(assignment, slot=day(monday), on=day(monday))
    annotated = with_progress(Assignment.objects.filter(pk=assignment.pk), today=day(30)).get()
    progress = completion(annotated, today=day(30))
    assert (progress.state, progress.done, progress.due_so_far) == (Progress.ENDED, 3, 4)


def test_assigned_on_thursday_for_mondays_nothing_is_due_before_the_first_monday_is_over(
    cast, monkeypatch
):
    Assignment.objects.filter(pk=cast.alice_assignment.pk).update(status="completed")
    assignment = mondays(cast, starts_on=day(5))
    for today in (day(6), day(9), day(15)):
        assert admin(assignment, today) == (0, 0)
        assert summary(cast, assignment, today) == (0, 0)
    assert portal(cast, day(6), monkeypatch) == (None, False)  # "Starts on Monday 9 March"
    assert admin(assignment, day(16)) == (0, 1)
    assert summary(cast, assignment, day(16)) == (0, 1)


# -- between sessions ------------------------------------------------------------------------


def sessions(cast) -> list[Session]:
    """Wednesdays 4, 11 and 18 March at ten."""
    return [
        SessionFactory.create(
            client=cast.alice,
            starts_at=timezone.make_aware(dt.datetime.combine(day(n), dt.time(10))),
        )
        for n in (4, 11, 18)
    ]


def for_session(cast, assignment, target, previous) -> tuple[int, int]:
    period = period_between_sessions(target=target, previous=previous, now=noon(day(20)))
    return summary(cast, assignment, day(20), period=period)


def test_a_slot_still_open_at_a_session_is_counted_in_the_next_summary(cast):
    """Monday 2's week runs past the session on Wednesday 4: not due in that
    summary; missed, it is the next summary's news, not nobody's."""
    assignment = mondays(cast)
    first, second, third = sessions(cast)
    assert for_session(cast, assignment, first, None) == (0, 0)
    assert for_session(cast, assignment, second, first) == (0, 1)  # 2 March; 9's still open
    assert for_session(cast, assignment, third, second) == (0, 1)  # 9 March


@pytest.mark.parametrize(
    ("sent_on", "in_first", "in_second"),
    [
        pytest.param(5, (0, 0), (1, 1), id="after-the-session-counts-in-the-next-summary"),
        pytest.param(3, (1, 1), (0, 0), id="before-the-session-counts-there-and-not-again"),
    ],
)
def test_a_slot_done_counts_in_the_summary_of_the_session_after_it(
    cast, sent_on, in_first, in_second
):
    """Monday 2's slot, sent on the 3rd (before Wednesday 4's session) or the 5th (after it)."""
    assignment = mondays(cast)
    first, second, _ = sessions(cast)
    sent(assignment, slot=day(2), on=day(sent_on))
    assert for_session(cast, assignment, first, None) == in_first
    assert for_session(cast, assignment, second, first) == in_second


def test_the_summary_for_the_first_slots_day_says_it_was_sent_or_when_it_is_due(cast):
    """Wednesdays from the session's day, 11 March, sent that morning: the
    summary counts through the eve (Period.as_of), yet "none due yet" hid
    what the client's To do says ("For today · sent"). Thursdays from
    Monday 9: the therapist reads when the first one is due."""
    Assignment.objects.filter(pk=cast.alice_assignment.pk).update(status="completed")
    first, second, _ = sessions(cast)
    wednesdays = weekly_assignment(
        cast.alice,
        exercise=ExerciseFactory.create(title="Wednesday check-in"),
        weekdays=[2],
        starts_on=day(11),
        ends_on=SUN_29_MARCH,
    )
    weekly_assignment(
        cast.alice,
        exercise=ExerciseFactory.create(title="Thursday check-in"),
        weekdays=[3],
        starts_on=day(9),
        ends_on=SUN_29_MARCH,
    )
    morning = timezone.make_aware(dt.datetime.combine(day(11), dt.time(8)))
    EntryFactory.create(
        assignment=wednesdays, occurrence_on=day(11), submitted_at=morning, shared_at=morning
    )
    now = morning + dt.timedelta(minutes=30)
    period = period_between_sessions(target=second, previous=first, now=now)
    data = summary_data(
        user=cast.tara, client=cast.alice, period=period, full_detail=False, now=now
    )
    html = " ".join(summary_document(data).html.split())
    assert "Wednesday check-in — first one sent</p>" in html
    assert "Thursday check-in — first one due Thu 12 Mar</p>" in html
    assert "none due yet" not in html
