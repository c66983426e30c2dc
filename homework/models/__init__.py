"""Every model imported here, so Django finds it and one import path serves everywhere."""

from homework.models.alerts import ACKNOWLEDGEMENT_MAX_CHARS, Alert
from homework.models.assignments import (
    DAYS_BEFORE_MAX,
    DAYS_BEFORE_MESSAGE,
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
from homework.models.programs import (
    MAX_STEP_DAYS,
    STEP_DUE_DAYS,
    ClientProgram,
    ClientProgramStep,
    Program,
    ProgramStep,
    Release,
)
from homework.models.session_windows import (
    answered_days_by_assignment,
    days_of,
    session_days_by_client,
    with_session_days,
)

__all__ = [
    "ACKNOWLEDGEMENT_MAX_CHARS",
    "DAYS_BEFORE_MAX",
    "DAYS_BEFORE_MESSAGE",
    "MAX_SCHEDULE_DAYS",
    "MAX_STEP_DAYS",
    "START_AHEAD_DAYS",
    "START_BEHIND_DAYS",
    "STEP_DUE_DAYS",
    "Alert",
    "Assignment",
    "ClientProgram",
    "ClientProgramStep",
    "Entry",
    "EntryComment",
    "EntryNote",
    "EntryQuerySet",
    "Exercise",
    "OutboxMessage",
    "PreparedDownload",
    "Program",
    "ProgramStep",
    "Release",
    "answered_days_by_assignment",
    "days_of",
    "readable_by_staff_q",
    "session_days_by_client",
    "with_session_days",
]
