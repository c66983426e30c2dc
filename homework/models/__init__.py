"""The homework app's models, one module per sub-domain.

``exercises`` (the library), ``assignments`` (work given to a client),
``entries`` (the client's entries, their notes and the therapist's
comments) and ``outbox`` (messages to send: delivery, not clinical data);
``field_limits`` holds how long their text fields may be.
Everything is imported here, so Django finds every model and
``from homework.models import X`` reads the same wherever it is used.
"""

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
from homework.models.programs import (
    MAX_STEP_DAYS,
    STEP_DUE_DAYS,
    ClientProgram,
    ClientProgramStep,
    Program,
    ProgramStep,
    Release,
)

__all__ = [
    "MAX_SCHEDULE_DAYS",
    "MAX_STEP_DAYS",
    "START_AHEAD_DAYS",
    "START_BEHIND_DAYS",
    "STEP_DUE_DAYS",
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
    "readable_by_staff_q",
]
