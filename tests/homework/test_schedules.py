"""Schedules: occurrences derived from the assignment, and the rules a schedule keeps."""

import datetime as dt
import uuid
import zoneinfo
from dataclasses import dataclass, field

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from homework import schedules, services
from homework.models import Assignment, Entry
from homework.services import Flags
from tests.factories import ExerciseFactory, daily_assignment
from tests.helpers_entries import submit_written_record

MONDAY = dt.date(2026, 3, 2)


@dataclass
class Plan:
    schedule: str
    starts_on: dt.date
    ends_on: dt.date | None
    weekdays: list[int] = field(default_factory=list)


def test_daily_comes_round_every_day_from_start_to_end():
    plan = Plan("daily", MONDAY, MONDAY + dt.timedelta(days=29))
    days = list(schedules.slots(plan))
    assert len(days) == 30 and days[0] == MONDAY and days[-1] == MONDAY + dt.timedelta(days=29)


def test_weekly_comes_round_on_the_chosen_weekdays_only():
    plan = Plan("weekly", MONDAY, MONDAY + dt.timedelta(days=13), weekdays=[0, 3])
    assert list(schedules.slots(plan)) == [
        MONDAY,
        MONDAY + dt.timedelta(days=3),
        MONDAY + dt.timedelta(days=7),
        MONDAY + dt.timedelta(days=10),
    ]


@pytest.mark.parametrize(
    ("schedule", "weekdays", "happened", "slot"),
    [
        ("daily", [], 3, 3),  # the day it happened
        ("daily", [], 0, 0),  # the first day
        ("daily", [], -1, None),  # before the schedule began
        ("daily", [], 8, 8),  # today
        ("daily", [], 9, None),  # still to come for the client
        ("daily", [], 15, None),  # after the schedule ended
        ("weekly", [0], 5, 0),  # its week's slot, the Monday
        ("weekly", [3], 1, None),  # before the first Thursday
        ("weekly", [3], 7, 3),  # the week from the first Thursday
    ],
)
def test_a_logs_entry_counts_for_the_slot_of_the_day_it_happened(
    schedule, weekdays, happened, slot
):
    """Today is Tuesday 10 March; the schedule runs from Monday 2 to Friday 13."""
    plan = Plan(schedule, MONDAY, MONDAY + dt.timedelta(days=11), weekdays=weekdays)
    found = schedules.slot_for_happened(
        plan,
        happened_on=MONDAY + dt.timedelta(days=happened),
        today=MONDAY + dt.timedelta(days=8),
    )
    assert found == (None if slot is None else MONDAY + dt.timedelta(days=slot))


def test_a_weekly_slot_lasts_until_the_next_one():
    plan = Plan("weekly", MONDAY, MONDAY + dt.timedelta(days=27), weekdays=[0])
    wednesday = MONDAY + dt.timedelta(days=2)
    assert schedules.slot_for(plan, wednesday) == MONDAY
    assert schedules.slot_for(plan, MONDAY + dt.timedelta(days=7)) == MONDAY + dt.timedelta(days=7)
    assert schedules.next_slot_after(plan, wednesday) == MONDAY + dt.timedelta(days=7)


def test_before_the_start_there_is_no_slot_and_after_the_end_the_last_stays_open():
    plan = Plan("daily", MONDAY, MONDAY + dt.timedelta(days=6))
    assert schedules.slot_for(plan, MONDAY - dt.timedelta(days=1)) is None
    assert schedules.slot_for_new_entry(plan, MONDAY - dt.timedelta(days=1)) == MONDAY
    assert schedules.slot_for(plan, MONDAY + dt.timedelta(days=40)) == MONDAY + dt.timedelta(days=6)
    assert schedules.next_slot_after(plan, MONDAY + dt.timedelta(days=6)) is None


def test_a_one_off_has_no_slots():
    plan = Plan("once", MONDAY, None)
    assert list(schedules.slots(plan)) == []
    assert schedules.slot_for(plan, MONDAY) is None
    assert schedules.occurrence(plan, today=MONDAY, done_slots=set()) is None


def test_occurrence_says_whether_todays_slot_is_done():
    plan = Plan("daily", MONDAY, MONDAY + dt.timedelta(days=6))
    tuesday = MONDAY + dt.timedelta(days=1)
    assert schedules.occurrence(plan, today=tuesday, done_slots={MONDAY}) == schedules.Occurrence(
        on=tuesday, done=False, next_on=tuesday + dt.timedelta(days=1)
    )
    assert schedules.occurrence(plan, today=tuesday, done_slots={tuesday}).done  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("today", "last"),
    [
        (MONDAY - dt.timedelta(days=3), False),  # not started: no slot yet
        (MONDAY, False),
        (MONDAY + dt.timedelta(days=9), False),  # Wednesday: the next Monday is the last
        (MONDAY + dt.timedelta(days=14), True),  # the last Monday itself
        (MONDAY + dt.timedelta(days=16), True),  # its Wednesday, before the schedule ends
        (MONDAY + dt.timedelta(days=40), True),  # weeks after the end: still offered
    ],
)
def test_occurrence_says_when_the_slot_offered_is_the_last_one(today, last):
    plan = Plan("weekly", MONDAY, MONDAY + dt.timedelta(days=20), weekdays=[0])
    found = schedules.occurrence(plan, today=today, done_slots=set())
    assert found is not None and found.is_last is last


def test_occurrence_says_when_the_schedule_has_ended():
    last = MONDAY + dt.timedelta(days=6)
    plan = Plan("daily", MONDAY, last)
    on_its_last_day = schedules.occurrence(plan, today=last, done_slots=set())
    the_day_after = schedules.occurrence(plan, today=last + dt.timedelta(days=1), done_slots=set())
    assert on_its_last_day is not None and not on_its_last_day.ended
    assert the_day_after is not None and the_day_after.ended


LAST = MONDAY + dt.timedelta(days=6)  # a Sunday: daily work's last day
LATER = LAST + dt.timedelta(days=9)


@pytest.mark.parametrize(
    ("today", "done_slots", "sent", "is_log", "done"),
    [
        (MONDAY, {MONDAY}, 1, False, False),  # more to come
        (LAST, set(), 3, False, False),  # the last slot is open, nothing sent for it
        (LAST, {LAST}, 4, False, True),  # the last slot sent for: nothing left to offer
        (LATER, {LAST}, 4, False, True),
        (LATER, {MONDAY}, 1, False, False),  # the last still open for late work
        (LAST, {LAST}, 4, True, False),  # a log: more may come until its end date has passed
        (LATER, set(), 2, True, True),  # as a one-off log past its due date
        (LATER, set(), 0, True, False),  # nothing sent is never done
    ],
)
def test_the_one_rule_for_when_recurring_work_is_done(today, done_slots, sent, is_log, done):
    plan = Plan("daily", MONDAY, LAST)
    found = schedules.occurrence(plan, today=today, done_slots=done_slots, is_log=is_log)
    assert found is not None
    assert schedules.recurring_done(found, sent=sent) is done


@given(
    schedule=st.sampled_from(["daily", "weekly", "fortnightly", "once"]),
    start=st.dates(min_value=dt.date(2020, 1, 1), max_value=dt.date(2030, 1, 1)),
    length=st.integers(min_value=0, max_value=800),
    weekdays=st.sets(st.integers(min_value=0, max_value=6)),
    window=st.tuples(
        st.integers(min_value=-30, max_value=830), st.integers(min_value=-30, max_value=830)
    ),
)
def test_counting_slots_agrees_with_walking_them(schedule, start, length, weekdays, window):
    ends_on = None if schedule == "once" else start + dt.timedelta(days=length)
    plan = Plan(schedule, start, ends_on, weekdays=sorted(weekdays))
    since, until = (start + dt.timedelta(days=offset) for offset in window)
    walked = sum(1 for _ in schedules.slots(plan, start=since, end=until))
    assert schedules.count_slots(plan, start=since, end=until) == walked


def test_a_schedule_years_long_is_counted_at_once():
    plan = Plan("weekly", MONDAY, dt.date(9999, 12, 31), weekdays=[0, 3])
    # Monday 2 March 2026 to 31 December 9999, Mondays and Thursdays (counted by walking once).
    assert schedules.count_slots(plan, start=MONDAY, end=dt.date(9999, 12, 31)) == 832_110


@given(
    start=st.dates(min_value=dt.date(2020, 1, 1), max_value=dt.date(2030, 1, 1)),
    length=st.integers(min_value=0, max_value=366),
    weekdays=st.sets(st.integers(min_value=0, max_value=6), min_size=1),
    day_offset=st.integers(min_value=-10, max_value=400),
)
def test_the_slot_for_any_day_is_the_latest_slot_on_or_before_it(
    start, length, weekdays, day_offset
):
    plan = Plan("weekly", start, start + dt.timedelta(days=length), weekdays=sorted(weekdays))
    day = start + dt.timedelta(days=day_offset)
    earlier = [slot for slot in schedules.slots(plan) if slot <= day]
    assert schedules.slot_for(plan, day) == (earlier[-1] if earlier else None)


# -- the rules, shared by the admin and any other caller through full_clean

# New work starts no more than a month back (homework.models.START_BEHIND_DAYS):
# the rules are tried on this week's Monday.
RECENT_MONDAY = timezone.localdate() - dt.timedelta(days=timezone.localdate().weekday())


def make(cast, **details):
    values = {
        "starts_on": RECENT_MONDAY,
        "due_on": None,
        "schedule": "once",
        "weekdays": [],
        "ends_on": None,
        **details,
    }
    return services.assignment_create(
        actor=cast.tara, client=cast.alice, exercise=ExerciseFactory.create(), **values
    )


@pytest.mark.parametrize(
    ("details", "field", "message"),
    [
        (
            {
                "schedule": "weekly",
                "weekdays": [7],
                "ends_on": RECENT_MONDAY + dt.timedelta(days=30),
            },
            "weekdays",
            "from 0 (Monday) to 6 (Sunday)",
        ),
        (
            {
                "schedule": "weekly",
                "weekdays": ["mon"],
                "ends_on": RECENT_MONDAY + dt.timedelta(days=30),
            },
            "weekdays",
            "from 0 (Monday) to 6 (Sunday)",
        ),
        (
            {
                "schedule": "daily",
                "weekdays": [1],
                "ends_on": RECENT_MONDAY + dt.timedelta(days=30),
            },
            "weekdays",
            "only for a weekly or fortnightly schedule",
        ),
        (
            {"schedule": "daily", "ends_on": RECENT_MONDAY - dt.timedelta(days=1)},
            "ends_on",
            "cannot end before it starts",
        ),
        (
            {
                "schedule": "daily",
                "ends_on": RECENT_MONDAY + dt.timedelta(days=3),
                "due_on": RECENT_MONDAY,
            },
            "due_on",
            "leave this empty",
        ),
        (
            {"ends_on": RECENT_MONDAY + dt.timedelta(days=3)},
            "ends_on",
            "has a due date, not an end date",
        ),
        (
            {"due_on": RECENT_MONDAY - dt.timedelta(days=1)},
            "due_on",
            "cannot be before the start date",
        ),
        (
            {
                "schedule": "weekly",
                "weekdays": [2, 2],
                "ends_on": RECENT_MONDAY + dt.timedelta(days=30),
            },
            "weekdays",
            "chosen once",
        ),
    ],
)
def test_schedule_mistakes_get_a_message_on_the_field_and_nothing_is_saved(
    cast, details, field, message
):
    before = Assignment.objects.count()
    with pytest.raises(ValidationError) as caught:
        make(cast, **details)
    assert any(message in text for text in caught.value.message_dict[field]), (
        caught.value.message_dict
    )
    assert Assignment.objects.count() == before


def test_weekdays_are_kept_in_order(cast):
    assignment = make(
        cast, schedule="weekly", weekdays=[4, 0], ends_on=RECENT_MONDAY + dt.timedelta(days=30)
    )
    assert assignment.weekdays == [0, 4]


# -- entries land in their slot, on the client's calendar


@pytest.mark.clock
def test_a_recurring_entry_belongs_to_the_slot_it_was_started_in(cast):
    today = timezone.localdate()
    assignment = daily_assignment(
        cast.alice, starts_on=today - dt.timedelta(days=3), ends_on=today + dt.timedelta(days=3)
    )
    entry = submit_written_record(assignment)
    assert entry.occurrence_on == today
    assert cast.alice_entry.occurrence_on is None  # one-off work has no slot


def test_the_slot_follows_the_clients_time_zone_not_the_servers(cast):
    # Late evening in London is already tomorrow in Auckland.
    cast.alice.timezone = "Pacific/Auckland"
    cast.alice.save()
    now = timezone.now()
    auckland_today = timezone.localdate(now, timezone=zoneinfo.ZoneInfo("Pacific/Auckland"))
    assignment = daily_assignment(
        cast.alice,
        starts_on=auckland_today - dt.timedelta(days=3),
        ends_on=auckland_today + dt.timedelta(days=3),
    )
    entry = services.entry_save_draft(
        user=cast.alice.portal_user,
        assignment_id=assignment.pk,
        key=uuid.uuid4(),
        base_version=0,
        data={"what_happened": "x"},
        flags=Flags(),
    )
    assert entry.occurrence_on == auckland_today
    assert Entry.objects.get(pk=entry.pk).occurrence_on == auckland_today


@pytest.mark.parametrize(
    ("schedule", "weekdays", "words"),
    [
        ("daily", [], "2 of 5 days"),
        ("weekly", [6], "2 of 5 weeks"),
        ("weekly", [0, 3], "2 of 5 check-ins"),
    ],
)
def test_a_tally_is_counted_in_the_schedules_own_unit(schedule, weekdays, words):
    plan = Plan(schedule, MONDAY, MONDAY + dt.timedelta(days=60), weekdays)
    tally = schedules.Tally(done=2, expected=5, unit=schedules.unit(plan))
    assert str(tally) == words


# -- while none is due yet: when the first one is, or that it was sent


def so_far_words(plan, *, today, start=MONDAY, latest_filed=None) -> str:
    """The words for ``plan`` as of ``today``, with nothing sent up to today
    and something filed under ``latest_filed`` (a slot after today's count)."""
    return str(
        schedules.tally_so_far(
            plan,
            start=start,
            today=today,
            days_sent=0,
            latest_sent=None,
            latest_filed=latest_filed,
        )
    )


@pytest.mark.parametrize(
    ("schedule", "weekdays", "first"),
    [("daily", [], "Mon 2 Mar"), ("weekly", [6], "Sun 8 Mar"), ("weekly", [0, 3], "Mon 2 Mar")],
)
def test_a_tally_with_nothing_due_yet_says_when_the_first_is_rather_than_0_of_0(
    schedule, weekdays, first
):
    # A weekly check-in whose first slot in the period is still open printed
    # "Weekly check-in — 0 of 0 weeks" in the summary, then "none due yet",
    # which told the therapist nothing of when it would be.
    plan = Plan(schedule, MONDAY, MONDAY + dt.timedelta(days=60), weekdays)
    words = so_far_words(plan, today=MONDAY)
    assert words.startswith(f"first one due {first}")  # the year too, in another year
    assert "0 of 0" not in words


def test_before_the_first_slot_the_words_name_its_day():
    plan = Plan("weekly", MONDAY, MONDAY + dt.timedelta(days=60), [3])  # Thursdays
    assert so_far_words(plan, today=MONDAY).startswith("first one due Thu 5 Mar")


def test_work_sent_early_for_the_first_slot_says_so_not_none_due():
    """The portal files it under Thursday's slot (slot_for_new_entry): not
    counted until Thursday's time is over, but not nothing either."""
    plan = Plan("weekly", MONDAY, MONDAY + dt.timedelta(days=60), [3])
    thursday = dt.date(2026, 3, 5)
    assert so_far_words(plan, today=MONDAY, latest_filed=thursday) == "first one sent early"


def test_a_first_slot_sent_for_after_the_count_stops_is_sent_not_early():
    """A summary for a session on the first slot's day counts through the eve
    (Period.as_of): what the client sent that morning is sent, on its day."""
    plan = Plan("weekly", MONDAY, MONDAY + dt.timedelta(days=60), [0])
    assert so_far_words(plan, today=MONDAY, latest_filed=MONDAY) == "first one sent"


def test_an_open_first_slot_with_nothing_sent_says_since_when_not_due_a_day_gone_by():
    """Monday's check-in is open until next Monday: "due Mon 2 Mar" read on
    the Wednesday would look late, and it is not."""
    plan = Plan("weekly", MONDAY, MONDAY + dt.timedelta(days=60), [0])
    wednesday = MONDAY + dt.timedelta(days=2)
    assert so_far_words(plan, today=wednesday).startswith("first one open since Mon 2 Mar")
    assert so_far_words(plan, today=MONDAY).startswith("first one due Mon 2 Mar")


def test_a_period_begun_mid_schedule_names_the_next_one_not_the_first():
    # Mondays; a summary from Tuesday 3 March, Monday 2's settled before it.
    plan = Plan("weekly", MONDAY, MONDAY + dt.timedelta(days=60), [0])
    tuesday = MONDAY + dt.timedelta(days=1)
    wednesday = MONDAY + dt.timedelta(days=2)
    assert so_far_words(plan, today=wednesday, start=tuesday).startswith("next one due Mon 9 Mar")


def test_with_no_slot_left_to_come_nothing_is_due():
    plan = Plan("weekly", MONDAY, MONDAY + dt.timedelta(days=5), [0])  # one Monday
    tuesday = MONDAY + dt.timedelta(days=1)
    assert so_far_words(plan, today=tuesday, start=tuesday) == "none due yet"


def test_once_a_slot_is_due_the_count_reads_as_before_whatever_was_sent_early():
    plan = Plan("weekly", MONDAY, MONDAY + dt.timedelta(days=60), [0])
    after_two = MONDAY + dt.timedelta(days=14)  # Mondays 2 and 9 over, 16 open
    tally = schedules.tally_so_far(
        plan,
        start=MONDAY,
        today=after_two,
        days_sent=1,
        latest_sent=MONDAY,
        latest_filed=MONDAY + dt.timedelta(days=21),
    )
    assert str(tally) == "1 of 2 weeks"


def test_a_tally_never_holds_more_done_than_expected():
    plan = Plan("weekly", MONDAY, MONDAY + dt.timedelta(days=60), [6])  # first slot: Sunday
    assert schedules.tally(plan, start=MONDAY, end=MONDAY, days_sent=1) == schedules.Tally(
        done=0, expected=0, unit="weeks"
    )


@given(
    offset=st.integers(min_value=-10, max_value=40),
    length=st.integers(min_value=0, max_value=30),
    weekdays=st.sets(st.integers(min_value=0, max_value=6), min_size=1),
)
def test_the_slot_still_open_is_the_one_the_portal_offers_until_its_time_is_over(
    offset, length, weekdays
):
    """open_slot (what counting waits for) is slot_for (what the portal offers
    and files work under) while the schedule runs; after it, only until the
    schedule would have come round again."""
    ends_on = MONDAY + dt.timedelta(days=length)
    plan = Plan("weekly", MONDAY, ends_on, sorted(weekdays))
    day = MONDAY + dt.timedelta(days=offset)
    still_open = schedules.open_slot(plan, day)
    if day <= ends_on:
        assert still_open == schedules.slot_for(plan, day)
    elif still_open is not None:
        assert still_open == schedules.slot_for(plan, day)
        assert all(
            (still_open + dt.timedelta(days=n)).weekday() not in weekdays
            for n in range(1, (day - still_open).days + 1)
        )


@given(today=st.integers(min_value=-3, max_value=40), sent=st.booleans())
def test_daily_work_is_due_at_the_end_of_its_day(today, sent):
    ends_on = MONDAY + dt.timedelta(days=30)
    plan = Plan("daily", MONDAY, ends_on)
    day = MONDAY + dt.timedelta(days=today)
    so_far = schedules.tally_so_far(
        plan,
        start=MONDAY,
        today=day,
        days_sent=0,
        latest_sent=day if sent else None,
        latest_filed=day if sent else None,
    )
    through = day if sent and MONDAY <= day <= ends_on else day - dt.timedelta(days=1)
    assert so_far.expected == schedules.count_slots(plan, start=MONDAY, end=through)
