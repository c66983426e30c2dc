"""Notes on a sent entry: sent, or kept unsent on the entry."""

import datetime as dt
import uuid
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from homework.kinds import get_kind
from homework.kinds.data import typed_values
from homework.models import Entry, EntryNote
from homework.services.entry_writes import own_sent_entry_for_update
from practice.form_messages import NULL_CHARACTER, too_long
from practice.models import User
from practice.requests import SENT_TWICE_WINDOW

NOTE_MAX_CHARS = 2000

# An unsent note is kept whole up to the longest answer the portal takes: generous, bounded.
NOTE_DRAFT_MAX_CHARS = settings.LONG_TEXT_MAX_CHARS


def note_is_too_long(text: str) -> bool:
    return len(text.strip()) > NOTE_MAX_CHARS


@transaction.atomic
def entry_add_note(*, user: User, key: uuid.UUID, text: str) -> EntryNote:
    entry = own_sent_entry_for_update(user=user, key=key)
    text = text.strip()
    if not text:
        raise ValidationError({"text": [_("Write something first.")]})
    if note_is_too_long(text):
        raise ValidationError({"text": [too_long(limit=NOTE_MAX_CHARS, length=len(text))]})
    if "\x00" in text:
        raise ValidationError({"text": [NULL_CHARACTER]})
    if entry.note_draft:
        entry.note_draft = ""
        entry.save(update_fields=["note_draft"])
    last = entry.notes.order_by("-created_at", "-pk").first()
    if (
        last is not None
        and last.text == text
        and last.created_at >= timezone.now() - SENT_TWICE_WINDOW
    ):
        return last  # the same note sent twice (a double click, a replay): added once
    return EntryNote.objects.create(entry=entry, text=text)


@transaction.atomic
def entry_keep_note_draft(
    *, user: User, key: uuid.UUID, text: str, include_archived: bool = False, leaving: bool = False
) -> Entry:
    """The ways out of the portal send the note box as they go: a refused note must not be lost."""
    entry = own_sent_entry_for_update(user=user, key=key, include_archived=include_archived)
    _keep_note_draft(entry, text, leaving=leaving)
    return entry


@transaction.atomic
def entry_keep_refused_edit(
    *,
    user: User,
    key: uuid.UUID,
    data: Mapping[str, Any],
    include_archived: bool = False,
    leaving: bool = False,
) -> Entry:
    """The words are otherwise on the client's page alone; the entry stays as it is."""
    entry = own_sent_entry_for_update(user=user, key=key, include_archived=include_archived)
    _keep_note_draft(entry, note_with_edit_words(entry, data), leaving=leaving)
    return entry


def _keep_note_draft(entry: Entry, text: str, *, leaving: bool = False) -> None:
    # Not something anyone types, and PostgreSQL's text cannot hold it.
    text = text.replace("\x00", "")
    if not text.strip():
        text = ""
    if leaving:
        text = text[:NOTE_DRAFT_MAX_CHARS]
    if len(text) > NOTE_DRAFT_MAX_CHARS:
        raise ValidationError({"text": [too_long(limit=NOTE_DRAFT_MAX_CHARS, length=len(text))]})
    if entry.note_draft != text:
        entry.note_draft = text
        entry.save(update_fields=["note_draft"])


PARAGRAPH = "\n\n"


def edit_words(entry: Entry, data: Mapping[str, Any]) -> list[str]:
    kind = get_kind(entry.assignment.exercise.kind)
    sent = set(note_texts(kind.response_of(entry)))
    typed = typed_values(data, kind.form(exercise=entry.assignment.exercise))
    return [text for text in note_texts(typed) if text not in sent]


def note_with_edit_words(entry: Entry, data: Mapping[str, Any]) -> str:
    note = entry.note_draft
    for text in edit_words(entry, data):
        if _has_paragraph(note, text):
            continue  # e.g. the same refused change sent again (the idle warning, then "Sign out")
        note = f"{note}{PARAGRAPH}{text}" if note else text
    return note


def _has_paragraph(note: str, text: str) -> bool:
    framed = f"{PARAGRAPH}{note}{PARAGRAPH}"
    return f"{PARAGRAPH}{text}{PARAGRAPH}" in framed


def without_paragraphs(note: str, texts: list[str]) -> str:
    if not note:
        return note
    held = set(texts)
    return PARAGRAPH.join(p for p in note.split(PARAGRAPH) if p.strip() not in held)


def note_texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value.strip()] if _is_words(value.strip()) else []
    if isinstance(value, Mapping):
        value = list(value.values())
    if isinstance(value, list):
        return [text for item in value for text in note_texts(item)]
    return []


def _is_words(text: str) -> bool:
    if not text:
        return False
    for parse in (float, dt.datetime.fromisoformat):
        try:
            parse(text)
        except ValueError:
            continue
        return False
    return True
