"""A refused client's words are kept at once, as the page showing them back may be the last one."""

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
    note: str
    kept: bool  # False: on the page alone
    new_words: bool  # the change holds words the entry does not: what leaving would lose


@dataclass(frozen=True)
class EditTried:
    entry: Entry | None
    refused: Exception | None = None
    words: KeptWords | None = None


@dataclass(frozen=True)
class NoteTried:
    note: EntryNote | None
    refused: ValidationError | None = None


def has_new_words(entry: Entry, data: Mapping[str, Any]) -> bool:
    """Typed words the entry does not hold, which could not be typed again."""
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
