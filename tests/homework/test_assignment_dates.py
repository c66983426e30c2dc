"""An assignment's dates stay within what a therapist could mean.

A far-off end date (a year typed as 9999) or a start years back are slips
of the keyboard: refused on their own field, nothing saved. Work already
stored keeps its dates, so it can still be cancelled or reworded.
"""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from homework import services
from homework.models import MAX_SCHEDULE_DAYS, START_BEHIND_DAYS, Assignment
from tests.conftest import login
from tests.factories import AssignmentFactory, ExerciseFactory, daily_assignment
from tests.helpers import assignment_form

ADD = "admin:homework_assignment_add"


def _errors_on_add(cast, **overrides):
    exercise = ExerciseFactory.create()
    response = login(cast.tara).post(
        reverse(ADD), assignment_form(cast, cast.alice, exercise, **overrides)
    )
    assert response.status_code == 200
    assert not Assignment.objects.filter(exercise=exercise).exists()
    return response.context["adminform"].form.errors


def test_an_end_date_in_the_year_9999_is_refused_on_its_field(cast):
    errors = _errors_on_add(cast, schedule="daily", due_on="", ends_on="9999-12-31")
    assert "at most two years" in errors["ends_on"][0]


def test_a_due_date_years_away_is_refused_on_its_field(cast):
    far = timezone.localdate() + dt.timedelta(days=MAX_SCHEDULE_DAYS + 1)
    errors = _errors_on_add(cast, due_on=far.isoformat())
    assert "at most two years" in errors["due_on"][0]


def test_a_schedule_of_two_years_is_accepted(cast):
    today = timezone.localdate()
    assignment = services.assignment_create(
        actor=cast.tara,
        client=cast.alice,
        exercise=ExerciseFactory.create(),
        starts_on=today,
        schedule=Assignment.Schedule.DAILY,
        ends_on=today + dt.timedelta(days=MAX_SCHEDULE_DAYS),
    )
    assert assignment.pk


def test_a_new_assignment_starting_in_2020_is_refused_on_its_field(cast):
    errors = _errors_on_add(cast, starts_on="2020-01-01", due_on="2020-01-08")
    assert "start date from" in errors["starts_on"][0]


def test_a_start_years_ahead_is_refused_on_its_field(cast):
    later = timezone.localdate() + dt.timedelta(days=3 * 365)
    errors = _errors_on_add(
        cast, starts_on=later.isoformat(), due_on=(later + dt.timedelta(days=7)).isoformat()
    )
    assert "start date by" in errors["starts_on"][0]


def test_a_new_assignment_may_start_a_little_in_the_past(cast):
    start = timezone.localdate() - dt.timedelta(days=START_BEHIND_DAYS)
    assignment = services.assignment_create(
        actor=cast.tara,
        client=cast.alice,
        exercise=ExerciseFactory.create(),
        starts_on=start,
        due_on=start + dt.timedelta(days=7),
    )
    assert assignment.starts_on == start


def test_old_work_can_still_be_cancelled_and_reworded(cast):
    """Stored before the bounds (or simply long ago): its dates are left as they are."""
    old = daily_assignment(cast.alice, starts_on=dt.date(2020, 1, 1), ends_on=dt.date(9999, 12, 31))
    services.assignment_update(
        actor=cast.tara,
        assignment=old,
        instructions="Only if it helps.",
        status=Assignment.Status.CANCELLED,
    )
    old.refresh_from_db()
    assert old.status == Assignment.Status.CANCELLED


def test_old_work_can_have_its_end_brought_in_but_not_pushed_years_out(cast):
    today = timezone.localdate()
    old = daily_assignment(
        cast.alice, starts_on=today - dt.timedelta(days=200), ends_on=today + dt.timedelta(days=10)
    )
    services.assignment_update(
        actor=cast.tara, assignment=old, ends_on=today + dt.timedelta(days=30)
    )
    with pytest.raises(ValidationError) as refused:
        services.assignment_update(
            actor=cast.tara, assignment=old, ends_on=today + dt.timedelta(days=3 * 365)
        )
    assert "ends_on" in refused.value.message_dict
    old.refresh_from_db()
    assert old.ends_on == today + dt.timedelta(days=30)


def test_old_work_cannot_have_its_start_moved_further_back(cast):
    old = AssignmentFactory.create(client=cast.alice, starts_on=dt.date(2024, 6, 1), due_on=None)
    with pytest.raises(ValidationError) as refused:
        services.assignment_update(actor=cast.tara, assignment=old, starts_on=dt.date(2020, 1, 1))
    assert "starts_on" in refused.value.message_dict
