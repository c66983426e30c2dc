"""Sending an entry to the therapist."""

import uuid
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from homework.kinds import get_kind
from homework.kinds.base import Shown
from homework.models import Entry
from homework.services.entry_writes import (
    EntryConflict,
    Flags,
    assignment_lock,
    entry_write,
    load_for_write,
    refuse_if_sent_since,
    says_already,
)
from homework.services.notify import notify_when_shared
from homework.services.programs import step_finished
from practice.models import User


@transaction.atomic
def entry_submit(
    *,
    user: User,
    assignment_id: int,
    key: uuid.UUID,
    base_version: int,
    data: Mapping[str, Any],
    flags: Flags,
    shown: Shown | None = None,
    sent_count_seen: int | None = None,
) -> Entry:
    """Other words under the same key are a conflict, never dropped behind a "Sent"."""
    assignment, entry = load_for_write(
        user=user, assignment_id=assignment_id, key=key, lock_assignment=sent_count_seen is not None
    )
    if entry is None:
        # The same send twice at once waits, then finds it sent, rather than offering a duplicate.
        assignment_lock(assignment)
        entry = Entry.objects.select_for_update().filter(key=key, assignment=assignment).first()
    kind = get_kind(assignment.exercise.kind)
    response = kind.validate(data, exercise=assignment.exercise, tz=assignment.client.timezone)
    if entry is not None:
        # Answers kept in the draft to questions since removed go with it.
        response = kind.merge_edit(kind.response_of(entry), response, exercise=assignment.exercise)
    if entry is not None and entry.is_submitted:
        if says_already(entry, response, flags):
            return entry
        raise EntryConflict(entry)
    refuse_if_sent_since(assignment, key=key, sent_count_seen=sent_count_seen)
    entry = entry_write(
        assignment=assignment,
        entry=entry,
        key=key,
        base_version=base_version,
        response=response,
        flags=flags,
        submit=True,
        shown=shown,
        sent_count_seen=sent_count_seen,
    )
    step_finished(assignment=assignment, done=True)
    if entry.readable_by_staff:
        notify_when_shared(entry)
    return entry
