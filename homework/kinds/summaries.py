"""Small helpers the kinds share when they summarise several entries."""

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from homework.models import Assignment, Entry


def by_assignment(entries: Sequence["Entry"]) -> list[tuple["Assignment", list["Entry"]]]:
    grouped: dict[int, list[Entry]] = defaultdict(list)
    for entry in entries:
        grouped[entry.assignment_id].append(entry)
    return [
        (own[0].assignment, sorted(own, key=lambda e: (e.submitted_at or e.created_at)))
        for own in grouped.values()
    ]


def latest_per_assignment(entries: Sequence["Entry"]) -> list[tuple["Entry", "Entry | None"]]:
    """For each assignment: its newest entry, and the one before it (for "what changed")."""
    pairs = []
    for _assignment, own in by_assignment(entries):
        pairs.append((own[-1], own[-2] if len(own) > 1 else None))
    return pairs


def parse_date(value: object) -> dt.date | None:
    """None when absent or unreadable."""
    if not isinstance(value, str):
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None
