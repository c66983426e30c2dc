"""Programs on the real services: two releases at once on PostgreSQL make one assignment per
step, and a real worker releases a day-3 step once, in the client's time zone."""

import datetime as dt
import time

import pytest
import time_machine
from django.db import connection
from django.utils import timezone

from clients.models import Client
from homework.models import ClientProgram, ClientProgramStep, Program, Release
from homework.selectors import client_today
from homework.services import programs
from homework.services.programs import StepData
from homework.tasks import release_program_steps
from tests.factories import ExerciseFactory
from tests.helpers_workers import (  # noqa: F401 (fixtures)
    row_locked,
    start,
    until_waiting,
    worker_queue,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def day_three_program(cast, *, zone: str) -> ClientProgram:
    """Alice on a program whose second step comes on day 3, made yesterday: it is due today."""
    Client.objects.filter(pk=cast.alice.pk).update(timezone=zone)
    cast.alice.refresh_from_db()
    program = Program.objects.create(title="Understanding the pull", owner=cast.tara)
    programs.program_steps_save(
        actor=cast.tara,
        program=program,
        steps=[
            StepData(exercise=ExerciseFactory.create(), release=Release.RIGHT_AWAY),
            StepData(exercise=ExerciseFactory.create(), release=Release.ON_DAY, days=3),
        ],
        revision=0,
    )
    yesterday = timezone.now() - dt.timedelta(days=1)
    with time_machine.travel(yesterday, tick=False):
        return programs.client_program_create(
            actor=cast.tara,
            client=cast.alice,
            program=program,
            starts_on=client_today(cast.alice) - dt.timedelta(days=1),
        )


def second_step(client_program: ClientProgram) -> ClientProgramStep:
    return ClientProgramStep.objects.get(client_program=client_program, position=2)


def test_two_releases_at_once_make_one_assignment_per_step(cast):
    client_program = day_three_program(cast, zone="Europe/London")
    release = lambda: programs.client_program_release(client_program_id=client_program.pk)  # noqa: E731
    lock = lambda: list(Client.objects.select_for_update().filter(pk=cast.alice.pk))  # noqa: E731
    with row_locked(lock):
        both = [start("release 1", release), start("release 2", release)]
        until_waiting(len(both))
    results = sorted(request.finish().result for request in both)
    assert [request.error for request in both] == [None, None]
    assert results == [0, 1]
    connection.close()
    assert second_step(client_program).assignment is not None
    assert cast.alice.assignments.count() == 3  # the cast's own and two steps


def test_a_real_worker_releases_a_day_three_step_once(cast, worker_queue):  # noqa: F811
    client_program = day_three_program(cast, zone="America/New_York")
    assert second_step(client_program).assignment is None
    release_program_steps.delay()
    deadline = time.monotonic() + 60
    while second_step(client_program).assignment is None:
        assert time.monotonic() < deadline, "the worker never released the step"
        assert worker_queue.poll() is None, (
            worker_queue.stdout.read() if worker_queue.stdout else ""
        )
        time.sleep(0.25)
    assignment = second_step(client_program).assignment
    assert assignment is not None
    assert assignment.starts_on == client_today(cast.alice)
    assert programs.programs_release_due() == 0
    assert cast.alice.assignments.count() == 3
