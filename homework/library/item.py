"""What one ready-made exercise of the library holds: the fields every
version of Exercise has, so a data migration can install it."""

from typing import Any, TypedDict


class LibraryExercise(TypedDict):
    kind: str
    title: str
    instructions: str
    therapist_note: str
    options: dict[str, Any]
