"""What becomes of a client's words when a change or a note to a sent entry is refused: they are
kept at once as the entry's unsent note, because the page that shows them back may be the last
one."""

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError

from homework.kinds import ResponseInvalid
from homework.kinds.base import Shown
from homework.models import Entry, EntryNote
from homework.selectors import entries_for_user
from homework.services.edits import entry_edit
from homework.services.entry_writes import EntryConflict, EntryLocked, Flags
from homework.services.notes import (
    edit_words,
    entry_add_note,
    entry_keep_note_draft,
    entry_keep_refused_edit,
    note_with_edit_words,
)
from practice.models import User


@dataclass(frozen=True)
class KeptWords:
    """The words of a refused change, as the note box shows them back."""

    note: str  # the entry's unsent note, with the change's words added
    kept: bool  # on the server, as the entry's unsent note (False: on the page alone)
    new_words: bool  # the change holds words the entry does not: what leaving would lose


@dataclass(frozen=True)
class EditTried:
    """A change to a sent entry: saved (``entry``), or refused and its words kept."""

    entry: Entry | None
    refused: Exception | None = None  # EntryLocked, EntryConflict or ResponseInvalid
    words: KeptWords | None = None


@dataclass(frozen=True)
class NoteTried:
    """A note on a sent entry: added (``note``), or refused and kept unsent."""

    note: EntryNote | None
    refused: ValidationError | None = None


def has_new_words(entry: Entry, data: Mapping[str, Any]) -> bool:
    """Whether a change holds typed words the entry does not, which could not be typed again."""
    return bool(edit_words(entry, data))


def entry_edit_or_keep_words(
    *,
    user: User,
    key: uuid.UUID,
    base_version: int,
    data: Mapping[str, Any],
    flags: Flags,
    shown: Shown | None = None,
    leaving: bool = False,
) -> EditTried:
    """Save a change to a sent entry (entry_edit); when it is refused, keep its words as the entry's
    unsent note (entry_edit_keep_words). Words too long even for that raise ValidationError; an
    entry that is not the client's, DoesNotExist."""
    try:
        entry = entry_edit(
            user=user, key=key, base_version=base_version, data=data, flags=flags, shown=shown
        )
    except (EntryLocked, EntryConflict, ResponseInvalid) as refusal:
        refused: Exception = refusal
    except Entry.DoesNotExist as refusal:
        if not leaving:
            raise
        refused = refusal
    else:
        return EditTried(entry=entry)
    if leaving:
        entry_keep_refused_edit(user=user, key=key, data=data, include_archived=True, leaving=True)
        return EditTried(entry=None, refused=refused)
    known = refused.entry if isinstance(refused, EntryConflict) else None
    words = entry_edit_keep_words(user=user, key=key, data=data, entry=known)
    return EditTried(entry=None, refused=refused, words=words)


def entry_edit_keep_words(
    *, user: User, key: uuid.UUID, data: Mapping[str, Any], entry: Entry | None = None
) -> KeptWords:
    """Keep a refused change's words as the entry's unsent note and say what the note box holds."""
    try:
        kept = entry_keep_refused_edit(user=user, key=key, data=data)
    except ValidationError:
        if entry is None:
            entry = (
                entries_for_user(user=user)
                .select_related("assignment__exercise", "assignment__client")
                .get(key=key, status=Entry.Status.SUBMITTED)
            )
        return KeptWords(
            note_with_edit_words(entry, data), kept=False, new_words=has_new_words(entry, data)
        )
    return KeptWords(
        kept.note_draft, kept=bool(kept.note_draft), new_words=has_new_words(kept, data)
    )


def entry_add_note_or_keep_words(
    *, user: User, key: uuid.UUID, text: str | None, typed: str, leaving: bool = False
) -> NoteTried:
    """Add a note to a sent entry; a note refused, by this service or already by its form, is kept
    as the entry's unsent note as it was ``typed``, for the client to send next time."""
    refused: ValidationError | None = None
    if text is not None:
        try:
            return NoteTried(note=entry_add_note(user=user, key=key, text=text))
        except ValidationError as error:
            refused = error
        except Entry.DoesNotExist:
            if not leaving:
                raise
    try:
        entry_keep_note_draft(
            user=user, key=key, text=typed, include_archived=leaving, leaving=leaving
        )
    except ValidationError:
        if leaving:
            raise
    return NoteTried(note=None, refused=refused)
