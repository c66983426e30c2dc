"""The client's writes: drafts, sending, editing, privacy and notes, and the
discreet email to the therapist that follows a shared entry."""

import datetime as dt
import logging
import uuid
import zoneinfo
from collections.abc import Mapping
from dataclasses import dataclass
from smtplib import SMTPException
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import BadHeaderError, EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext_lazy

from homework import schedules
from homework.kinds import ResponseInvalid, get_kind
from homework.kinds.base import ExerciseKind, Shown
from homework.kinds.data import typed_values
from homework.models import Assignment, Entry, EntryNote
from homework.selectors import (
    client_today,
    entries_for_user,
    portal_assignment,
)
from practice import delivery
from practice.dates import as_zone
from practice.models import User
from practice.queue import enqueue_on_commit
from practice.requests import SENT_TWICE_WINDOW
from practice.voice import NULL_CHARACTER, grouped_count, too_long

logger = logging.getLogger(__name__)


class EntryLocked(Exception):
    """The therapist has read this entry, so it stays as it was (a note can be added)."""


class EntryConflict(Exception):
    """The entry changed since the form was loaded (another tab or device)."""

    def __init__(self, entry: Entry) -> None:
        super().__init__(entry.key)
        self.entry = entry


class EntrySentSince(EntryConflict):
    """Work that continues the last entry sent (a plan, a map, a ladder),
    from a page opened before a newer one was sent from another tab or
    device. Its words started from the older one: saving or sending them
    would quietly undo the newer one's changes. ``entry`` is the newest sent."""


@dataclass(frozen=True)
class Flags:
    discuss_in_session: bool = False
    felt_unsafe: bool = False
    private: bool = False


@dataclass(frozen=True)
class PageSave:
    """Which open portal page sent a save, and the how-manieth of its saves it is."""

    page: str
    number: int


def _load_for_write(
    *,
    user: User,
    assignment_id: int,
    key: uuid.UUID,
    include_archived: bool = False,
    lock_assignment: bool = False,
) -> tuple[Assignment, Entry | None]:
    """``lock_assignment``: before the entry, as every path that locks both
    does (two requests taking them in opposite orders could deadlock)."""
    assignment = portal_assignment(
        user=user, assignment_id=assignment_id, for_writing=True, include_archived=include_archived
    )
    if lock_assignment:
        _lock_assignment(assignment)
    entry = Entry.objects.select_for_update().filter(key=key).first()
    if entry is not None and entry.assignment_id != assignment.pk:
        # Someone else's key, or another assignment's: it does not exist for you.
        raise Entry.DoesNotExist
    return assignment, entry


def _write(
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
    sent_before: int | None = None,
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
        # The wording the client answered: for each answer changed now, as
        # this form put it to them; for the others, as the entry kept it.
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
        # Any other write (a send, a page without its script) ends the
        # page's claim: its next save is checked by version again.
        "saved_by_page": page_save.page if page_save else "",
        "page_save_number": page_save.number if page_save else 0,
        "sent_when_opened": sent_before,
    }
    if submit:
        values.update(
            status=Entry.Status.SUBMITTED,
            submitted_at=now,
            shared_at=None if flags.private else now,
            score=kind.score(dict(response), exercise=assignment.exercise),
        )
    if entry is None:
        # A recurring assignment's entry belongs to the slot it was started
        # in, on the client's calendar (homework.schedules)...
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
            new.occurrence_on = _slot_when_sent(new, kind, begun=new.occurrence_on)
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
        entry.occurrence_on = _slot_when_sent(entry, kind, begun=entry.occurrence_on)
        changed.append("occurrence_on")
    entry.version += 1
    entry.save(update_fields=changed)
    return entry


def _slot_when_sent(entry: Entry, kind: ExerciseKind, *, begun: dt.date | None) -> dt.date | None:
    """The slot a sent entry counts for (Entry.occurrence_on), where
    ``begun`` is the one it was begun in.

    A log's counts for the day what it records happened, on the client's
    calendar (schedules.slot_for_happened): urges of four days logged on one
    evening are four days done, as the urge chart draws them, in the
    summary, on "Since last session" and in the admin's "so far" alike, and
    today is still open in "To do" after logging yesterday's. When that day
    is not one of the schedule's (before it began, after it ended), or for
    any other kind, it stays in ``begun``; a draft stays there until sent.
    """
    if not kind.is_log:
        return begun
    assignment = entry.assignment
    happened_on = timezone.localdate(kind.happened_at(entry), as_zone(assignment.client.timezone))
    today = client_today(assignment.client)
    return schedules.slot_for_happened(assignment, happened_on=happened_on, today=today) or begun


def _slot_begun_in(entry: Entry) -> dt.date | None:
    """The slot a sent entry was begun in, as ``_write`` filed it then: a
    log's may have moved to the day it records since (``_slot_when_sent``)."""
    assignment = entry.assignment
    begun_on = timezone.localdate(entry.created_at, as_zone(assignment.client.timezone))
    return schedules.slot_for_new_entry(assignment, begun_on)


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
    sent_before: int | None = None,
    last_words: bool = False,
) -> Entry:
    """Keep what the client has typed so far, on the server.

    ``base_version`` is the version the page last saw (0 for a new entry); a
    different current version means another tab saved in between, and we
    refuse rather than overwrite (EntryConflict). A sent entry is no longer
    a draft: saving over it is a conflict too.

    ``page_save`` says which open page sent this, and which of its saves it
    is. When that same page made every version since its base (its last
    words sent on leaving, while its previous save was still on the way),
    there is no one else's text to protect: the later of the page's saves
    is kept, whichever arrives first.

    A draft that arrives after the therapist archived the client (closed
    their notebook) is kept too: nothing can be sent any more, but the words
    are theirs, and go in their download.

    ``sent_before``: for work that continues the last entry sent, how many
    had been sent when the page opened (see _refuse_if_sent_since). It is
    kept on the draft, so a draft carried on later is checked the same way.
    ``last_words``: the page is leaving (the quick exit, "Sign out") and
    cannot show a choice: its words are kept even from a page opened before
    a newer entry was sent; the draft remembers that, and the choice comes
    when it is carried on. A page whose words met another tab's draft
    (its conflict box still open) sends them under a new key: they become a
    draft of their own beside the other, which nobody chose against and
    which stays as it was. Nothing is overwritten, and "Carry on" reaches
    the newer, then, once it is sent, the other.
    """
    assignment, entry = _load_for_write(
        user=user,
        assignment_id=assignment_id,
        key=key,
        include_archived=True,
        lock_assignment=sent_before is not None,
    )
    if entry is not None and entry.is_submitted:
        raise EntryConflict(entry)
    if not last_words:
        _refuse_if_sent_since(assignment, key=key, sent_before=sent_before)
    kind = get_kind(assignment.exercise.kind)
    draft = kind.validate_draft(data, exercise=assignment.exercise, tz=assignment.client.timezone)
    if entry is None and base_version == 0:
        # One draft per assignment, the one the page reopens: a second tab
        # opened before the first one saved must not start another, hidden.
        other = _open_draft_locked(assignment)
        if other is not None and other.key == key:
            # Made by a request that overtook this one while it waited for the lock.
            entry = Entry.objects.select_for_update().get(pk=other.pk)
        elif other is not None and not last_words:
            raise EntryConflict(other)
    if entry is not None:
        if page_save is not None and entry.saved_by_page == page_save.page:
            if page_save.number <= entry.page_save_number:
                return entry  # an earlier save of this page, overtaken by a later one
            base_version = entry.version
        draft = kind.merge_edit(kind.response_of(entry), draft, exercise=assignment.exercise)
        if entry.version == base_version + 1 and _holds(entry, draft, flags):
            return entry  # the save just made, sent again: its reply was lost on the way
    return _write(
        assignment=assignment,
        entry=entry,
        key=key,
        base_version=base_version,
        response=draft,
        flags=flags,
        submit=False,
        page_save=page_save,
        shown=shown,
        sent_before=sent_before,
    )


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
    sent_before: int | None = None,
) -> Entry:
    """Validate and send an entry to the therapist.

    ``shown`` (for every write here) is what the client's page says it
    showed them: the answers answer those words (Worksheet.asked).

    Idempotent: the key is chosen when the form opens, so a double click or a
    replayed request finds the entry already sent and changes nothing. Other
    words sent under the same key (a second tab holding the same draft) are a
    conflict, shown with both versions, never dropped behind a "Sent".
    So is sending, from a page opened before it, what would replace a newer
    entry sent since (``sent_before``, _refuse_if_sent_since).
    """
    assignment, entry = _load_for_write(
        user=user, assignment_id=assignment_id, key=key, lock_assignment=sent_before is not None
    )
    if entry is None:
        # The same send twice at once (a double click without the page's
        # script, a replayed request): the later one waits for the earlier to
        # finish making the entry, then finds it sent, rather than meeting it
        # as "already sent from another tab" and being offered a duplicate.
        _lock_assignment(assignment)
        entry = Entry.objects.select_for_update().filter(key=key, assignment=assignment).first()
    kind = get_kind(assignment.exercise.kind)
    response = kind.validate(data, exercise=assignment.exercise, tz=assignment.client.timezone)
    if entry is not None:
        # Answers kept in the draft to questions since removed go with it.
        response = kind.merge_edit(kind.response_of(entry), response, exercise=assignment.exercise)
    if entry is not None and entry.is_submitted:
        if _holds(entry, response, flags):
            return entry
        raise EntryConflict(entry)
    _refuse_if_sent_since(assignment, key=key, sent_before=sent_before)
    entry = _write(
        assignment=assignment,
        entry=entry,
        key=key,
        base_version=base_version,
        response=response,
        flags=flags,
        submit=True,
        shown=shown,
        sent_before=sent_before,
    )
    if not entry.private:
        _notify_when_shared(entry)
    return entry


def _holds(entry: Entry, response: Mapping[str, Any], flags: Flags) -> bool:
    """Whether the entry already says exactly this (a request sent twice)."""
    held = (entry.response, entry.discuss_in_session, entry.felt_unsafe, entry.private)
    return held == (response, flags.discuss_in_session, flags.felt_unsafe, flags.private)


def _refuse_if_sent_since(
    assignment: Assignment, *, key: uuid.UUID, sent_before: int | None
) -> None:
    """Refuse (EntrySentSince) words from a page that opened on the newest of
    ``sent_before`` sent entries when more have been sent since: a plan
    updated in one tab, then sent again from another still showing the old
    one, lost the first tab's change without a word. Entries are never
    deleted, so a count tells. The caller holds the assignment's lock, as
    every write checked here does, so two sends cannot both pass.
    ``sent_before`` None: work that does not continue the last entry sent
    (a log, a record), or a page from before this was asked.
    """
    if sent_before is None:
        return
    sent = Entry.objects.filter(assignment=assignment, status=Entry.Status.SUBMITTED).exclude(
        key=key  # this one, sent a moment ago (a replayed send) is no newer entry
    )
    newest = sent.order_by("-submitted_at", "-pk").first()
    if newest is not None and sent.count() > sent_before:
        raise EntrySentSince(newest)


def _open_draft_locked(assignment: Assignment) -> Entry | None:
    """The assignment's draft, if it has one, decided under a lock on the
    assignment so that two first saves at once cannot both start one."""
    _lock_assignment(assignment)
    return Entry.objects.filter(assignment=assignment, status=Entry.Status.DRAFT).first()


def _lock_assignment(assignment: Assignment) -> None:
    """Entries of this assignment are made one at a time from here to commit."""
    Assignment.objects.select_for_update().values_list("pk", flat=True).get(pk=assignment.pk)


def _own_sent_entry_for_update(
    *, user: User, key: uuid.UUID, include_archived: bool = False
) -> Entry:
    """The client's own sent entry, locked; DoesNotExist for anyone else's."""
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
    """Change a sent entry, which the client may do until the therapist has read it.

    The same version check as drafts: an edit begun before another tab's
    change is refused (EntryConflict) rather than silently overwriting it.
    A log's entry counts for the day it now says it happened
    (``_slot_when_sent``).
    """
    entry = _own_sent_entry_for_update(user=user, key=key)
    if not entry.client_can_edit:
        raise EntryLocked
    assignment = entry.assignment
    kind = get_kind(assignment.exercise.kind)
    if entry.version != base_version:
        if entry.version == base_version + 1 and _edit_holds(entry, data, flags):
            # The edit just saved, sent again ("Save" clicked twice; the edit
            # page has no script to stop it): not a change made elsewhere.
            return entry
        raise EntryConflict(entry)
    edited = kind.validate(data, exercise=assignment.exercise, tz=assignment.client.timezone)
    answered_before = kind.response_of(entry)
    said_before = (entry.response, entry.discuss_in_session, entry.felt_unsafe)
    entry.response = kind.merge_edit(answered_before, edited, exercise=assignment.exercise)
    entry.schema_version = kind.schema_version
    # The answers changed now answer the form as the page showed it; the
    # others still answer what the client read when they gave them.
    entry.asked = kind.asked(
        assignment.exercise,
        entry.response,
        before=entry.asked,
        answered_before=answered_before,
        shown=shown,
    )
    entry.score = kind.score(entry.response, exercise=assignment.exercise)
    if kind.is_log:
        # The client may have put right when it happened: it counts for that day.
        entry.occurrence_on = _slot_when_sent(entry, kind, begun=_slot_begun_in(entry))
    # Words of an earlier try at this change, kept unsent when it was refused
    # (entry_keep_refused_edit), are in the entry now: they need not wait twice.
    entry.note_draft = _without_paragraphs(entry.note_draft, _texts(entry.response))
    entry.discuss_in_session = flags.discuss_in_session
    entry.felt_unsafe = flags.felt_unsafe
    was_private, entry.private = entry.private, flags.private
    if was_private and not entry.private:
        entry.shared_at = timezone.now()
    if not was_private and (entry.response, flags.discuss_in_session, flags.felt_unsafe) != (
        said_before
    ):
        # What the therapist could already read has changed: they see when
        # (Entry.changed_at). "Save" with nothing changed is not a change.
        entry.changed_at = timezone.now()
    entry.version += 1
    entry.save(
        update_fields=[
            "response",
            "schema_version",
            "asked",
            "score",
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
    if not was_private:
        _forget_stored_summaries(entry)  # the words it shared before have changed
    if was_private and not entry.private:
        _notify_when_shared(entry)
    return entry


def _edit_holds(entry: Entry, data: Mapping[str, Any], flags: Flags) -> bool:
    """Whether these posted answers, as an edit would save them, are what the entry says."""
    exercise = entry.assignment.exercise
    kind = get_kind(exercise.kind)
    try:
        edited = kind.validate(data, exercise=exercise, tz=entry.assignment.client.timezone)
    except ResponseInvalid:
        return False
    return _holds(entry, kind.merge_edit(kind.response_of(entry), edited, exercise=exercise), flags)


@transaction.atomic
def entry_set_private(*, user: User, key: uuid.UUID, private: bool) -> Entry:
    """Keep a sent entry to yourself, or share it.

    Sharing is always possible. Taking back a shared entry is possible only
    until the therapist has read it: after that, they know what it says.
    """
    entry = _own_sent_entry_for_update(user=user, key=key)
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
        _forget_stored_summaries(entry)
    else:
        _notify_when_shared(entry)
    return entry


def _forget_stored_summaries(entry: Entry) -> None:
    """Words taken back or changed leave no copy in a summary stored ahead of
    a session (the evening batch's): once the change is committed, and never
    failing the client's save if the storage does."""
    from homework.summary.services import summary_forget

    client_id = entry.assignment.client_id
    transaction.on_commit(lambda: summary_forget(client_id=client_id), robust=True)


def _notify_when_shared(entry: Entry) -> None:
    if entry.therapist_notified_at is None:
        from homework.tasks import notify_therapist_of_submission

        enqueue_on_commit(notify_therapist_of_submission, entry.pk)


NOTE_MAX_CHARS = 2000
# Said by the note form and by this service alike; %(limit)s and %(length)s
# are the numbers as the language writes them ("2,000").
NOTE_TOO_LONG = grouped_count(
    ngettext_lazy(
        "Notes can be up to %(limit)s character; this one has %(length)s. "
        "Shorten it a little, or add a second note.",
        "Notes can be up to %(limit)s characters; this one has %(length)s. "
        "Shorten it a little, or add a second note.",
        "limit_value",
    )
)


# A note that could not be sent is kept whole up to the longest answer the
# portal takes anywhere: generous, and bounded for storage.
NOTE_DRAFT_MAX_CHARS = settings.LONG_TEXT_MAX_CHARS


def note_is_too_long(text: str) -> bool:
    """The note's length rule, for the form, this service and the kept note alike."""
    return len(text.strip()) > NOTE_MAX_CHARS


@transaction.atomic
def entry_add_note(*, user: User, key: uuid.UUID, text: str) -> EntryNote:
    """Add a few lines to a sent entry (the way to say more once it has been read).

    The note the client had kept unsent on this entry (entry_keep_note_draft)
    is the one they have now sent, shortened or not: it is cleared.
    """
    entry = _own_sent_entry_for_update(user=user, key=key)
    text = text.strip()
    if not text:
        raise ValidationError({"text": [_("Write something first.")]})
    if note_is_too_long(text):
        too_long = NOTE_TOO_LONG % {"limit_value": NOTE_MAX_CHARS, "show_value": len(text)}
        raise ValidationError({"text": [too_long]})
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
    *, user: User, key: uuid.UUID, text: str, include_archived: bool = False
) -> Entry:
    """Keep the words of a note that could not be sent, on the server, as the
    note not sent yet on this entry: the note box opens with them next time.

    A note has no autosave, and the ways out of the portal (the quick exit,
    the idle end, "Sign out") send what was in its box as they go; a note
    longer than a note may be was refused then, and the words were gone. The
    box as the client left it is what is kept: an emptied box clears it.
    Only the entry's unsent note changes (not its version: an edit open in
    another tab is not in conflict with a note). Up to NOTE_DRAFT_MAX_CHARS;
    past that, a ValidationError naming the field and nothing kept.
    ``include_archived``: the client's own entry after the notebook closed
    (no note can be sent then; the words go in their download).
    """
    entry = _own_sent_entry_for_update(user=user, key=key, include_archived=include_archived)
    _keep_note_draft(entry, text)
    return entry


@transaction.atomic
def entry_keep_refused_edit(
    *, user: User, key: uuid.UUID, data: Mapping[str, Any], include_archived: bool = False
) -> Entry:
    """Keep the words of a change to a sent entry that could not be saved (the
    therapist read it first, another tab changed it, an answer needs another
    look, the notebook closed) as the entry's unsent note, added to one
    already waiting (note_with_edit_words).

    Such words are on the client's page alone, and the ways out of the portal
    send only what was typed since that page opened: leaving, they were gone.
    Kept here, the note box opens with them next time, they are in the
    client's download, and the therapist sees them only if the client sends
    the note. The entry itself, and its version, stay as they are.
    ``include_archived``: the client's own entry after the notebook closed.
    Past NOTE_DRAFT_MAX_CHARS, a ValidationError and nothing kept.
    """
    entry = _own_sent_entry_for_update(user=user, key=key, include_archived=include_archived)
    _keep_note_draft(entry, note_with_edit_words(entry, data))
    return entry


def _keep_note_draft(entry: Entry, text: str) -> None:
    # Not something anyone types, and PostgreSQL's text cannot hold it.
    text = text.replace("\x00", "")
    if not text.strip():
        text = ""
    if len(text) > NOTE_DRAFT_MAX_CHARS:
        raise ValidationError({"text": [too_long(limit=NOTE_DRAFT_MAX_CHARS, length=len(text))]})
    if entry.note_draft != text:
        entry.note_draft = text
        entry.save(update_fields=["note_draft"])


PARAGRAPH = "\n\n"


def edit_words(entry: Entry, data: Mapping[str, Any]) -> list[str]:
    """The words of a change to the entry that it does not hold. Any kind:
    every piece of text typed into the form's text boxes is compared with
    every piece of text the entry holds. A note is for words: numbers, dates
    and the codes of picked choices ("them", "not_yet") are left out."""
    kind = get_kind(entry.assignment.exercise.kind)
    sent = set(_texts(kind.response_of(entry)))
    typed = typed_values(data, kind.form(exercise=entry.assignment.exercise))
    return [text for text in _texts(typed) if text not in sent]


def note_with_edit_words(entry: Entry, data: Mapping[str, Any]) -> str:
    """The entry's unsent note with the words of a change to it that could
    not be saved (edit_words) that the note does not hold yet, a paragraph each."""
    note = entry.note_draft
    for text in edit_words(entry, data):
        if _has_paragraph(note, text):
            continue  # e.g. the same refused change sent again (the idle warning, then "Sign out")
        note = f"{note}{PARAGRAPH}{text}" if note else text
    return note


def _has_paragraph(note: str, text: str) -> bool:
    framed = f"{PARAGRAPH}{note}{PARAGRAPH}"
    return f"{PARAGRAPH}{text}{PARAGRAPH}" in framed


def _without_paragraphs(note: str, texts: list[str]) -> str:
    if not note:
        return note
    held = set(texts)
    return PARAGRAPH.join(p for p in note.split(PARAGRAPH) if p.strip() not in held)


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value.strip()] if _is_words(value.strip()) else []
    if isinstance(value, Mapping):
        value = list(value.values())
    if isinstance(value, list):
        return [text for item in value for text in _texts(item)]
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


class NotificationNotSent(Exception):
    """The mail server could not take a therapist's notification (the task retries)."""


def entry_notify_therapist(*, entry_id: int) -> bool:
    """Tell the therapist, discreetly, that something new has arrived.

    Safe to run twice: the row lock and ``therapist_notified_at`` make sure
    one email goes out per entry. The email names no client and no exercise:
    inboxes are read on shared screens too.

    A failure is counted; one that cannot get better, or one too many
    (practice.delivery), is given up: the entry is on the therapist's admin
    home either way. Otherwise NotificationNotSent, raised once the count has
    committed, asks for the retry.
    """
    outcome = _entry_try_notify(entry_id)
    if outcome == "failed":
        raise NotificationNotSent(entry_id)
    return outcome == "sent"


@transaction.atomic
def _entry_try_notify(entry_id: int) -> str:
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("assignment__client__therapist")
        .get(pk=entry_id)
    )
    if (
        entry.therapist_notified_at
        or entry.notify_given_up_at
        or not entry.is_submitted
        or entry.private
    ):
        return "skipped"
    therapist = entry.assignment.client.therapist
    context = {"therapist": therapist, "admin_url": settings.SITE_URL + reverse("admin:index")}
    message = EmailMultiAlternatives(
        subject=render_to_string("homework/email/new-entry-subject.txt", context).strip(),
        body=render_to_string("homework/email/new-entry-body.txt", context),
        to=[therapist.email],
    )
    message.attach_alternative(
        render_to_string("homework/email/new-entry-body.html", context), "text/html"
    )
    now = timezone.now()
    entry.notify_attempts += 1
    try:
        message.send()
    except (OSError, SMTPException, BadHeaderError) as failure:
        return delivery.count_failure(
            entry,
            failure,
            attempts="notify_attempts",
            given_up="notify_given_up_at",
            asked_at=entry.submitted_at,
            now=now,
            what=f"the therapist's notice of entry {entry.pk}",
        )
    entry.therapist_notified_at = now
    entry.save(update_fields=["therapist_notified_at", "notify_attempts"])
    return "sent"


def validation_messages(error: ValidationError) -> dict[str, list[str]]:
    return error.message_dict if hasattr(error, "error_dict") else {"__all__": error.messages}
