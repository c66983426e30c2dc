"""The ready-made programs: installed from the library, each step a shared library exercise."""

import pytest

from homework.library.es import PROGRAMS as SPANISH_PROGRAMS
from homework.library.es.programs import SPANISH_TITLES
from homework.library.programs import PROGRAMS, install_programs
from homework.models import Exercise, Program, ProgramStep, Release

pytestmark = pytest.mark.django_db


def test_the_migration_installed_both_programs_with_every_step():
    for program in PROGRAMS:
        installed = Program.objects.get(title=program["title"], owner=None)
        steps = list(installed.steps.select_related("exercise"))
        assert [step.exercise.title for step in steps] == [
            item["exercise"] for item in program["steps"]
        ]
        for step in steps:
            step.full_clean()
            assert step.release in Release.values


def test_installing_again_adds_nothing_and_a_missing_exercise_skips_the_program():
    assert install_programs(Program, ProgramStep, Exercise) == 0
    Program.objects.all().delete()
    Exercise.objects.filter(title="My safety plan").update(is_active=False)
    assert install_programs(Program, ProgramStep, Exercise) == 1
    assert Program.objects.get().title == PROGRAMS[0]["title"]


def test_the_spanish_programs_are_the_english_ones_step_for_step():
    for english, spanish in zip(PROGRAMS, SPANISH_PROGRAMS, strict=True):
        assert spanish["title"] != english["title"] and spanish["description"].strip()
        for given, said in zip(english["steps"], spanish["steps"], strict=True):
            assert said["exercise"] == SPANISH_TITLES[given["exercise"]]
            assert (said["release"], said["days"], said["required"]) == (
                given["release"],
                given["days"],
                given["required"],
            )
            assert bool(said["instructions"]) == bool(given["instructions"])
