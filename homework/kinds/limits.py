"""How much of a period the summary shows before pointing to the portal.

Shared by the summary's first page and the kinds' own sections, so a year of
daily entries still prints on a few pages. ``full_detail`` lifts every limit.
"""

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

# Entries listed in full in one kind's section; the rest are counted.
SECTION_LIST_LIMIT = 6
# Written records listed in words when the first page carries the timeline
# (which draws each one's day and distress): the brief summary of a typical
# period then keeps to two pages; the rest are named by date and distress.
RECORDS_BESIDE_TIMELINE = 1
# Older entries named by date (and distress) under those listed in full.
OLDER_LIST_LIMIT = 8
# Flagged entries listed on the first page, per flag.
FLAG_LIST_LIMIT = 4
# Assignments listed in the completion table.
WORK_LIST_LIMIT = 8
# Names listed in words per ring of a support map (and per list under it):
# a full map (50 people, 30 places) named in full ran onto three pages.
NAMES_LIST_LIMIT = 12
# Values listed beside a check-in's totals chart (the first and the latest).
VALUES_LIST_LIMIT = 12
# Characters of one text field before "continued in the portal": with the
# date before it, about two printed lines, so six records take half a page.
EXCERPT_CHARS = 120


def first_of(
    items: Sequence[T], *, full_detail: bool, limit: int = SECTION_LIST_LIMIT
) -> tuple[list[T], int]:
    """The first ``limit`` items (all of them in full detail) and how many are left."""
    if full_detail or len(items) <= limit:
        return list(items), 0
    return list(items[:limit]), len(items) - limit
