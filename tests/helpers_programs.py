"""Programs for tests: one built through the service, as the admin builds it."""

from homework.models import Program
from homework.services import programs
from homework.services.programs import StepData
from practice.models import User
from tests.factories import ExerciseFactory


def build(
    owner: User, *rules: tuple[str, int | None], required: set[int] | tuple[()] = ()
) -> Program:
    """A program of the owner's with one step per (release, days) rule."""
    program = Program.objects.create(title="Understanding the pull", owner=owner)
    steps = [
        StepData(
            exercise=ExerciseFactory.create(),
            release=release,
            days=days,
            required=number in required,
        )
        for number, (release, days) in enumerate(rules, 1)
    ]
    return programs.program_steps_save(actor=owner, program=program, steps=steps, revision=0)
