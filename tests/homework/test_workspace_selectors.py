"""What the therapist's workspace reads: progress, the session window, the home."""

import datetime as dt

import pytest
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from clients.models import Client
from clients.selectors import NO_EARLIER_SESSION_WEEKS, session_window
from homework import selectors
from homework.models import Assignment
from homework.schedules import count_slots
from homework.selectors import HOME_LIST_LIMIT, Progress, completion, with_progress
from tests.factories import (
    AssignmentFactory,
    ClientFactory,
    EntryFactory,
    SessionFactory,
    daily_assignment,
    weekly_assignment,
)

TODAY = dt.date(2026, 3, 11)  # a Wednesday


def progress_of(assignment: Assignment, *, today: dt.date) -> selectors.AssignmentProgress:
    """``completion`` as the pages call it: annotated and judged as of one day."""
    annotated = with_progress(Assignment.objects.filter(pk=assignment.pk), today=today).get()
    return completion(annotated, today=today)


def sent_on(assignment: Assignment, day: dt.date, **extra) -> None:
    EntryFactory.create(
        assignment=assignment,
        occurrence_on=day,
        submitted_at=timezone.make_aware(dt.datetime.combine(day, dt.time(20))),
        **extra,
    )


# -- completion ----------------------------------------------------------------


def test_one_off_is_open_until_due_then_overdue_and_done_once_something_is_sent(cast):
    assignment = AssignmentFactory.create(
        client=cast.alice, starts_on=TODAY - dt.timedelta(days=7), due_on=TODAY
    )
    assert progress_of(assignment, today=TODAY).state == Progress.OPEN
    tomorrow = TODAY + dt.timedelta(days=1)
    assert progress_of(assignment, today=tomorrow).state == Progress.OVERDUE
    sent_on(assignment, TODAY)
    done = progress_of(assignment, today=tomorrow)
    assert (done.state, done.done, done.is_recurring) == (Progress.DONE, 1, False)


def test_a_private_entry_still_counts_as_done(cast):
    assignment = AssignmentFactory.create(client=cast.alice, starts_on=TODAY, due_on=TODAY)
    sent_on(assignment, TODAY, private=True)
    assert progress_of(assignment, today=TODAY + dt.timedelta(days=3)).state == "done"


def test_drafts_do_not_count(cast):
    assignment = AssignmentFactory.create(client=cast.alice, starts_on=TODAY, due_on=TODAY)
    EntryFactory.create(assignment=assignment, status="draft", submitted_at=None)
    later = TODAY + dt.timedelta(days=1)
    assert progress_of(assignment, today=later).state == Progress.OVERDUE


def test_daily_counts_days_done_of_days_so_far(cast):
    assignment = daily_assignment(
        cast.alice, starts_on=TODAY - dt.timedelta(days=4), ends_on=TODAY + dt.timedelta(days=5)
    )
    sent_on(assignment, TODAY - dt.timedelta(days=4))
    sent_on(assignment, TODAY - dt.timedelta(days=2))
    sent_on(assignment, TODAY - dt.timedelta(days=2))  # a second entry the same day: one day
    progress = progress_of(assignment, today=TODAY)
    assert (progress.state, progress.done, progress.due_so_far, progress.scheduled) == (
        Progress.OPEN,
        2,
        4,  # today is not due yet: the client's day is not over
        10,
    )


def test_todays_occurrence_is_open_until_the_clients_day_is_over(cast):
    """In the morning, a daily exercise not done yet today is not missed:
    today counts once something is sent for it, or once the day is over."""
    assignment = daily_assignment(
        cast.alice, starts_on=TODAY - dt.timedelta(days=2), ends_on=TODAY + dt.timedelta(days=5)
    )
    sent_on(assignment, TODAY - dt.timedelta(days=2))
    sent_on(assignment, TODAY - dt.timedelta(days=1))
    morning = progress_of(assignment, today=TODAY)
    assert (morning.state, morning.done, morning.due_so_far) == (Progress.OPEN, 2, 2)
    assert morning.count_in_words == "2 of 2 days"
    sent_on(assignment, TODAY)
    evening = progress_of(assignment, today=TODAY)
    assert (evening.done, evening.due_so_far) == (3, 3)
    tomorrow = progress_of(assignment, today=TODAY + dt.timedelta(days=1))
    assert (tomorrow.done, tomorrow.due_so_far) == (3, 3)


def test_the_last_day_of_a_schedule_is_open_not_ended_until_it_is_over(cast):
    assignment = daily_assignment(cast.alice, starts_on=TODAY - dt.timedelta(days=1), ends_on=TODAY)
    sent_on(assignment, TODAY - dt.timedelta(days=1))
    morning = progress_of(assignment, today=TODAY)
    assert (morning.state, morning.done, morning.due_so_far, morning.scheduled) == (
        Progress.OPEN,
        1,
        1,
        2,
    )
    sent_on(assignment, TODAY)
    assert progress_of(assignment, today=TODAY).state == Progress.DONE


def test_a_weekly_slot_on_the_clients_today_is_not_due_yet(cast):
    assignment = weekly_assignment(
        cast.alice,
        weekdays=[TODAY.weekday()],
        starts_on=TODAY - dt.timedelta(days=7),
        ends_on=TODAY + dt.timedelta(days=7),
    )
    progress = progress_of(assignment, today=TODAY)
    assert (progress.done, progress.due_so_far) == (0, 1)


def test_weekly_counts_only_the_chosen_weekdays_and_ends(cast):
    assignment = AssignmentFactory.create(
        client=cast.alice,
        schedule="weekly",
        weekdays=[0, 3],  # Monday and Thursday
        starts_on=dt.date(2026, 3, 2),  # a Monday
        due_on=None,
        ends_on=dt.date(2026, 3, 15),  # a Sunday: two weeks
    )
    progress = progress_of(assignment, today=TODAY)
    # 2 and 5 March so far: Monday 9's is open until Thursday (test_weekly_slots).
    assert (progress.due_so_far, progress.scheduled) == (2, 4)
    after = progress_of(assignment, today=dt.date(2026, 3, 20))
    assert after.state == Progress.ENDED
    for day in (2, 5, 9, 12):
        sent_on(assignment, dt.date(2026, 3, day))
    assert progress_of(assignment, today=dt.date(2026, 3, 20)).state == Progress.DONE


def test_cancelled_work_says_so(cast):
    assignment = AssignmentFactory.create(
        client=cast.alice, status="cancelled", starts_on=TODAY, due_on=TODAY
    )
    later = TODAY + dt.timedelta(days=9)
    assert progress_of(assignment, today=later).state == Progress.CANCELLED


def test_work_sent_early_for_the_first_slot_is_not_more_than_expected(cast):
    """Weekly on Sunday from Monday 30 Nov: sent that Monday, the entry is
    filed under the first slot (6 Dec), which has not come round yet."""
    monday = dt.date(2026, 11, 30)
    assignment = weekly_assignment(
        cast.alice, weekdays=[6], starts_on=monday, ends_on=dt.date(2036, 12, 31)
    )
    sent_on(assignment, dt.date(2026, 12, 6))
    progress = progress_of(assignment, today=monday)
    assert (progress.done, progress.due_so_far) == (0, 0)
    sunday = progress_of(assignment, today=dt.date(2026, 12, 6))
    assert (sunday.done, sunday.due_so_far) == (1, 1)


def test_a_day_still_to_come_here_is_not_counted_done_yet(cast):
    """A client ahead of the practice sends tomorrow's (their today's) entry:
    it counts once that day is one of the days expected, not before."""
    today = dt.date(2026, 11, 30)
    assignment = daily_assignment(
        cast.alice, starts_on=today - dt.timedelta(days=1), ends_on=today + dt.timedelta(days=30)
    )
    sent_on(assignment, today + dt.timedelta(days=1))
    progress = progress_of(assignment, today=today)
    assert (progress.done, progress.due_so_far) == (0, 1)  # yesterday; today is not over


@given(
    start=st.dates(min_value=dt.date(2024, 1, 1), max_value=dt.date(2027, 1, 1)),
    length=st.integers(min_value=-3, max_value=60),
    weekdays=st.sets(st.integers(min_value=0, max_value=6), min_size=1),
)
def test_weekly_day_count_matches_counting_each_day(start, length, weekdays):
    last = start + dt.timedelta(days=length)
    assignment = Assignment(
        schedule="weekly", weekdays=sorted(weekdays), starts_on=start, ends_on=max(start, last)
    )
    expected = sum(
        1
        for offset in range(max(length + 1, 0))
        if (start + dt.timedelta(days=offset)).weekday() in weekdays
    )
    assert count_slots(assignment, start=start, end=last) == expected


def test_overdue_query_agrees_with_completion(cast):
    today = timezone.localdate()
    cases = [
        AssignmentFactory.create(client=cast.alice, due_on=today - dt.timedelta(days=1)),
        AssignmentFactory.create(client=cast.alice, due_on=today),
        AssignmentFactory.create(client=cast.alice, due_on=None),
        AssignmentFactory.create(
            client=cast.alice, due_on=today - dt.timedelta(days=2), status="cancelled"
        ),
        daily_assignment(cast.alice, ends_on=today - dt.timedelta(days=1)),
    ]
    done_late = AssignmentFactory.create(client=cast.alice, due_on=today - dt.timedelta(days=3))
    EntryFactory.create(assignment=done_late)
    cases.append(done_late)
    ids = [a.pk for a in cases]
    now = timezone.now()
    by_query = {
        a.pk
        for a in selectors.overdue(Assignment.objects.filter(pk__in=ids), now=now)
        if selectors.is_overdue(a, now=now)
    }
    by_rule = {
        a.pk
        for a in with_progress(Assignment.objects.filter(pk__in=ids), today=today)
        if completion(a, today=today).state == Progress.OVERDUE
    }
    assert by_query == by_rule == {cases[0].pk}


# -- the session window ----------------------------------------------------------


def test_window_runs_from_the_previous_session(cast):
    now = timezone.now()
    last_week = SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=7))
    SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=14))
    upcoming = SessionFactory.create(client=cast.alice, starts_at=now + dt.timedelta(days=1))
    window = session_window(client=cast.alice, now=now)
    assert (window.start, window.previous, window.upcoming) == (
        last_week.starts_at,
        last_week,
        upcoming,
    )


def test_during_a_session_the_window_still_covers_the_work_for_it(cast):
    now = timezone.now()
    before = SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=7))
    current = SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(minutes=20))
    window = session_window(client=cast.alice, now=now)
    assert (window.previous, window.upcoming) == (before, current)


def test_without_sessions_the_window_is_the_one_the_summary_covers(cast):
    """No earlier session: the admin's page and the summary printed now look
    back over the same four weeks, from the same midnight."""
    from homework.selectors.period import PeriodQuery
    from homework.summary.selectors import resolve_period

    now = timezone.now()
    window = session_window(client=cast.alice, now=now)
    period = resolve_period(user=cast.tara, client=cast.alice, query=PeriodQuery(), now=now)
    assert window.previous is None and period.previous is None
    assert (window.start, window.end) == (period.start, period.end)
    assert timezone.localdate(window.start) == timezone.localdate(now) - dt.timedelta(
        weeks=NO_EARLIER_SESSION_WEEKS
    )


# -- since last session ---------------------------------------------------------------


def test_since_last_session_puts_unsafe_first_then_to_discuss_and_hides_private_words(cast):
    now = timezone.now()
    SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=7))
    a = cast.alice_assignment
    old = EntryFactory.create(assignment=a, submitted_at=now - dt.timedelta(days=8))
    plain = EntryFactory.create(assignment=a, submitted_at=now - dt.timedelta(hours=1))
    discuss = EntryFactory.create(
        assignment=a, submitted_at=now - dt.timedelta(days=3), discuss_in_session=True
    )
    unsafe = EntryFactory.create(
        assignment=a, submitted_at=now - dt.timedelta(days=5), felt_unsafe=True
    )
    private = EntryFactory.create(
        assignment=a, submitted_at=now - dt.timedelta(days=1), private=True, felt_unsafe=True
    )
    report = selectors.since_last_session(
        user=cast.tara,
        client=cast.alice,
        window=session_window(client=cast.alice, now=now),
    )
    assert [e.pk for e in report.entries] == [unsafe.pk, discuss.pk, cast.alice_entry.pk, plain.pk]
    assert old.pk not in [e.pk for e in report.entries]
    assert report.private_sent_at == [private.submitted_at]
    assert [a.pk for a, _ in report.assignments] == [cast.alice_assignment.pk]


def test_private_flags_never_lift_an_entry_in_a_staff_list(cast):
    now = timezone.now()
    private = EntryFactory.create(
        assignment=cast.alice_assignment,
        submitted_at=now + dt.timedelta(seconds=-1),
        private=True,
        felt_unsafe=True,
    )
    shared = EntryFactory.create(assignment=cast.alice_assignment, submitted_at=now)
    ordered = list(
        selectors.flags_first(selectors.entries_for_user(user=cast.tara)).filter(
            pk__in=[private.pk, shared.pk]
        )
    )
    assert ordered == [shared, private]


# -- the admin home -------------------------------------------------------------------


def test_home_shows_only_the_therapists_own_clients_and_the_manager_all(cast):
    now = timezone.now()
    tomorrow = now + dt.timedelta(days=1)
    SessionFactory.create(client=cast.alice, starts_at=tomorrow)
    SessionFactory.create(client=cast.bob, starts_at=tomorrow)
    for entry in (cast.alice_entry, cast.bob_entry):
        entry.felt_unsafe = True
        entry.save()
    tara = selectors.staff_home(user=cast.tara, previous_visit=None, now=now)
    assert [s.client for s in tara.today + tara.tomorrow] == [cast.alice]
    assert tara.unsafe == [cast.alice_entry]
    morgan = selectors.staff_home(user=cast.morgan, previous_visit=None, now=now)
    assert {s.client for s in morgan.today + morgan.tomorrow} == {cast.alice, cast.bob}
    assert set(morgan.unsafe) == {cast.alice_entry, cast.bob_entry}


def test_home_flags_are_the_last_14_days_and_never_from_private_entries(cast):
    now = timezone.now()
    a = cast.alice_assignment
    recent = EntryFactory.create(assignment=a, felt_unsafe=True, submitted_at=now)
    EntryFactory.create(assignment=a, felt_unsafe=True, submitted_at=now - dt.timedelta(days=15))
    EntryFactory.create(assignment=a, felt_unsafe=True, private=True, submitted_at=now)
    home = selectors.staff_home(user=cast.tara, previous_visit=None, now=now)
    assert home.unsafe == [recent]


def test_new_is_measured_from_the_previous_sign_in(cast):
    now = timezone.now()
    cast.alice_entry.submitted_at = cast.alice_entry.shared_at = now - dt.timedelta(days=2)
    cast.alice_entry.save()
    fresh = EntryFactory.create(assignment=cast.alice_assignment, submitted_at=now)
    home = selectors.staff_home(user=cast.tara, previous_visit=now - dt.timedelta(days=1), now=now)
    assert home.new_count == 1 and home.new_since_previous_visit
    assert [(row.client, row.latest) for row in home.new_by_client] == [
        (cast.alice, fresh.submitted_at)
    ]
    without = selectors.staff_home(user=cast.tara, previous_visit=None, now=now)
    assert without.new_count == 2 and not without.new_since_previous_visit


def test_archived_clients_leave_the_home(cast):
    now = timezone.now()
    SessionFactory.create(client=cast.alice, starts_at=now + dt.timedelta(hours=1))
    cast.alice_entry.felt_unsafe = True
    cast.alice_entry.save()
    Client.objects.filter(pk=cast.alice.pk).update(status="archived")
    home = selectors.staff_home(user=cast.tara, previous_visit=None, now=now)
    assert (home.today, home.tomorrow, home.unsafe, home.new_count) == ([], [], [], 0)


@pytest.mark.parametrize("days_late", [1, 30])
def test_home_lists_overdue_one_offs(cast, days_late):
    today = timezone.localdate()
    late = AssignmentFactory.create(
        client=cast.alice,
        starts_on=today - dt.timedelta(days=days_late + 5),
        due_on=today - dt.timedelta(days=days_late),
    )
    home = selectors.staff_home(user=cast.tara, previous_visit=None, now=timezone.now())
    assert home.overdue == [late] and home.overdue_count == 1
    assert (
        selectors.staff_home(user=cast.theo, previous_visit=None, now=timezone.now()).overdue == []
    )


def test_an_entry_shared_after_it_was_sent_is_new_since_the_last_session(cast):
    from homework import services

    now = timezone.now()
    SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=7))
    kept = EntryFactory.create(
        assignment=cast.alice_assignment,
        submitted_at=now - dt.timedelta(days=10),
        private=True,
        felt_unsafe=True,
    )
    services.entry_set_private(user=cast.alice.portal_user, key=kept.key, private=False)
    window = session_window(client=cast.alice, now=timezone.now())
    report = selectors.since_last_session(user=cast.tara, client=cast.alice, window=window)
    assert report.entries[0].pk == kept.pk  # felt unsafe: first
    home = selectors.staff_home(user=cast.tara, previous_visit=now - dt.timedelta(hours=1), now=now)
    assert home.new_by_client[0].felt_unsafe == 1
    assert kept.pk in [entry.pk for entry in home.unsafe]
    kept.refresh_from_db()
    read = services.entries_mark_read(
        user=cast.tara, client=cast.alice, shown={kept.key: kept.version}, now=now
    )
    assert read == {kept.key}


# -- overdue on the client's own calendar -------------------------------------------------

# 00:30 on 1 December in London; still 14:30 on 30 November in Honolulu.
HONOLULU_AFTERNOON = dt.datetime(2026, 12, 1, 0, 30, tzinfo=dt.UTC)


def due_on_30_november(cast, tz: str) -> Assignment:
    client = ClientFactory.create(therapist=cast.tara, timezone=tz, display_name=tz)
    return AssignmentFactory.create(
        client=client, starts_on=dt.date(2026, 11, 20), due_on=dt.date(2026, 11, 30)
    )


def test_work_is_past_its_due_date_only_once_the_day_is_over_for_the_client(cast):
    honolulu = due_on_30_november(cast, "Pacific/Honolulu")
    london = due_on_30_november(cast, "Europe/London")
    auckland = due_on_30_november(cast, "Pacific/Auckland")
    home = selectors.staff_home(user=cast.tara, previous_visit=None, now=HONOLULU_AFTERNOON)
    assert set(home.overdue) == {london, auckland} and home.overdue_count == 2
    later = HONOLULU_AFTERNOON + dt.timedelta(hours=10)  # 00:30 on 1 December in Honolulu
    home = selectors.staff_home(user=cast.tara, previous_visit=None, now=later)
    assert set(home.overdue) == {honolulu, london, auckland} and home.overdue_count == 3


def test_the_home_lists_the_longest_overdue_first_and_counts_them_all(cast):
    for days_late in range(HOME_LIST_LIMIT + 1):
        AssignmentFactory.create(
            client=cast.alice,
            starts_on=dt.date(2026, 10, 1),
            due_on=dt.date(2026, 11, 1) + dt.timedelta(days=days_late % 20),
        )
    due_on_30_november(cast, "Pacific/Honolulu")  # not yet past, there
    london = due_on_30_november(cast, "Europe/London")
    home = selectors.staff_home(user=cast.tara, previous_visit=None, now=HONOLULU_AFTERNOON)
    assert home.overdue_count == HOME_LIST_LIMIT + 2
    assert len(home.overdue) == HOME_LIST_LIMIT and london not in home.overdue
    dates = [a.due_on for a in home.overdue]
    assert dates == sorted(d for d in dates if d is not None)


def test_since_last_session_judges_due_dates_on_the_clients_calendar(cast):
    honolulu = due_on_30_november(cast, "Pacific/Honolulu")
    window = session_window(client=honolulu.client, now=HONOLULU_AFTERNOON)
    report = selectors.since_last_session(user=cast.tara, client=honolulu.client, window=window)
    [(_, progress)] = report.assignments
    assert progress.state == Progress.OPEN
