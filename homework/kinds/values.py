"""What passes between a kind and the code that calls it."""

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy

if TYPE_CHECKING:
    from django.db.models import Q

    from homework.models import Entry

JSONDict = dict[str, Any]

# How every page shows a blank answer (CLINICAL.md, Honesty: a blank stays a blank).
NOT_ANSWERED = gettext_lazy("Not answered")

MAX_MARKS = 100
# Pages open when a release ships still post the old names.
WORDING_ON_SCREEN_PREFIX = "worded-"
STILL_FITS_PREFIX = "still-"


@dataclass(frozen=True)
class Shown:
    """What the client's page said it showed, as marks only: what they name is looked up in what the
    exercise knows, never taken from the page."""

    wording_on_screen: Mapping[str, str] = dataclass_field(default_factory=dict)
    answer_still_fits: Mapping[str, str] = dataclass_field(default_factory=dict)

    @classmethod
    def from_post(cls, post: Any) -> "Shown":
        """Anything that is not a mark is left out: nonsense reads as a page that said nothing."""
        found: dict[str, dict[str, str]] = {WORDING_ON_SCREEN_PREFIX: {}, STILL_FITS_PREFIX: {}}
        for name in list(post)[: 4 * MAX_MARKS]:
            if not isinstance(name, str):
                continue
            for prefix, marks in found.items():
                key = name.removeprefix(prefix)
                if key == name or not key or len(key) > 60 or len(marks) >= MAX_MARKS:
                    continue
                value = post.get(name)
                if isinstance(value, str) and len(value) == 12 and _is_hex(value):
                    marks[key] = value
        return cls(
            wording_on_screen=found[WORDING_ON_SCREEN_PREFIX],
            answer_still_fits=found[STILL_FITS_PREFIX],
        )


def _is_hex(value: str) -> bool:
    return all(c in "0123456789abcdef" for c in value)


class ResponseInvalid(Exception):
    """``errors`` maps field name to messages."""

    def __init__(self, errors: Mapping[str, list[str]]) -> None:
        super().__init__(errors)
        self.errors = dict(errors)


@dataclass(frozen=True)
class EarlierWanted:
    """The latest shared entry per assignment from before the period that meets ``condition``; with
    ``every``, each one that does."""

    condition: "Q"
    every: bool = False


@dataclass(frozen=True)
class SummaryScope:
    """``full_detail`` asks for whole texts instead of excerpts; ``as_of`` is the last day covered
    on the client's calendar (None: today)."""

    full_detail: bool = False
    earlier: Sequence["Entry"] = ()
    as_of: dt.date | None = None
    # Fewer when the first page carries the timeline; None: the usual limit.
    records_in_words: int | None = None
    # For a kind kept within reach: the newest shared entry by the period's end, or None.
    current: "Entry | None" = None


BRIEF = SummaryScope()
