"""The therapist reading and answering."""

import datetime as dt
import uuid
from collections.abc import Iterable, Mapping

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clients.models import AccessEvent, Client
from clients.selectors import clients_for_user
from clients.services import access_event_record, access_events_record
from homework.models import Entry, EntryComment
from homework.models.field_limits import COMMENT_MAX_CHARS, too_long
from homework.selectors import (
    entries_for_user,
    entry_commentable_by,
    is_their_therapist,
)
from practice.models import User
from practice.requests import SENT_TWICE_WINDOW


def _readable_entry(actor: User, entry: Entry) -> None:
    if not entries_for_user(user=actor).filter(pk=entry.pk).exists():
        raise PermissionDenied(_("This entry is not one of your clients'."))


def _record_view(actor: User, client: Client, what: str) -> None:
    access_event_record(actor=actor, client=client, action=AccessEvent.Action.VIEWED, what=what)


@transaction.atomic
def entry_list_record_view(*, actor: User, entries: Iterable[Entry]) -> None:
    shown = [entry.assignment.client for entry in entries if entry.readable_by_staff]
    access_events_record(
        actor=actor, clients=shown, action=AccessEvent.Action.VIEWED, what="Entry list"
    )


@transaction.atomic
def entry_record_view(*, actor: User, entry: Entry) -> None:
    """Opening is never reading: only ``entries_mark_read`` ends the client's edits."""
    _readable_entry(actor, entry)
    client = entry.assignment.client
    _record_view(actor, client, f"{entry.assignment.exercise.title} ({entry.pk})")


@transaction.atomic
def since_last_session_record_view(*, actor: User, client: Client) -> None:
    if not clients_for_user(user=actor).filter(pk=client.pk).exists():
        raise PermissionDenied(_("This is not one of your clients."))
    _record_view(actor, client, "Since last session")


@transaction.atomic
def records_record_view(*, actor: User, client: Client, action: str, what: str) -> None:
    access_event_record(actor=actor, client=client, action=action, what=what)


@transaction.atomic
def entries_mark_read(
    *, user: User, client: Client, shown: Mapping[uuid.UUID, int], now: dt.datetime
) -> set[uuid.UUID]:
    """``shown`` holds the versions the page showed, so nothing changed since is marked unseen."""
    if not clients_for_user(user=user).filter(pk=client.pk).exists():
        raise PermissionDenied(_("This is not one of your clients."))
    if not is_their_therapist(user=user, client=client):
        raise PermissionDenied(_("Only the client's own therapist can mark their entries as read."))
    if not shown:
        raise ValidationError(_("No entries were chosen, so nothing was marked as read."))
    # Locked, so a client's edit or "make private" in flight is decided before or after, never during.
    entries = list(
        entries_for_user(user=user)
        .filter(key__in=list(shown), assignment__client=client)
        .select_for_update(of=("self",))
    )
    if len(entries) != len(shown):
        raise ValidationError(
            _("Some of these entries are not this client's. Nothing was marked as read.")
        )
    if not all(entry.readable_by_staff for entry in entries):
        raise ValidationError(
            _(
                "One of these entries is private: only the client can read it. "
                "Nothing was marked as read."
            )
        )
    unread = [entry for entry in entries if entry.seen_at is None]
    changed = sum(1 for entry in unread if entry.version != shown[entry.key])
    if changed:
        raise ValidationError(
            ngettext(
                "%(count)d entry changed after your page was opened. Nothing was marked "
                "as read: look at it again first.",
                "%(count)d entries changed after your page was opened. Nothing was marked "
                "as read: look at them again first.",
                changed,
            )
            % {"count": changed}
        )
    if unread:
        Entry.objects.filter(pk__in=[e.pk for e in unread], seen_at__isnull=True).update(
            seen_at=now
        )
    return {entry.key for entry in unread}


@transaction.atomic
def entry_comment_add(*, actor: User, entry: Entry, text: str) -> EntryComment:
    _readable_entry(actor, entry)
    # Decided on the locked entry: it may have been made private since the page loaded.
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("assignment__client", "assignment__exercise")
        .get(pk=entry.pk)
    )
    if not entry_commentable_by(user=actor, entry=entry):
        if not entry.readable_by_staff:
            raise ValidationError(_("This entry is private: only the client can read it."))
        raise PermissionDenied(_("Only the client's own therapist can comment."))
    text = (text or "").strip()
    if not text:
        raise ValidationError({"text": [_("Write a few words first.")]})
    too_long_message = too_long(text, limit=COMMENT_MAX_CHARS)
    if too_long_message:
        raise ValidationError({"text": [too_long_message]})
    if "\x00" in text:
        raise ValidationError({"text": [_("This text has a character that cannot be saved.")]})
    # Locked, so a note sent twice is decided in turn; compared here, as the column is encrypted.
    recent = EntryComment.objects.filter(
        entry=entry, author=actor, created_at__gte=timezone.now() - SENT_TWICE_WINDOW
    ).order_by("created_at", "pk")
    comment = next((c for c in recent if c.text == text), None) or EntryComment.objects.create(
        entry=entry, author=actor, text=text
    )
    return comment
