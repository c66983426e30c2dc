"""The portal's home costs the same with one assignment as with fifty, and with one program as
with ten: To do, its programs and "Done recently" read everything in a fixed number of queries."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from homework.selectors import client_today
from homework.services import programs
from tests.conftest import login
from tests.factories import (
    RESPONSES,
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    daily_assignment,
    options_for,
)
from tests.helpers_entries import submit_written_record
from tests.helpers_program_pages import on_program, step_work

pytestmark = pytest.mark.django_db

KINDS = ("worksheet", "safety_plan", "urge_log", "support_network")


def add_work(cast, n: int) -> None:
    """A one-off sent, a daily one sent for today, an open-ended one, by turns."""
    today = client_today(cast.alice)
    slug = KINDS[n % len(KINDS)]
    exercise = ExerciseFactory.create(kind=slug, title=f"Work {n}", options=options_for(slug))
    if n % 3 == 0:
        assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    else:
        assignment = daily_assignment(
            cast.alice,
            exercise=exercise,
            starts_on=today - dt.timedelta(days=5),
            ends_on=None if n % 3 == 2 else today + dt.timedelta(days=5),
        )
    EntryFactory.create(assignment=assignment, response=RESPONSES[slug](), occurrence_on=today)


def queries(http) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert http.get(reverse("homework:dashboard")).status_code == 200
    return len(captured)


def test_to_do_costs_the_same_at_one_assignment_and_fifty(cast):
    http = login(cast.alice.portal_user)
    add_work(cast, 1)  # recurring: its slots are read in one more query, at one as at fifty
    queries(http)  # the session's first request does its own bookkeeping
    one = queries(http)
    for n in range(2, 51):
        add_work(cast, n)
    assert queries(http) == one


def test_to_do_costs_the_same_at_one_program_and_ten(cast):
    http = login(cast.alice.portal_user)
    on_program(cast, title="Program 0")
    queries(http)  # the session's first request does its own bookkeeping
    one = queries(http)
    for n in range(1, 10):
        client_program = on_program(cast, title=f"Program {n}")
        if n % 2:
            programs.client_program_pause(actor=cast.tara, client_program_id=client_program.pk)
        else:
            submit_written_record(step_work(client_program, 1))
    assert queries(http) == one
