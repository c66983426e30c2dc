import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from clients.models import Client
from homework.models import Assignment, Entry
from homework.selectors.period import PeriodQuery, period_for_dates, practice_midnight
from homework.selectors.work_in_period import WorkInPeriod
from homework.summary import selectors
from tests.factories import (
    AssignmentFactory,
    EntryFactory,
    SessionFactory,
    daily_assignment,
    weekly_assignment,
)
from tests.helpers_summary import summary_data_for, the_last

from .conftest import add, record

pytestmark = pytest.mark.django_db


def data_for(user, client, *, since_days=30, full_detail=False):
    return summary_data_for(user, client, the_last(since_days), full_detail=full_detail)


def test_summary_holds_only_shared_submitted_entries_of_that_client(cast):
    shared = add(cast.alice_assignment, what_happened="shared one")
    add(cast.alice_assignment, what_happened="kept private", private=True)
    add(cast.alice_assignment, what_happened="still a draft", status=Entry.Status.DRAFT)
    add(cast.bob_assignment, what_happened="bob's words")
    data = data_for(cast.tara, cast.alice)
    assert shared in data.entries
    texts = {entry.response["what_happened"] for entry in data.entries}
    assert texts.isdisjoint({"kept private", "still a draft", "bob's words"})
    assert all(entry.assignment.client_id == cast.alice.pk for entry in data.entries)


def test_another_therapist_reads_nothing_even_if_handed_the_client(cast):
    # The views look the client up through clients_for_user first; this is the
    # second line: the entry query itself is scoped by who asks.
    data = data_for(cast.theo, cast.alice)
    assert data.entries == []
    assert data.completion.items == []


def test_client_for_summary_refuses_other_therapists_clients_and_clients(cast):
    assert selectors.client_for_summary(user=cast.tara, client_id=cast.alice.pk) == cast.alice
    assert selectors.client_for_summary(user=cast.morgan, client_id=cast.alice.pk) == cast.alice
    for user in (cast.theo, cast.alice.portal_user):
        with pytest.raises(Client.DoesNotExist):
            selectors.client_for_summary(user=user, client_id=cast.alice.pk)


def test_entries_outside_the_period_are_left_out(cast):
    add(cast.alice_assignment, days_ago=40, what_happened="long ago")
    data = data_for(cast.tara, cast.alice, since_days=10)
    assert "long ago" not in {entry.response["what_happened"] for entry in data.entries}


def test_flags_come_first_unsafe_before_discuss_each_entry_once(cast):
    unsafe = add(cast.alice_assignment, felt_unsafe=True, discuss_in_session=True)
    discuss = add(cast.alice_assignment, discuss_in_session=True)
    data = data_for(cast.tara, cast.alice)
    assert data.flagged_unsafe == [unsafe]
    assert data.flagged_discuss == [discuss]


def test_sections_group_entries_by_kind_newest_first(cast):
    older = add(cast.alice_assignment, days_ago=3)
    newer = add(cast.alice_assignment, days_ago=1)
    sections = {section.kind.slug: section for section in data_for(cast.tara, cast.alice).sections}
    assert sections["written_record"].entries == [cast.alice_entry, newer, older]
    # The safety plan is kept within reach: its section is there with nothing in the period.
    assert list(sections) == ["safety_plan", "written_record"]
    assert sections["safety_plan"].entries == [] and sections["safety_plan"].current is None


def test_default_period_runs_from_the_previous_session_to_the_next(cast):
    now = timezone.now()
    previous = SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=7))
    SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=14))
    upcoming = SessionFactory.create(client=cast.alice, starts_at=now + dt.timedelta(days=1))
    SessionFactory.create(client=cast.alice, starts_at=now + dt.timedelta(days=8))
    period = selectors.resolve_period(
        user=cast.tara, client=cast.alice, query=PeriodQuery(), now=now
    )
    assert (period.start, period.end, period.session) == (
        previous.starts_at,
        upcoming.starts_at,
        upcoming,
    )
    assert not period.chosen_dates


def test_without_sessions_the_period_is_the_last_four_weeks(cast):
    now = timezone.now()
    period = selectors.resolve_period(
        user=cast.tara, client=cast.alice, query=PeriodQuery(), now=now
    )
    assert period.session is None
    assert period.end == now
    assert (period.until - period.since).days == 28


def test_chosen_dates_find_the_session_they_lead_up_to(cast):
    today = timezone.localdate()
    session = SessionFactory.create(
        client=cast.alice, starts_at=timezone.now() + dt.timedelta(days=2)
    )
    period = selectors.resolve_period(
        user=cast.tara,
        client=cast.alice,
        query=PeriodQuery(since=today - dt.timedelta(days=5), until=today),
        now=timezone.now(),
    )
    assert period.session == session
    assert period.chosen_dates


# -- completion


def test_one_off_work_is_done_open_or_past_its_due_date(cast):
    today = timezone.localdate()
    done = cast.alice_assignment  # alice_entry was sent today
    open_ = AssignmentFactory.create(client=cast.alice, due_on=today + dt.timedelta(days=3))
    late = AssignmentFactory.create(
        client=cast.alice,
        starts_on=today - dt.timedelta(days=10),
        due_on=today - dt.timedelta(days=2),
    )
    finished_before = AssignmentFactory.create(
        client=cast.alice,
        starts_on=today - dt.timedelta(days=60),
        due_on=today - dt.timedelta(days=50),
    )
    add(finished_before, days_ago=55)
    AssignmentFactory.create(client=cast.alice, status=Assignment.Status.CANCELLED)
    completion = data_for(cast.tara, cast.alice, since_days=20).completion
    states = {item.assignment_id: item.state for item in completion.items}
    assert states == {
        done.pk: WorkInPeriod.DONE,
        open_.pk: WorkInPeriod.OPEN,
        late.pk: WorkInPeriod.OVERDUE,
    }
    assert (completion.done, completion.open, completion.overdue) == (1, 1, 1)


def test_private_entries_do_not_count_as_done(cast):
    assignment = AssignmentFactory.create(client=cast.alice)
    add(assignment, private=True)
    (item,) = [
        i
        for i in data_for(cast.tara, cast.alice).completion.items
        if i.assignment_id == assignment.pk
    ]
    assert item.state == WorkInPeriod.OPEN


def test_recurring_work_counts_days_with_something_sent(cast):
    today = timezone.localdate()
    daily = daily_assignment(
        cast.alice, starts_on=today - dt.timedelta(days=9), ends_on=today + dt.timedelta(days=20)
    )
    for days_ago in (1, 2, 2.1, 5):  # two entries on one day count as one day
        add(daily, days_ago=days_ago)
    (item,) = [
        i for i in data_for(cast.tara, cast.alice).completion.items if i.assignment_id == daily.pk
    ]
    assert item.recurring
    assert item.expected == 9  # nine days ago up to yesterday: today is not over yet
    assert item.done in (3, 4)  # 2 and 2.1 days ago may straddle midnight


def test_todays_work_counts_once_sent_and_is_not_missed_before(cast):
    """A summary printed mid-morning does not count today as missed: the
    client's day is not over (the admin's "so far" reads the same)."""
    today = timezone.localdate()
    daily = daily_assignment(
        cast.alice, starts_on=today - dt.timedelta(days=2), ends_on=today + dt.timedelta(days=20)
    )

    def item() -> tuple[int, int]:
        (found,) = [
            i
            for i in data_for(cast.tara, cast.alice).completion.items
            if i.assignment_id == daily.pk
        ]
        return found.done, found.expected

    assert item() == (0, 2)
    add(daily, days_ago=0)
    assert item() == (1, 3)


def test_a_summary_printed_days_before_its_session_leaves_todays_work_open(cast):
    """Printed on Monday morning for Wednesday's session, before Monday's
    check-in: Monday is not over, so its slot is open, not missed. On the
    eve, Monday counts; the eve's own slot once that day is over."""
    today = timezone.localdate()
    session = SessionFactory.create(
        client=cast.alice,
        starts_at=practice_midnight(today + dt.timedelta(days=2)) + dt.timedelta(hours=10),
    )
    daily = daily_assignment(
        cast.alice, starts_on=today - dt.timedelta(days=2), ends_on=today + dt.timedelta(days=20)
    )
    for days_before in (2, 1):
        day = today - dt.timedelta(days=days_before)
        sent = practice_midnight(day) + dt.timedelta(hours=20)
        EntryFactory.create(assignment=daily, occurrence_on=day, submitted_at=sent, shared_at=sent)

    def counted(now: dt.datetime) -> tuple[int, int]:
        period = selectors.resolve_period(
            user=cast.tara, client=cast.alice, query=PeriodQuery(), now=now
        )
        assert period.session == session
        data = selectors.summary_data(
            user=cast.tara, client=cast.alice, period=period, full_detail=False, now=now
        )
        (found,) = [i for i in data.completion.items if i.assignment_id == daily.pk]
        return found.done, found.expected

    def at(days_ahead: int, hour: int) -> dt.datetime:
        return practice_midnight(today + dt.timedelta(days=days_ahead)) + dt.timedelta(hours=hour)

    # Today, before its check-in: open, not missed ("2 of 2 days", not "2 of 3").
    assert counted(at(0, 9)) == (2, 2)
    # The eve, in the evening batch: today is over; the eve's own is open.
    assert counted(at(1, 19)) == (2, 3)
    # The session's morning: the eve is over too, and counts.
    assert counted(at(2, 8)) == (2, 4)


def test_weekly_work_expects_only_its_weekdays(cast):
    today = timezone.localdate()
    weekly = weekly_assignment(
        cast.alice,
        weekdays=[today.weekday()],
        starts_on=today - dt.timedelta(days=27),
        ends_on=today + dt.timedelta(days=20),
    )
    (item,) = [
        i for i in data_for(cast.tara, cast.alice).completion.items if i.assignment_id == weekly.pk
    ]
    assert (item.expected, item.done) == (3, 0)  # today's comes round, but is not over
    assert item.unit == "weeks"  # one day a week: counted in weeks, not days


# -- queries


def count_queries(user, client) -> int:
    with CaptureQueriesContext(connection) as queries:
        data_for(user, client, since_days=370)
    return len(queries)


def daily(client):
    today = timezone.localdate()
    return daily_assignment(client, starts_on=today - dt.timedelta(days=365), ends_on=today)


def test_queries_do_not_grow_with_entries(cast):
    log = daily(cast.alice)
    add(log)
    count_queries(cast.tara, cast.alice)  # the practice settings are cached from here on
    one = count_queries(cast.tara, cast.alice)
    Entry.objects.bulk_create([record(log, days_ago=n + 0.5) for n in range(365)])
    for _ in range(5):
        AssignmentFactory.create(client=cast.alice)
        daily(cast.alice)
    assert count_queries(cast.tara, cast.alice) == one == 8  # the measures' one, the alerts' one


def since_last_week(cast, now):
    """Sessions a week ago and tomorrow; the summary for tomorrow's, as of ``now``."""
    SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=7))
    SessionFactory.create(client=cast.alice, starts_at=now + dt.timedelta(days=1))


def data_for_next_session(cast, now):
    period = selectors.resolve_period(
        user=cast.tara, client=cast.alice, query=PeriodQuery(), now=now
    )
    return selectors.summary_data(
        user=cast.tara, client=cast.alice, period=period, full_detail=False, now=now
    )


def test_an_entry_kept_private_then_shared_is_news_in_the_period_it_was_shared(cast):
    """Written privately before the last session and shared today: it belongs
    to the coming session's summary, with its flag, not to one already printed."""
    from homework import services

    now = timezone.now()
    since_last_week(cast, now)
    entry = add(cast.alice_assignment, days_ago=10, private=True, felt_unsafe=True)
    services.entry_set_private(user=cast.alice.portal_user, key=entry.key, private=False)
    assert entry in data_for_next_session(cast, now).flagged_unsafe
    earlier = summary_data_for(
        cast.tara,
        cast.alice,
        period_for_dates(
            since=timezone.localdate() - dt.timedelta(days=14),
            until=timezone.localdate() - dt.timedelta(days=8),
            session=None,
        ),
        now=now,
    )
    assert entry not in earlier.entries  # it was private then: never in that summary


def test_daily_work_done_every_day_counts_the_session_day_done_before_the_session(cast):
    """The last session was at 10:00, the day's log at 09:00: that day is one
    of the days counted, so its log counts too (7 of 8 read as a day missed)."""
    from homework.selectors.period import practice_midnight
    from tests.factories import EntryFactory, ExerciseFactory, urge_log

    today = timezone.localdate()
    daily = daily_assignment(
        cast.alice,
        exercise=ExerciseFactory.create(kind="urge_log"),
        starts_on=today - dt.timedelta(days=14),
        ends_on=today + dt.timedelta(days=14),
    )
    at_ten = dt.timedelta(hours=10)
    SessionFactory.create(
        client=cast.alice, starts_at=practice_midnight(today - dt.timedelta(days=7)) + at_ten
    )
    SessionFactory.create(
        client=cast.alice, starts_at=practice_midnight(today + dt.timedelta(days=1)) + at_ten
    )
    now = practice_midnight(today) + dt.timedelta(hours=20)
    for back in range(14, -1, -1):  # every morning at 09:00, today's too
        day = today - dt.timedelta(days=back)
        at = practice_midnight(day) + dt.timedelta(hours=9)
        EntryFactory.create(
            assignment=daily,
            occurrence_on=day,
            submitted_at=at,
            response=urge_log(at=at.isoformat()),
        )
    period = selectors.resolve_period(
        user=cast.tara, client=cast.alice, query=PeriodQuery(), now=now
    )
    data = selectors.summary_data(
        user=cast.tara, client=cast.alice, period=period, full_detail=False, now=now
    )
    (item,) = data.completion.recurring
    assert (item.done, item.expected) == (8, 8)


def test_one_off_work_sent_privately_then_shared_in_the_period_counts_as_done_in_it(cast):
    from homework import services

    now = timezone.now()
    since_last_week(cast, now)
    work = AssignmentFactory.create(
        client=cast.alice, starts_on=timezone.localdate() - dt.timedelta(days=20)
    )
    entry = add(work, days_ago=10, private=True)
    services.entry_set_private(user=cast.alice.portal_user, key=entry.key, private=False)
    data = data_for_next_session(cast, now)
    assert entry in data.entries
    [item] = [i for i in data.completion.items if i.assignment_id == work.pk]
    assert item.state == WorkInPeriod.DONE


def test_one_off_work_is_past_due_only_once_the_day_is_over_for_the_client(cast):
    """00:30 on 1 December in London is 14:30 on 30 November in Honolulu:
    work due on the 30th is still open there."""
    from tests.factories import ClientFactory

    client = ClientFactory.create(therapist=cast.tara, timezone="Pacific/Honolulu")
    work = AssignmentFactory.create(
        client=client, starts_on=dt.date(2026, 11, 20), due_on=dt.date(2026, 11, 30)
    )
    period = period_for_dates(since=dt.date(2026, 11, 20), until=dt.date(2026, 12, 1), session=None)

    def state_at(now: dt.datetime) -> str:
        data = selectors.summary_data(
            user=cast.tara, client=client, period=period, full_detail=False, now=now
        )
        [item] = [i for i in data.completion.items if i.assignment_id == work.pk]
        return item.state

    london_past_midnight = dt.datetime(2026, 12, 1, 0, 30, tzinfo=dt.UTC)
    assert state_at(london_past_midnight) == WorkInPeriod.OPEN
    assert state_at(london_past_midnight + dt.timedelta(hours=10)) == WorkInPeriod.OVERDUE
