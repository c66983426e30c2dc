"""Programs: steps released as ordinary assignments, in order, once, never while paused."""

import datetime as dt

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from clients.models import Client
from homework.models import Assignment, ClientProgram, ClientProgramStep, Program, Release
from homework.selectors import client_today
from homework.selectors.programs import client_programs_with_steps_due
from homework.services import programs
from homework.services.programs import StepData
from tests.factories import ExerciseFactory
from tests.helpers_entries import submit_written_record
from tests.helpers_programs import build

pytestmark = pytest.mark.django_db


def start(cast, program, *, on=None):
    return programs.client_program_create(
        actor=cast.tara, client=cast.alice, program=program, starts_on=on or timezone.localdate()
    )


def released(client_program):
    return [
        step.position
        for step in client_program.steps.order_by("position")
        if step.assignment_id is not None
    ]


def work_of(client_program, position):
    return client_program.steps.get(position=position).assignment


def test_the_first_steps_come_at_once_and_the_next_when_the_one_before_is_sent(cast):
    program = build(
        cast.tara,
        (Release.RIGHT_AWAY, None),
        (Release.RIGHT_AWAY, None),
        (Release.AFTER_PREVIOUS, None),
    )
    client_program = start(cast, program)
    assert released(client_program) == [1, 2]
    assignment = work_of(client_program, 1)
    assert (assignment.client, assignment.schedule) == (cast.alice, Assignment.Schedule.ONCE)
    submit_written_record(work_of(client_program, 1))
    assert released(client_program) == [1, 2]
    submit_written_record(work_of(client_program, 2))
    assert released(client_program) == [1, 2, 3]


def test_a_required_step_holds_back_the_next_whatever_its_rule(cast):
    program = build(cast.tara, (Release.RIGHT_AWAY, None), (Release.RIGHT_AWAY, None), required={1})
    client_program = start(cast, program)
    assert released(client_program) == [1]
    submit_written_record(work_of(client_program, 1))
    assert released(client_program) == [1, 2]


def test_a_step_days_after_the_previous_comes_by_the_beat_in_the_clients_time_zone(cast):
    Client.objects.filter(pk=cast.alice.pk).update(timezone="Pacific/Auckland")
    cast.alice.refresh_from_db()
    program = build(cast.tara, (Release.RIGHT_AWAY, None), (Release.AFTER_PREVIOUS_DAYS, 2))
    client_program = start(cast, program, on=client_today(cast.alice))
    submit_written_record(work_of(client_program, 1))
    done_on = client_program.steps.get(position=1).done_on
    assert done_on == client_today(cast.alice)
    # Midnight in Auckland, two days on: still the day before in London.
    auckland_midnight = dt.datetime.combine(
        done_on + dt.timedelta(days=2), dt.time(0, 5), tzinfo=dt.UTC
    ) - dt.timedelta(hours=13)
    assert programs.programs_release_due(now=auckland_midnight - dt.timedelta(hours=1)) == 0
    assert programs.programs_release_due(now=auckland_midnight + dt.timedelta(hours=1)) == 1
    assert programs.programs_release_due(now=auckland_midnight + dt.timedelta(hours=2)) == 0
    assert released(client_program) == [1, 2]


def test_a_step_on_day_n_comes_on_that_day_across_a_clock_change(cast):
    # Day 3 of a program started the Saturday before the clocks go back in London.
    start_day = dt.date(2027, 10, 30)
    program = build(cast.tara, (Release.RIGHT_AWAY, None), (Release.ON_DAY, 3))
    with time_machine.travel(dt.datetime(2027, 10, 30, 9, tzinfo=dt.UTC), tick=False):
        client_program = start(cast, program, on=start_day)
    with time_machine.travel(dt.datetime(2027, 11, 1, 0, 10, tzinfo=dt.UTC), tick=False):
        assert programs.programs_release_due() == 1
        assert work_of(client_program, 2).starts_on == dt.date(2027, 11, 1)


def test_the_beat_finds_due_programs_in_queries_that_do_not_grow(
    cast, django_assert_max_num_queries
):
    program = build(cast.tara, (Release.RIGHT_AWAY, None), (Release.ON_DAY, 30))
    for _ in range(5):
        client = Client.objects.create(therapist=cast.tara, display_name="C")
        programs.client_program_create(
            actor=cast.tara, client=client, program=program, starts_on=timezone.localdate()
        )
    with django_assert_max_num_queries(2):
        assert client_programs_with_steps_due(now=timezone.now()) == []


def test_nothing_comes_while_paused_and_the_waiting_step_comes_on_resume(cast):
    program = build(cast.tara, (Release.RIGHT_AWAY, None), (Release.AFTER_PREVIOUS, None))
    client_program = start(cast, program)
    programs.client_program_pause(actor=cast.tara, client_program_id=client_program.pk)
    submit_written_record(work_of(client_program, 1))
    assert released(client_program) == [1]
    programs.client_program_resume(actor=cast.tara, client_program_id=client_program.pk)
    assert released(client_program) == [1, 2]


def test_skipping_the_current_step_cancels_its_work_and_moves_on(cast):
    program = build(cast.tara, (Release.RIGHT_AWAY, None), (Release.AFTER_PREVIOUS, None))
    client_program = start(cast, program)
    first = client_program.steps.get(position=1)
    programs.client_program_skip_step(
        actor=cast.tara, client_program_id=client_program.pk, step_id=first.pk
    )
    assert work_of(client_program, 1).status == Assignment.Status.CANCELLED
    assert released(client_program) == [1, 2]


def test_a_stopped_program_releases_nothing_more(cast):
    program = build(cast.tara, (Release.RIGHT_AWAY, None), (Release.AFTER_PREVIOUS, None))
    client_program = start(cast, program)
    programs.client_program_stop(actor=cast.tara, client_program_id=client_program.pk)
    submit_written_record(work_of(client_program, 1))
    assert released(client_program) == [1]
    with pytest.raises(ValidationError):
        programs.client_program_resume(actor=cast.tara, client_program_id=client_program.pk)


def test_the_last_step_done_finishes_the_program(cast):
    client_program = start(cast, build(cast.tara, (Release.RIGHT_AWAY, None)))
    submit_written_record(work_of(client_program, 1))
    client_program.refresh_from_db()
    assert client_program.status == ClientProgram.Status.FINISHED


def test_the_same_program_twice_says_so_and_adds_nothing(cast):
    program = build(cast.tara, (Release.RIGHT_AWAY, None))
    start(cast, program)
    with pytest.raises(ValidationError, match="already on this program"):
        start(cast, program)
    assert ClientProgram.objects.count() == 1
    assert Assignment.objects.filter(client=cast.alice).count() == 2  # the cast's own, and one step


def test_another_therapists_client_or_program_is_refused(cast):
    program = build(cast.tara, (Release.RIGHT_AWAY, None))
    with pytest.raises(PermissionDenied):
        programs.client_program_create(
            actor=cast.tara, client=cast.bob, program=program, starts_on=timezone.localdate()
        )
    with pytest.raises(PermissionDenied):
        programs.client_program_create(
            actor=cast.theo, client=cast.bob, program=program, starts_on=timezone.localdate()
        )
    client_program = start(cast, program)
    with pytest.raises(PermissionDenied):
        programs.client_program_pause(actor=cast.theo, client_program_id=client_program.pk)
    assert not ClientProgram.objects.exclude(pk=client_program.pk).exists()


def test_an_archived_client_gets_no_steps(cast):
    program = build(cast.tara, (Release.RIGHT_AWAY, None), (Release.ON_DAY, 2))
    client_program = start(cast, program)
    Client.objects.filter(pk=cast.alice.pk).update(status=Client.Status.ARCHIVED)
    tomorrow = timezone.now() + dt.timedelta(days=1, hours=1)
    assert programs.programs_release_due(now=tomorrow) == 0
    assert released(client_program) == [1]


@pytest.mark.parametrize(
    ("release", "days", "message"),
    [
        (Release.AFTER_PREVIOUS_DAYS, None, "how many days"),
        (Release.AFTER_PREVIOUS_DAYS, 366, "from 1 to 365"),
        (Release.ON_DAY, 0, "from 1 to 365"),
        (Release.RIGHT_AWAY, 3, "leave this empty"),
    ],
)
def test_a_step_with_bad_days_is_refused_and_the_program_unchanged(cast, release, days, message):
    program = build(cast.tara, (Release.RIGHT_AWAY, None))
    bad = StepData(exercise=ExerciseFactory.create(), release=release, days=days)
    with pytest.raises(ValidationError, match=message):
        programs.program_steps_save(actor=cast.tara, program=program, steps=[bad], revision=1)
    assert program.steps.count() == 1


def test_steps_refuse_an_archived_or_another_therapists_exercise(cast):
    program = build(cast.tara, (Release.RIGHT_AWAY, None))
    for exercise in (
        ExerciseFactory.create(is_active=False),
        ExerciseFactory.create(owner=cast.theo),
    ):
        with pytest.raises(ValidationError):
            programs.program_steps_save(
                actor=cast.tara, program=program, steps=[StepData(exercise=exercise)], revision=1
            )
    assert program.steps.count() == 1


def test_no_steps_and_a_stale_editor_are_refused(cast):
    program = build(cast.tara, (Release.RIGHT_AWAY, None))
    with pytest.raises(ValidationError, match="at least one step"):
        programs.program_steps_save(actor=cast.tara, program=program, steps=[], revision=1)
    with pytest.raises(programs.ProgramChanged):
        programs.program_steps_save(
            actor=cast.tara,
            program=program,
            steps=[StepData(exercise=ExerciseFactory.create())],
            revision=0,
        )
    with pytest.raises(ValidationError, match="no steps"):
        start(cast, Program.objects.create(title="Empty", owner=cast.tara))


def test_a_step_is_released_once_whatever_asks(cast):
    client_program = start(cast, build(cast.tara, (Release.RIGHT_AWAY, None)))
    assert programs.client_program_release(client_program_id=client_program.pk) == 0
    step = client_program.steps.get()
    with pytest.raises(IntegrityError), transaction.atomic():
        ClientProgramStep.objects.create(
            client_program=client_program,
            position=2,
            exercise=step.exercise,
            release=Release.RIGHT_AWAY,
            assignment=step.assignment,
        )


def test_erasing_a_client_takes_their_programs(cast):
    from homework.selectors import client_records_fingerprint
    from homework.services.erasure import client_erase

    start(cast, build(cast.tara, (Release.RIGHT_AWAY, None)))
    client_erase(
        actor=cast.morgan,
        client_id=cast.alice.pk,
        fingerprint=client_records_fingerprint(client_id=cast.alice.pk),
    )
    assert not ClientProgram.objects.exists()
    assert not ClientProgramStep.objects.exists()
