"""What every write to an entry shares: refusals, flags, locking, the version check."""

import datetime as dt
import uuid
import zoneinfo
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from homework import schedules
from homework.kinds import get_kind
from homework.kinds.base import ExerciseKind, Shown
from homework.models import Assignment, Entry
from homework.selectors import client_today, entries_for_user, portal_assignment
from homework.services.stored_summaries import summary_forget
from practice.dates import as_zone
from practice.models import User


class EntryLocked(Exception):
    """The therapist has read this entry, so it stays as it was."""


class EntryConflict(Exception):
    """The entry changed since the form was loaded (another tab or device)."""

    def __init__(self, entry: Entry) -> None:
        super().__init__(entry.key)
        self.entry = entry


class EntrySentSince(EntryConflict):
    """A plan, map or ladder sent from a page opened before a newer one was sent."""


@dataclass(frozen=True)
class Flags:
    discuss_in_session: bool = False
    felt_unsafe: bool = False
    private: bool = False


@dataclass(frozen=True)
class PageSave:
    page: str
    number: int


def load_for_write(
    *,
    user: User,
    assignment_id: int,
    key: uuid.UUID,
    include_archived: bool = False,
    lock_assignment: bool = False,
) -> tuple[Assignment, Entry | None]:
    """The assignment is locked before the entry, as every path that locks both does."""
    assignment = portal_assignment(
        user=user, assignment_id=assignment_id, for_writing=True, include_archived=include_archived
    )
    if lock_assignment:
        assignment_lock(assignment)
    entry = Entry.objects.select_for_update().filter(key=key).first()
    if entry is not None and entry.assignment_id != assignment.pk:
        # Someone else's key, or another assignment's: it does not exist for you.
        raise Entry.DoesNotExist
    return assignment, entry


def entry_write(
    *,
    assignment: Assignment,
    entry: Entry | None,
    key: uuid.UUID,
    base_version: int,
    response: Mapping[str, Any],
    flags: Flags,
    submit: bool,
    page_save: PageSave | None = None,
    shown: Shown | None = None,
    sent_count_seen: int | None = None,
) -> Entry:
    if entry is not None and entry.version != base_version:
        raise EntryConflict(entry)
    if entry is None and base_version != 0:
        raise Entry.DoesNotExist
    now = timezone.now()
    kind = get_kind(assignment.exercise.kind)
    values: dict[str, Any] = {
        "response": dict(response),
        "schema_version": kind.schema_version,
        "asked": kind.asked(
            assignment.exercise,
            dict(response),
            before=entry.asked if entry is not None else {},
            answered_before=kind.response_of(entry) if entry is not None else {},
            shown=shown,
        ),
        "discuss_in_session": flags.discuss_in_session,
        "felt_unsafe": flags.felt_unsafe,
        "private": flags.private,
        # Any other write ends the page's claim: its next save is checked by version again.
        "saved_by_page": page_save.page if page_save else "",
        "page_save_number": page_save.number if page_save else 0,
        "sent_when_opened": sent_count_seen,
    }
    if submit:
        values.update(
            status=Entry.Status.SUBMITTED,
            submitted_at=now,
            shared_at=None if flags.private else now,
            **kind.plain_columns(dict(response), exercise=assignment.exercise),
        )
    if entry is None:
        # A recurring entry belongs to the slot it was started in (homework.schedules)...
        today = timezone.localdate(now, timezone=zoneinfo.ZoneInfo(assignment.client.timezone))
        new = Entry(
            key=key,
            assignment=assignment,
            version=1,
            occurrence_on=schedules.slot_for_new_entry(assignment, today),
            **values,
        )
        if submit:
            # ...until it is sent: a log's counts for the day it records.
            new.occurrence_on = slot_when_sent(new, kind, begun=new.occurrence_on)
        try:
            with transaction.atomic():
                new.save(force_insert=True)
        except IntegrityError:
            # The same key was created a moment ago by a parallel request.
            raise EntryConflict(Entry.objects.get(key=key, assignment=assignment)) from None
        return new
    for name, value in values.items():
        setattr(entry, name, value)
    changed = [*values, "version", "updated_at"]
    if submit:
        entry.occurrence_on = slot_when_sent(entry, kind, begun=entry.occurrence_on)
        changed.append("occurrence_on")
    entry.version += 1
    entry.save(update_fields=changed)
    return entry


def slot_when_sent(entry: Entry, kind: ExerciseKind, *, begun: dt.date | None) -> dt.date | None:
    if not kind.is_log:
        return begun
    assignment = entry.assignment
    happened_on = timezone.localdate(kind.happened_at(entry), as_zone(assignment.client.timezone))
    today = client_today(assignment.client)
    return schedules.slot_for_happened(assignment, happened_on=happened_on, today=today) or begun


def slot_begun_in(entry: Entry) -> dt.date | None:
    assignment = entry.assignment
    begun_on = timezone.localdate(entry.created_at, as_zone(assignment.client.timezone))
    return schedules.slot_for_new_entry(assignment, begun_on)


def says_already(entry: Entry, response: Mapping[str, Any], flags: Flags) -> bool:
    """Whether the entry already says exactly this (a request sent twice)."""
    held = (entry.response, entry.discuss_in_session, entry.felt_unsafe, entry.private)
    return held == (response, flags.discuss_in_session, flags.felt_unsafe, flags.private)


def refuse_if_sent_since(
    assignment: Assignment, *, key: uuid.UUID, sent_count_seen: int | None
) -> None:
    """A page still showing an older entry must never quietly undo a newer one."""
    if sent_count_seen is None:
        return
    sent = Entry.objects.filter(assignment=assignment, status=Entry.Status.SUBMITTED).exclude(
        key=key  # this one, sent a moment ago (a replayed send) is no newer entry
    )
    newest = sent.order_by("-submitted_at", "-pk").first()
    if newest is not None and sent.count() > sent_count_seen:
        raise EntrySentSince(newest)


def assignment_lock(assignment: Assignment) -> None:
    Assignment.objects.select_for_update().values_list("pk", flat=True).get(pk=assignment.pk)


def own_sent_entry_for_update(
    *, user: User, key: uuid.UUID, include_archived: bool = False
) -> Entry:
    visible = entries_for_user(user=user, include_archived=include_archived).filter(
        key=key, status=Entry.Status.SUBMITTED
    )
    if not (user.is_authenticated and user.is_client) or not visible.exists():
        raise Entry.DoesNotExist
    return (
        Entry.objects.select_for_update(of=("self",))
        .select_related("assignment__exercise", "assignment__client")
        .get(key=key)
    )


def forget_stored_summaries(entry: Entry) -> None:
    """After commit, and never failing the client's save if the storage does."""
    client_id = entry.assignment.client_id
    transaction.on_commit(lambda: summary_forget(client_id=client_id), robust=True)


def validation_messages(error: ValidationError) -> dict[str, list[str]]:
    return error.message_dict if hasattr(error, "error_dict") else {"__all__": error.messages}
