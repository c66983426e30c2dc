"""What passes between a kind and the code that calls it: a response as
JSON, what the client's page showed, a refusal, what a summary section
needs from before its period, and what the summary asks of a section."""

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

# How every surface shows an answer the client left blank, where it shows
# the question at all (CLINICAL.md, Honesty: a blank stays a blank).
NOT_ANSWERED = gettext_lazy("Not answered")

# A page posts a mark for each question it shows; more than any form has is not a page's.
MAX_MARKS = 100
# The posted names keep their first spelling: pages open when a release
# ships still post them.
WORDING_ON_SCREEN_PREFIX = "worded-"
STILL_FITS_PREFIX = "still-"


@dataclass(frozen=True)
class Shown:
    """What the client's page put to them, as it says with each save: per
    question key, a mark of the wording on screen (``wording_on_screen``),
    and the questions reworded since an answer was given whose answer the
    client said still fits the new words (``answer_still_fits``, the mark of
    the words they saw). Marks only: what they name is looked up in what
    the exercise knows, never taken from the page."""

    wording_on_screen: Mapping[str, str] = dataclass_field(default_factory=dict)
    answer_still_fits: Mapping[str, str] = dataclass_field(default_factory=dict)

    @classmethod
    def from_post(cls, post: Any) -> "Shown":
        """Read from posted fields (``worded-<key>``, ``still-<key>``).
        Anything that is not a mark is left out: a page that sends none, or
        nonsense, is read as one that said nothing."""
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
    """A response (or draft) was refused. ``errors`` maps field name to messages."""

    def __init__(self, errors: Mapping[str, list[str]]) -> None:
        super().__init__(errors)
        self.errors = dict(errors)


@dataclass(frozen=True)
class EarlierWanted:
    """What a kind's summary section needs from before the period: the
    latest shared entry per assignment that meets ``condition``; with
    ``every``, each one that does (of the assignments with entries in the
    period), for a section that draws the work since it began, such as the
    urge curve."""

    condition: "Q"
    every: bool = False


@dataclass(frozen=True)
class SummaryScope:
    """What the session summary asks of a kind, the same for its section
    (``summary_context``) and its lines on the first page (``at_a_glance``).

    ``full_detail`` asks for whole texts instead of excerpts (and, for the
    most sensitive kinds, their content at all). ``earlier`` holds, per
    assignment, the latest shared entry from before the period that
    ``earlier_wanted`` picks (none unless the kind asks; every such entry
    when it asks for ``every``). ``as_of`` is the last day the summary covers
    (today when that is still to come; None: today), on the client's
    calendar, as days in the client's life are."""

    full_detail: bool = False
    earlier: Sequence["Entry"] = ()
    as_of: dt.date | None = None
    # Written records listed in the client's words (the rest by date and
    # distress; None: the sections' usual limit): fewer when the first page
    # carries the timeline, which draws every record's day and distress
    # (homework.summary.render).
    records_in_words: int | None = None
    # For a kind kept within reach (``ExerciseKind.within_reach``): the
    # client's newest shared entry of it by the period's end, sent in the
    # period or long before; None when none is.
    current: "Entry | None" = None


# A brief summary of the period alone, up to today: what a caller that asks
# nothing more gets.
BRIEF = SummaryScope()
