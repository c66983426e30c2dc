"""The ready-made exercise library every practice starts with.

Loaded by a data migration, and by ``seed_demo`` on a database that was
emptied. The practice owns these rows once they exist: ``install`` adds an
exercise only when no exercise has its title, so an edited (or renamed and
re-added) exercise is never overwritten. A later release adds new
exercises here and calls ``install`` again from a new migration.

``install`` takes the model class, so a migration can pass its historical
model; it sets only the fields every version of Exercise has.

The exercises are kept by kind family: those whose kind brings its whole
form (``fixed_forms``) and the worksheets, whose questions are their options
(``worksheets``), in the order they were always installed, then the
standard measures (``measures``), worksheets asked exactly as published.
"""

from typing import Any

from homework.library.fixed_forms import FIXED_FORMS
from homework.library.item import LibraryExercise
from homework.library.measures import MEASURES
from homework.library.worksheets import WORKSHEETS

LIBRARY: list[LibraryExercise] = [*FIXED_FORMS, *WORKSHEETS, *MEASURES]


def install(exercise_model: Any) -> int:
    """Add the library's exercises whose titles are not taken. Returns how many."""
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
