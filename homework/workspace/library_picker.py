"""The exercise picker of the assign forms: a native select grouped by the library's shelves, each
item with a line that says what it is. For a client, what they read comes first, each exercise
once: in their language where it has a version in it, else under "In other languages"."""

from collections.abc import Iterator
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.forms.models import ModelChoiceIterator
from django.utils.translation import gettext_lazy as _

from homework.kinds import get_kind
from homework.kinds.shelves import SHELF_ORDER, Shelf
from homework.models import Exercise
from homework.selectors.library_languages import language_name, with_version_in


def shelved(exercise: Exercise) -> tuple[Shelf, str]:
    """Which shelf ``exercise`` sits on, and its option's words: the title and what it is."""
    kind = get_kind(exercise.kind)
    return kind.shelf_of(exercise), f"{exercise.title} — {kind.about_line(exercise)}"


class ShelvedChoiceIterator(ModelChoiceIterator):
    def __iter__(self) -> Iterator[Any]:
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        on_shelf: dict[Shelf, list[tuple[Any, str]]] = {shelf: [] for shelf in SHELF_ORDER}
        elsewhere: list[tuple[Any, str]] = []
        field: LibraryChoiceField = self.field  # type: ignore[assignment]
        language = field.reader_language
        exercises = self.queryset.order_by("title", "pk")
        if language is not None and field.versions_among is not None:
            exercises = with_version_in(exercises, language, among=field.versions_among)
        for exercise in exercises:
            shelf, words = shelved(exercise)
            value = self.choice(exercise)[0]
            if language is None or exercise.language == language:
                on_shelf[shelf].append((value, words))
            elif exercise.version_pk is None or exercise.pk in field.kept:
                # With a version in the reader's language, that version is offered instead,
                # unless this one is the form's own value (set already, or just chosen).
                elsewhere.append((value, f"{words} ({language_name(exercise.language)})"))
        for shelf in SHELF_ORDER:
            if on_shelf[shelf]:
                yield (shelf.label, on_shelf[shelf])
        if elsewhere:
            yield (_("In other languages"), elsewhere)

    def __len__(self) -> int:
        return self.queryset.count() + (1 if self.field.empty_label is not None else 0)


class LibraryChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    """Chooses by id from the queryset as any ModelChoiceField; only the drawing is grouped.
    ``for_reader`` orders it for a client: any exercise of the queryset may still be chosen, and
    the form says so before saving one in another language."""

    iterator = ShelvedChoiceIterator
    reader_language: str | None = None
    versions_among: "QuerySet[Exercise] | None" = None
    kept: frozenset[int] = frozenset()

    def for_reader(
        self, language: str, *, among: "QuerySet[Exercise]", keep: frozenset[int] = frozenset()
    ) -> None:
        self.reader_language = language
        self.versions_among = among
        self.kept = keep
