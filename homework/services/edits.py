"""Changing a sent entry, and keeping it private or sharing it."""

import uuid
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from homework.kinds import ResponseInvalid, get_kind
from homework.kinds.base import Shown
from homework.models import Entry
from homework.services.entry_writes import (
    EntryConflict,
    EntryLocked,
    Flags,
    forget_stored_summaries,
    own_sent_entry_for_update,
    says_already,
    slot_begun_in,
    slot_when_sent,
)
from homework.services.notes import note_texts, without_paragraphs
from homework.services.notify import notify_when_shared
from homework.services.outbox import entry_is_flagged
from practice.models import User


@transaction.atomic
def entry_edit(
    *,
    user: User,
    key: uuid.UUID,
    base_version: int,
    data: Mapping[str, Any],
    flags: Flags,
    shown: Shown | None = None,
) -> Entry:
    """An edit begun before another tab's change is refused (EntryConflict), not overwriting it."""
    entry = own_sent_entry_for_update(user=user, key=key)
    if not entry.client_can_edit:
        raise EntryLocked
    assignment = entry.assignment
    kind = get_kind(assignment.exercise.kind)
    if entry.version != base_version:
        if entry.version == base_version + 1 and _edit_says_already(entry, data, flags):
            # The edit just saved, sent again ("Save" clicked twice): not a change made elsewhere.
            return entry
        raise EntryConflict(entry)
    edited = kind.validate(data, exercise=assignment.exercise, tz=assignment.client.timezone)
    answered_before = kind.response_of(entry)
    said_before = (entry.response, entry.discuss_in_session, entry.felt_unsafe)
    entry.response = kind.merge_edit(answered_before, edited, exercise=assignment.exercise)
    entry.schema_version = kind.schema_version
    # Changed answers answer the form as shown now; the others, what the client read then.
    entry.asked = kind.asked(
        assignment.exercise,
        entry.response,
        before=entry.asked,
        answered_before=answered_before,
        shown=shown,
    )
    plain = kind.plain_columns(entry.response, exercise=assignment.exercise)
    for name, value in plain.items():
        setattr(entry, name, value)
    if kind.is_log:
        # The client may have put right when it happened: it counts for that day.
        entry.occurrence_on = slot_when_sent(entry, kind, begun=slot_begun_in(entry))
    entry.note_draft = without_paragraphs(entry.note_draft, note_texts(entry.response))
    entry.discuss_in_session = flags.discuss_in_session
    entry.felt_unsafe = flags.felt_unsafe
    was_readable = entry.readable_by_staff
    entry.private = flags.private
    if entry.readable_by_staff and not was_readable:
        entry.shared_at = timezone.now()
    if was_readable and (entry.response, flags.discuss_in_session, flags.felt_unsafe) != (
        said_before
    ):
        # What the therapist could already read has changed: they see when (Entry.changed_at).
        entry.changed_at = timezone.now()
    entry.version += 1
    entry.save(
        update_fields=[
            "response",
            "schema_version",
            "asked",
            *plain,
            "occurrence_on",
            "note_draft",
            "discuss_in_session",
            "felt_unsafe",
            "private",
            "shared_at",
            "changed_at",
            "version",
            "updated_at",
        ]
    )
    if was_readable:
        forget_stored_summaries(entry)  # the words it shared before have changed
    # A flag added to a shared entry is news the therapist should have soon; a flagged entry
    # changed may raise a new alert (services.alerts decides).
    if entry.readable_by_staff and (not was_readable or entry_is_flagged(entry)):
        notify_when_shared(entry)
    return entry


def _edit_says_already(entry: Entry, data: Mapping[str, Any], flags: Flags) -> bool:
    exercise = entry.assignment.exercise
    kind = get_kind(exercise.kind)
    try:
        edited = kind.validate(data, exercise=exercise, tz=entry.assignment.client.timezone)
    except ResponseInvalid:
        return False
    return says_already(
        entry, kind.merge_edit(kind.response_of(entry), edited, exercise=exercise), flags
    )


@transaction.atomic
def entry_set_private(*, user: User, key: uuid.UUID, private: bool) -> Entry:
    entry = own_sent_entry_for_update(user=user, key=key)
    if entry.private == private:
        return entry
    if private and entry.seen_at is not None:
        raise EntryLocked
    entry.private = private
    if not private:
        entry.shared_at = timezone.now()  # news from now on, whenever it was written
    entry.version += 1
    entry.save(update_fields=["private", "shared_at", "version", "updated_at"])
    if private:
        forget_stored_summaries(entry)
    else:
        notify_when_shared(entry)
    return entry
