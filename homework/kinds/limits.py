"""How much of a period the summary shows before pointing to the portal, so a year of daily entries
still prints on a few pages. ``full_detail`` lifts every limit."""

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

SECTION_LIST_LIMIT = 6
# Fewer when the first page carries the timeline, so a typical brief summary keeps to two pages.
RECORDS_BESIDE_TIMELINE = 1
OLDER_LIST_LIMIT = 8
FLAG_LIST_LIMIT = 4
WORK_LIST_LIMIT = 8
NAMES_LIST_LIMIT = 12
VALUES_LIST_LIMIT = 12
# About two printed lines with the date, so six records take half a page.
EXCERPT_CHARS = 120


def first_of(
    items: Sequence[T], *, full_detail: bool, limit: int = SECTION_LIST_LIMIT
) -> tuple[list[T], int]:
    """All of them in full detail."""
    if full_detail or len(items) <= limit:
        return list(items), 0
    return list(items[:limit]), len(items) - limit
