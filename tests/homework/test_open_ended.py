"""Recurring work may run "until I stop it": no end date. Nothing walks to
infinity (every count is bounded by today or the period asked for), the
therapist can end it later, and the words say it keeps going."""

import datetime as dt
from types import SimpleNamespace

import pytest
from django.urls import reverse

from homework import schedules
from homework.models import Assignment
from homework.schedules.slot_dates import OPEN_ENDED_HORIZON_DAYS
from homework.selectors import Progress, client_today, completion, with_progress
from homework.services import assignment_update
from homework.workspace.display import schedule_text
from tests.conftest import login
from tests.factories import EntryFactory, daily_assignment
from tests.homework.test_weekly_slots import summary

START = dt.date(2026, 3, 2)  # a Monday


def open_ended(schedule: str = "daily", weekdays=()) -> SimpleNamespace:
    return SimpleNamespace(
        schedule=schedule, starts_on=START, ends_on=None, weekdays=list(weekdays)
    )


def test_slots_of_open_ended_work_are_found_far_ahead_and_counted_not_walked():
    daily, mondays = open_ended(), open_ended("weekly", [0])
    far = START + dt.timedelta(days=5000)
    assert schedules.slot_for(daily, far) == far
    assert schedules.slot_for(mondays, far) == far - dt.timedelta(days=far.weekday())
    assert schedules.next_slot_after(daily, far) == far + dt.timedelta(days=1)
    assert schedules.count_slots(daily, start=START, end=far) == 5001
    assert schedules.count_slots(mondays, start=START, end=START + dt.timedelta(days=13)) == 2
    # Asked with no end, a walk stops at the horizon, never at infinity.
    assert len(list(schedules.slots(daily))) == OPEN_ENDED_HORIZON_DAYS + 1
    occurrence = schedules.occurrence(daily, today=far, done_slots=set())
    assert occurrence is not None and not occurrence.ended and not occurrence.is_last


@pytest.mark.django_db
def test_the_assign_rules_take_no_end_date_and_it_can_be_ended_years_later(cast):
    today = client_today(cast.alice)
    work = daily_assignment(cast.alice, ends_on=None, starts_on=today)
    work.full_clean()  # no "choose the last day": it runs until it is ended
    Assignment.objects.filter(pk=work.pk).update(starts_on=today - dt.timedelta(days=1000))
    work.refresh_from_db()
    ended = assignment_update(actor=cast.tara, assignment=work, ends_on=today)
    ended.refresh_from_db()
    assert ended.ends_on == today


@pytest.mark.django_db
def test_progress_counts_open_ended_work_to_today_with_no_total(cast):
    today = client_today(cast.alice)
    work = daily_assignment(cast.alice, ends_on=None, starts_on=today - dt.timedelta(days=9))
    for n in (9, 8, 7):
        EntryFactory.create(assignment=work, occurrence_on=today - dt.timedelta(days=n))
    annotated = with_progress(Assignment.objects.filter(pk=work.pk), today=today).get()
    progress = completion(annotated, today=today)
    assert progress.state == Progress.OPEN and progress.open_ended
    assert (progress.done, progress.due_so_far) == (3, 9)
    # The summary's period count includes it, bounded by the period.
    assert summary(cast, work, today) == (3, 9)
    assert schedule_text(work) == "Every day, until you end it"


@pytest.mark.django_db
def test_the_portal_says_open_ended_work_keeps_coming_round(cast):
    today = client_today(cast.alice)
    daily_assignment(cast.alice, ends_on=None, starts_on=today)
    page = login(cast.alice.portal_user).get(reverse("homework:dashboard")).text
    assert "This keeps coming round until you and your therapist decide to stop." in page
    # A log (the factory's written record) with no end: never "until" a date, never "the last one".
    assert "Whenever it comes" in page and "the last one" not in page


@pytest.mark.django_db
def test_the_therapist_ends_open_ended_work_today_and_it_is_logged(cast):
    from django.contrib.admin.models import LogEntry

    today = client_today(cast.alice)
    work = daily_assignment(cast.alice, ends_on=None, starts_on=today)
    theirs = daily_assignment(cast.bob, ends_on=None, starts_on=today)
    url = reverse("admin:homework_assignment_changelist")
    chosen = [work.pk, cast.alice_assignment.pk, theirs.pk]
    response = login(cast.tara).post(
        url, {"action": "end_today", "_selected_action": chosen}, follow=True
    )
    assert "1 piece of work ends today." in response.text
    for assignment in (work, theirs, cast.alice_assignment):
        assignment.refresh_from_db()
    assert work.ends_on == today and work.status == Assignment.Status.ACTIVE
    assert theirs.ends_on is None  # another therapist's client: out of reach
    assert cast.alice_assignment.ends_on is None  # one-off work is left as it is
    assert LogEntry.objects.filter(object_id=str(work.pk), user=cast.tara).exists()
    again = login(cast.tara).post(
        url, {"action": "end_today", "_selected_action": [work.pk]}, follow=True
    )
    assert "Nothing was changed" in again.text


@pytest.mark.django_db
def test_the_therapist_reads_open_ended_work_as_a_count_or_its_first_day(cast):
    """ "First one due Sat 5 Dec so far, until you end it" said three things at once."""
    today = client_today(cast.alice)
    begun = daily_assignment(cast.alice, ends_on=None, starts_on=today - dt.timedelta(days=3))
    EntryFactory.create(assignment=begun, occurrence_on=today - dt.timedelta(days=3))
    daily_assignment(cast.alice, ends_on=None, starts_on=today + dt.timedelta(days=2))
    url = reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])
    text = " ".join(login(cast.tara).get(url).text.split())
    assert "1 of 3 days" in text
    assert "First one due" in text
    assert "so far" not in text and "until you end it</span>" not in text
