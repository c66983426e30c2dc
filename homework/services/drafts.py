"""The client's drafts: what they have typed so far, kept on the server."""

import uuid
from collections.abc import Mapping
from typing import Any

from django import forms
from django.conf import settings
from django.db import transaction

from homework.kinds import ResponseInvalid, get_kind
from homework.kinds.base import Shown
from homework.kinds.fields import KindForm
from homework.kinds.rows import ROW_KEY
from homework.models import Assignment, Entry
from homework.services.entry_writes import (
    EntryConflict,
    Flags,
    PageSave,
    assignment_lock,
    entry_write,
    load_for_write,
    refuse_if_sent_since,
    says_already,
)
from practice.models import User


@transaction.atomic
def entry_save_draft(
    *,
    user: User,
    assignment_id: int,
    key: uuid.UUID,
    base_version: int,
    data: Mapping[str, Any],
    flags: Flags,
    page_save: PageSave | None = None,
    shown: Shown | None = None,
    sent_count_seen: int | None = None,
    leaving: bool = False,
) -> Entry:
    """Another tab's save in between is refused (EntryConflict), unless this page made it."""
    assignment, entry = load_for_write(
        user=user,
        assignment_id=assignment_id,
        key=key,
        include_archived=True,
        lock_assignment=sent_count_seen is not None,
    )
    if entry is not None and entry.is_submitted:
        raise EntryConflict(entry)
    if not leaving:
        refuse_if_sent_since(assignment, key=key, sent_count_seen=sent_count_seen)
    kind = get_kind(assignment.exercise.kind)
    tz = assignment.client.timezone
    try:
        draft = kind.validate_draft(data, exercise=assignment.exercise, tz=tz)
    except ResponseInvalid:
        if not leaving:
            raise
        within = within_field_limits(data, kind.form(exercise=assignment.exercise))
        draft = kind.validate_draft(within, exercise=assignment.exercise, tz=tz)
    if entry is None and base_version == 0:
        # One draft per assignment: a second tab must not start another, hidden one.
        other = _open_draft_locked(assignment)
        if other is not None and other.key == key:
            # Made by a request that overtook this one while it waited for the lock.
            entry = Entry.objects.select_for_update().get(pk=other.pk)
        elif other is not None and not leaving:
            raise EntryConflict(other)
    if entry is not None:
        if page_save is not None and entry.saved_by_page == page_save.page:
            if page_save.number <= entry.page_save_number:
                return entry  # an earlier save of this page, overtaken by a later one
            base_version = entry.version
        draft = kind.merge_edit(kind.response_of(entry), draft, exercise=assignment.exercise)
        if entry.version == base_version + 1 and says_already(entry, draft, flags):
            return entry  # the save just made, sent again: its reply was lost on the way
    return entry_write(
        assignment=assignment,
        entry=entry,
        key=key,
        base_version=base_version,
        response=draft,
        flags=flags,
        submit=False,
        page_save=page_save,
        shown=shown,
        sent_count_seen=sent_count_seen,
    )


def _open_draft_locked(assignment: Assignment) -> Entry | None:
    """Read under the assignment's lock so two first saves cannot both make a draft."""
    assignment_lock(assignment)
    return Entry.objects.filter(assignment=assignment, status=Entry.Status.DRAFT).first()


def within_field_limits(data: Mapping[str, Any], form: KindForm) -> dict[str, Any]:
    kept = dict(data)
    for key, value in data.items():
        field = form.fields.get(key)
        if field is None and (match := ROW_KEY.match(key)) and form.row_sets.get(match["set"]):
            field = form.row_sets[match["set"]].spec.fields().get(match["field"])
        if field is None or isinstance(field, forms.BooleanField):
            continue
        limit = getattr(field, "max_length", None) or settings.SHORT_TEXT_MAX_CHARS
        if isinstance(value, str):
            kept[key] = value.replace("\x00", "")[:limit]
        elif isinstance(value, list) and all(isinstance(text, str) for text in value):
            kept[key] = [text.replace("\x00", "")[:limit] for text in value]
    return kept
