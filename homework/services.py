"""Every write to homework goes through here."""

import datetime as dt
import uuid
import zoneinfo
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from clients.models import AccessEvent, Client
from clients.selectors import clients_for_user
from clients.services import access_event_record
from homework import schedules
from homework.kinds import get_kind
from homework.models import Assignment, Entry, EntryComment, EntryNote, Exercise
from homework.selectors import (
    entries_for_user,
    entry_commentable_by,
    entry_readable_by_staff,
    exercises_for_user,
    portal_assignment,
)
from practice.models import User
from practice.queue import enqueue_on_commit


class EntryLocked(Exception):
    """The therapist has read this entry, so it stays as it was (a note can be added)."""


class EntryConflict(Exception):
    """The entry changed since the form was loaded (another tab or device)."""

    def __init__(self, entry: Entry) -> None:
        super().__init__(entry.key)
        self.entry = entry


@dataclass(frozen=True)
class Flags:
    discuss_in_session: bool = False
    felt_unsafe: bool = False
    private: bool = False


@transaction.atomic
def assignment_create(
    *,
    actor: User,
    client: Client,
    exercise: Exercise,
    starts_on: dt.date,
    due_on: dt.date | None = None,
    schedule: str = Assignment.Schedule.ONCE,
    weekdays: Sequence[int] = (),
    ends_on: dt.date | None = None,
    no_contact_since: dt.date | None = None,
    instructions: str = "",
) -> Assignment:
    """Give ``client`` an exercise. Staff may assign only to clients they can see."""
    if not clients_for_user(user=actor).filter(pk=client.pk).exists():
        raise PermissionDenied("You cannot assign work to this client.")
    if not exercises_for_user(user=actor).filter(pk=exercise.pk).exists():
        raise PermissionDenied("You cannot use this exercise.")
    if client.status != Client.Status.ACTIVE:
        raise ValidationError(
            {"client": _("%(client)s is archived: restore them first.") % {"client": client}}
        )
    assignment = Assignment(
        client=client,
        exercise=exercise,
        instructions=instructions,
        starts_on=starts_on,
        due_on=due_on,
        schedule=schedule,
        weekdays=list(weekdays),
        ends_on=ends_on,
        no_contact_since=no_contact_since,
        created_by=actor,
    )
    assignment.full_clean()
    assignment.save()
    return assignment


ASSIGNMENT_EDITABLE_FIELDS = frozenset(
    {
        "exercise",
        "instructions",
        "starts_on",
        "due_on",
        "schedule",
        "weekdays",
        "ends_on",
        "no_contact_since",
        "status",
    }
)


@transaction.atomic
def assignment_update(*, actor: User, assignment: Assignment, **changes: Any) -> Assignment:
    """Change an assignment's details. Its client never changes: entries hang on it."""
    if not clients_for_user(user=actor).filter(pk=assignment.client_id).exists():
        raise PermissionDenied("You cannot change this client's work.")
    client = changes.pop("client", assignment.client)
    if client.pk != assignment.client_id:
        raise PermissionDenied("An assignment stays with its client.")
    unknown = set(changes) - ASSIGNMENT_EDITABLE_FIELDS
    if unknown:
        raise TypeError(f"Unknown assignment fields: {sorted(unknown)}")
    if (
        "exercise" in changes
        and not exercises_for_user(user=actor).filter(pk=changes["exercise"].pk).exists()
    ):
        raise PermissionDenied("You cannot use this exercise.")
    for name, value in changes.items():
        setattr(assignment, name, value)
    assignment.full_clean()
    assignment.save(update_fields=list(changes))
    return assignment


@transaction.atomic
def exercise_save(*, actor: User, exercise: Exercise) -> Exercise:
    """Add or change a library exercise. A therapist's new exercise is their own."""
    if not (actor.is_therapist or actor.is_manager):
        raise PermissionDenied("Only staff edit the library.")
    if exercise.pk is None:
        exercise.owner = None if actor.is_manager else actor
    elif not actor.is_manager and exercise.owner_id != actor.pk:
        raise PermissionDenied("You can change only your own exercises.")
    exercise.options = get_kind(exercise.kind).clean_options(exercise.options)
    exercise.full_clean()
    exercise.save()
    return exercise


@transaction.atomic
def assignment_create_many(
    *, actor: User, clients: Sequence[Client], exercise: Exercise, **details: Any
) -> list[Assignment]:
    """Give several clients the same exercise: all of them, or (on any refusal) none."""
    if not clients:
        raise ValidationError(_("Choose at least one client."))
    return [
        assignment_create(actor=actor, client=client, exercise=exercise, **details)
        for client in clients
    ]


# -- the therapist reads and answers ----------------------------------------------

COMMENT_MAX_CHARS = 2000


def _readable_entry(actor: User, entry: Entry) -> None:
    if not entries_for_user(user=actor).filter(pk=entry.pk).exists():
        raise PermissionDenied("This entry is not one of your clients'.")


def _record_view(actor: User, client: Client, what: str) -> None:
    access_event_record(actor=actor, client=client, action=AccessEvent.Action.VIEWED, what=what)


@transaction.atomic
def entry_mark_seen(*, actor: User, entry: Entry) -> Entry:
    """A member of staff opens an entry: note it in the client's access log and,
    on the client's own therapist's first read, set ``seen_at``.

    From then on the client can no longer change what they sent (what the
    therapist read stays as it was). A private entry is never read, so never
    marked; a manager's look is logged but is not the therapist's read.
    """
    _readable_entry(actor, entry)
    client = entry.assignment.client
    _record_view(actor, client, f"{entry.assignment.exercise.title} ({entry.pk})")
    if entry.seen_at is None and entry_commentable_by(user=actor, entry=entry):
        now = timezone.now()
        # Conditional, and touching seen_at alone: a parallel read or a client's
        # save in flight never has its own changes overwritten.
        # And only while it is still shared: the client may have just made it private.
        unseen = Entry.objects.filter(pk=entry.pk, seen_at__isnull=True, private=False)
        if unseen.update(seen_at=now):
            entry.seen_at = now
    return entry


@transaction.atomic
def entries_mark_seen(
    *, actor: User, client: Client, after: dt.datetime, until: dt.datetime
) -> set[int]:
    """The "since last session" view opens: every shared entry the client sent
    in (after, until] counts as read by their therapist. Returns the ids read
    for the first time now (the view marks them "new").

    Called before the entries are read for display, so what is shown is
    exactly what became fixed.
    """
    if not clients_for_user(user=actor).filter(pk=client.pk).exists():
        raise PermissionDenied("This is not one of your clients.")
    _record_view(actor, client, "Since last session")
    if not (actor.is_therapist and client.therapist_id == actor.pk):
        return set()
    unseen = entries_for_user(user=actor).filter(
        assignment__client=client,
        submitted_at__gt=after,
        submitted_at__lte=until,
        private=False,
        seen_at__isnull=True,
    )
    ids = set(unseen.select_for_update(of=("self",)).values_list("pk", flat=True))
    if ids:
        Entry.objects.filter(pk__in=ids, seen_at__isnull=True).update(seen_at=timezone.now())
    return ids


@transaction.atomic
def entry_comment_add(*, actor: User, entry: Entry, text: str) -> EntryComment:
    """A short note from the therapist, shown to the client beside their entry.

    The therapist's only write into a client's records: only the client's own
    therapist, only on an entry they may read, never empty or over the limit.
    """
    _readable_entry(actor, entry)
    # Decide on the entry as it is now, locked: it may have been made private
    # since the page that offered the comment box was loaded.
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("assignment__client", "assignment__exercise")
        .get(pk=entry.pk)
    )
    if not entry_commentable_by(user=actor, entry=entry):
        if not entry_readable_by_staff(entry):
            raise ValidationError(_("This entry is private: only the client can read it."))
        raise PermissionDenied(_("Only the client's own therapist can comment."))
    text = (text or "").strip()
    if not text:
        raise ValidationError({"text": [_("Write a few words first.")]})
    if len(text) > COMMENT_MAX_CHARS:
        raise ValidationError(
            {
                "text": [
                    _("Keep it under %(limit)s characters (this one has %(count)s).")
                    % {"limit": COMMENT_MAX_CHARS, "count": len(text)}
                ]
            }
        )
    if "\x00" in text:
        raise ValidationError({"text": [_("This text has a character that cannot be saved.")]})
    comment = EntryComment.objects.create(entry=entry, author=actor, text=text)
    entry_mark_seen(actor=actor, entry=entry)
    return comment


def _load_for_write(
    *, user: User, assignment_id: int, key: uuid.UUID
) -> tuple[Assignment, Entry | None]:
    assignment = portal_assignment(user=user, assignment_id=assignment_id)
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
        "discuss_in_session": flags.discuss_in_session,
        "felt_unsafe": flags.felt_unsafe,
        "private": flags.private,
    }
    if submit:
        values.update(
            status=Entry.Status.SUBMITTED,
            submitted_at=now,
            score=kind.score(dict(response), exercise=assignment.exercise),
        )
    if entry is None:
        # A recurring assignment's entry belongs to the slot it was started
        # in, on the client's calendar (homework.schedules).
        today = timezone.localdate(now, timezone=zoneinfo.ZoneInfo(assignment.client.timezone))
        occurrence_on = schedules.slot_for_new_entry(assignment, today)
        try:
            with transaction.atomic():
                return Entry.objects.create(
                    key=key,
                    assignment=assignment,
                    version=1,
                    occurrence_on=occurrence_on,
                    **values,
                )
        except IntegrityError:
            # The same key was created a moment ago by a parallel request.
            raise EntryConflict(Entry.objects.get(key=key, assignment=assignment)) from None
    for name, value in values.items():
        setattr(entry, name, value)
    entry.version += 1
    entry.save(update_fields=[*values, "version", "updated_at"])
    return entry


@transaction.atomic
def entry_save_draft(
    *,
    user: User,
    assignment_id: int,
    key: uuid.UUID,
    base_version: int,
    data: Mapping[str, Any],
    flags: Flags,
) -> Entry:
    """Keep what the client has typed so far, on the server.

    ``base_version`` is the version the page last saw (0 for a new entry); a
    different current version means another tab saved in between, and we
    refuse rather than overwrite (EntryConflict). A sent entry is no longer
    a draft: saving over it is a conflict too.
    """
    assignment, entry = _load_for_write(user=user, assignment_id=assignment_id, key=key)
    if entry is not None and entry.is_submitted:
        raise EntryConflict(entry)
    kind = get_kind(assignment.exercise.kind)
    draft = kind.validate_draft(data, exercise=assignment.exercise, tz=assignment.client.timezone)
    return _write(
        assignment=assignment,
        entry=entry,
        key=key,
        base_version=base_version,
        response=draft,
        flags=flags,
        submit=False,
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
) -> Entry:
    """Validate and send an entry to the therapist.

    Idempotent: the key is chosen when the form opens, so a double click or a
    replayed request finds the entry already sent and changes nothing.
    """
    assignment, entry = _load_for_write(user=user, assignment_id=assignment_id, key=key)
    if entry is not None and entry.is_submitted:
        return entry
    kind = get_kind(assignment.exercise.kind)
    response = kind.validate(data, exercise=assignment.exercise, tz=assignment.client.timezone)
    entry = _write(
        assignment=assignment,
        entry=entry,
        key=key,
        base_version=base_version,
        response=response,
        flags=flags,
        submit=True,
    )
    if not entry.private:
        from homework.tasks import notify_therapist_of_submission

        enqueue_on_commit(notify_therapist_of_submission, entry.pk)
    return entry


def _own_sent_entry_for_update(*, user: User, key: uuid.UUID) -> Entry:
    """The client's own sent entry, locked; DoesNotExist for anyone else's."""
    visible = entries_for_user(user=user).filter(key=key, status=Entry.Status.SUBMITTED)
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
) -> Entry:
    """Change a sent entry, which the client may do until the therapist has read it.

    The same version check as drafts: an edit begun before another tab's
    change is refused (EntryConflict) rather than silently overwriting it.
    """
    entry = _own_sent_entry_for_update(user=user, key=key)
    if not entry.client_can_edit:
        raise EntryLocked
    if entry.version != base_version:
        raise EntryConflict(entry)
    assignment = entry.assignment
    kind = get_kind(assignment.exercise.kind)
    entry.response = kind.validate(
        data, exercise=assignment.exercise, tz=assignment.client.timezone
    )
    entry.schema_version = kind.schema_version
    entry.score = kind.score(entry.response, exercise=assignment.exercise)
    entry.discuss_in_session = flags.discuss_in_session
    entry.felt_unsafe = flags.felt_unsafe
    was_private, entry.private = entry.private, flags.private
    entry.version += 1
    entry.save(
        update_fields=[
            "response",
            "schema_version",
            "score",
            "discuss_in_session",
            "felt_unsafe",
            "private",
            "version",
            "updated_at",
        ]
    )
    if was_private and not entry.private:
        _notify_when_shared(entry)
    return entry


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
    entry.version += 1
    entry.save(update_fields=["private", "version", "updated_at"])
    if not private:
        _notify_when_shared(entry)
    return entry


def _notify_when_shared(entry: Entry) -> None:
    if entry.therapist_notified_at is None:
        from homework.tasks import notify_therapist_of_submission

        enqueue_on_commit(notify_therapist_of_submission, entry.pk)


NOTE_MAX_CHARS = 2000


@transaction.atomic
def entry_add_note(*, user: User, key: uuid.UUID, text: str) -> EntryNote:
    """Add a few lines to a sent entry (the way to say more once it has been read)."""
    entry = _own_sent_entry_for_update(user=user, key=key)
    text = text.strip()
    if not text:
        raise ValidationError({"text": [_("Write something first.")]})
    if len(text) > NOTE_MAX_CHARS:
        raise ValidationError(
            {"text": [_("A note can be up to %(limit)s characters.") % {"limit": NOTE_MAX_CHARS}]}
        )
    if "\x00" in text:
        raise ValidationError({"text": [_("Null characters are not allowed.")]})
    return EntryNote.objects.create(entry=entry, text=text)


@transaction.atomic
def entry_notify_therapist(*, entry_id: int) -> bool:
    """Tell the therapist, discreetly, that something new has arrived.

    Safe to run twice: the row lock and ``therapist_notified_at`` make sure
    one email goes out per entry. The email names no client and no exercise:
    inboxes are read on shared screens too.
    """
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("assignment__client__therapist")
        .get(pk=entry_id)
    )
    if entry.therapist_notified_at or not entry.is_submitted or entry.private:
        return False
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
    message.send()
    entry.therapist_notified_at = timezone.now()
    entry.save(update_fields=["therapist_notified_at"])
    return True


def validation_messages(error: ValidationError) -> dict[str, list[str]]:
    return error.message_dict if hasattr(error, "error_dict") else {"__all__": error.messages}
