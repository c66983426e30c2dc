"""The ready-made exercise library every practice starts with, loaded by a data migration. The
practice owns these rows once they exist: an exercise whose title is taken is never overwritten.
``install`` takes the model class, so a migration can pass its historical model."""

from typing import Any

from homework.library.fixed_forms import FIXED_FORMS
from homework.library.item import LibraryExercise
from homework.library.measures import MEASURES
from homework.library.readings import READINGS
from homework.library.worksheets import WORKSHEETS

LIBRARY: list[LibraryExercise] = [*FIXED_FORMS, *WORKSHEETS, *MEASURES, *READINGS]


def install(exercise_model: Any) -> int:
    """Returns how many were added."""
    added = 0
    for item in LIBRARY:
        if exercise_model.objects.filter(title=item["title"]).exists():
            continue
        exercise_model.objects.create(
            kind=item["kind"],
            title=item["title"],
            instructions=item["instructions"],
            therapist_note=item["therapist_note"],
            options=item["options"],
            owner=None,
            is_active=True,
        )
        added += 1
    return added
