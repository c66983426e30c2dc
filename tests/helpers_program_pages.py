"""A client on a program, built through the real services, for the pages that show where they are."""

import datetime as dt
from typing import Any

from homework.models import Assignment, ClientProgram, Program, Release
from homework.selectors import client_today
from homework.services import programs
from homework.services.programs import StepData
from tests.factories import ExerciseFactory

# The titles of the exercises on the steps, so a page can be searched for the ones to come.
STEP_TITLES = ("Keep the full picture", "When the urge comes", "One small boundary")


def on_program(
    cast: Any,
    *,
    client: Any = None,
    title: str = "Understanding the pull",
    rules: tuple[tuple[str, int | None], ...] = (
        (Release.RIGHT_AWAY, None),
        (Release.AFTER_PREVIOUS, None),
        (Release.AFTER_PREVIOUS, None),
    ),
    starts_on: dt.date | None = None,
) -> ClientProgram:
    """``client`` (Alice by default) on a program of their therapist's, one exercise a rule."""
    client = client or cast.alice
    therapist = client.therapist
    program = Program.objects.create(title=title, owner=therapist)
    steps = [
        StepData(
            exercise=ExerciseFactory.create(title=f"{STEP_TITLES[n % 3]}, step {n + 1}"),
            release=release,
            days=days,
        )
        for n, (release, days) in enumerate(rules)
    ]
    programs.program_steps_save(actor=therapist, program=program, steps=steps, revision=0)
    return programs.client_program_create(
        actor=therapist,
        client=client,
        program=program,
        starts_on=starts_on or client_today(client),
    )


def step_work(client_program: ClientProgram, position: int) -> Assignment:
    """The assignment a released step became."""
    assignment = client_program.steps.get(position=position).assignment
    assert assignment is not None, f"step {position} is not released"
    return assignment


def step_title(client_program: ClientProgram, position: int) -> str:
    return client_program.steps.get(position=position).exercise.title
