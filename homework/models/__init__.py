"""Every model imported here, so Django finds it and one import path serves everywhere."""

from homework.models.assignments import (
    MAX_SCHEDULE_DAYS,
    START_AHEAD_DAYS,
    START_BEHIND_DAYS,
    Assignment,
)
from homework.models.downloads import PreparedDownload
from homework.models.entries import (
    Entry,
    EntryComment,
    EntryNote,
    EntryQuerySet,
    readable_by_staff_q,
)
from homework.models.exercises import Exercise
from homework.models.outbox import OutboxMessage

__all__ = [
    "MAX_SCHEDULE_DAYS",
    "START_AHEAD_DAYS",
    "START_BEHIND_DAYS",
    "Assignment",
    "Entry",
    "EntryComment",
    "EntryNote",
    "EntryQuerySet",
    "Exercise",
    "OutboxMessage",
    "PreparedDownload",
    "readable_by_staff_q",
]
