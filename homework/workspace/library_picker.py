"""The exercise picker of the assign forms: a native select grouped by the library's shelves, each
item with a line that says what it is."""

from collections.abc import Iterator
from typing import Any

from django import forms
from django.forms.models import ModelChoiceIterator

from homework.kinds import get_kind
from homework.kinds.shelves import SHELF_ORDER, Shelf
from homework.models import Exercise


def shelved(exercise: Exercise) -> tuple[Shelf, str]:
    """Which shelf ``exercise`` sits on, and its option's words: the title and what it is."""
    kind = get_kind(exercise.kind)
    return kind.shelf_of(exercise), f"{exercise.title} — {kind.about_line(exercise)}"


class ShelvedChoiceIterator(ModelChoiceIterator):
    def __iter__(self) -> Iterator[Any]:
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        on_shelf: dict[Shelf, list[tuple[Any, str]]] = {shelf: [] for shelf in SHELF_ORDER}
        for exercise in self.queryset.order_by("title", "pk"):
            shelf, words = shelved(exercise)
            on_shelf[shelf].append((self.choice(exercise)[0], words))
        for shelf in SHELF_ORDER:
            if on_shelf[shelf]:
                yield (shelf.label, on_shelf[shelf])

    def __len__(self) -> int:
        return self.queryset.count() + (1 if self.field.empty_label is not None else 0)


class LibraryChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    """Chooses by id from the queryset as any ModelChoiceField; only the drawing is grouped."""

    iterator = ShelvedChoiceIterator
