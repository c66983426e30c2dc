"""The ready-made exercise library every practice starts with, loaded by a data migration. The
practice owns these rows once they exist: an exercise whose title is taken is never overwritten.
``install`` takes the model class, so a migration can pass its historical model. Each other
language's library gives the same exercises in its words, linked to the English ones."""

from typing import Any

from homework.library.es import SPANISH
from homework.library.fixed_forms import FIXED_FORMS
from homework.library.item import LibraryExercise
from homework.library.measures import MEASURES
from homework.library.readings import READINGS
from homework.library.worksheets import WORKSHEETS

LIBRARY: list[LibraryExercise] = [*FIXED_FORMS, *WORKSHEETS, *MEASURES, *READINGS]
# By language, each exercise under the title of the English one it gives.
TRANSLATED: dict[str, dict[str, LibraryExercise]] = {"es": SPANISH}
SOURCE_LANGUAGE = "en-gb"


def install(exercise_model: Any) -> int:
    """Returns how many were added."""
    return sum(_added(exercise_model, item) for item in LIBRARY)


def install_translations(exercise_model: Any) -> int:
    """Each linked to the practice's English exercise of that title; returns how many were added."""
    added = 0
    for language, items in TRANSLATED.items():
        for source_title, item in items.items():
            source = (
                exercise_model.objects.filter(
                    owner=None, title=source_title, language=SOURCE_LANGUAGE
                )
                .order_by("-pk")
                .first()
            )
            added += _added(exercise_model, item, language=language, translation_of=source)
    return added


def _added(exercise_model: Any, item: LibraryExercise, **more: Any) -> int:
    """1 when added; 0 when the title is taken (the practice's row stays as it is)."""
    if exercise_model.objects.filter(title=item["title"]).exists():
        return 0
    exercise_model.objects.create(
        kind=item["kind"],
        title=item["title"],
        instructions=item["instructions"],
        therapist_note=item["therapist_note"],
        options=item["options"],
        owner=None,
        is_active=True,
        **more,
    )
    return 1
