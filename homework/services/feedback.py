"""The therapist reading and answering: seen marks (each written to the
access log) and comments."""

import datetime as dt
from collections.abc import Iterable

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clients.models import AccessEvent, Client
from clients.selectors import clients_for_user
from clients.services import access_event_record, access_events_record
from homework.models import Entry, EntryComment
from homework.models.field_limits import COMMENT_MAX_CHARS, too_long
from homework.selectors import (
    entries_for_user,
    entry_commentable_by,
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
    """A list page that shows entries' words (the admin's entry list): a line
    in the access log of each client whose words it showed. Not a read: an
    excerpt is not the entry."""
    shown = [entry.assignment.client for entry in entries if entry.readable_by_staff]
    access_events_record(
        actor=actor, clients=shown, action=AccessEvent.Action.VIEWED, what="Entry list"
    )


@transaction.atomic
def entry_mark_seen(*, actor: User, entry: Entry, counts_as_read: bool = True) -> Entry:
    """A member of staff opens an entry: note it in the client's access log and,
    on the client's own therapist's first read, set ``seen_at``.

    ``counts_as_read`` False (a page opened from a link on another site,
    ``practice.requests.reading_marks_read``): the look is logged, as it was
    real, and nothing else changes.

    From then on the client can no longer change what they sent (what the
    therapist read stays as it was). A private entry is never read, so never
    marked; a manager's look is logged but is not the therapist's read.
    """
    _readable_entry(actor, entry)
    client = entry.assignment.client
    _record_view(actor, client, f"{entry.assignment.exercise.title} ({entry.pk})")
    if counts_as_read and entry.seen_at is None and entry_commentable_by(user=actor, entry=entry):
        now = timezone.now()
        # Conditional, and touching seen_at alone: a parallel read or a client's
        # save in flight never has its own changes overwritten.
        # And only while it is still shared: the client may have just made it private.
        unseen = Entry.objects.readable_by_staff().filter(pk=entry.pk, seen_at__isnull=True)
        if unseen.update(seen_at=now):
            entry.seen_at = now
    return entry


@transaction.atomic
def entries_mark_seen(
    *,
    actor: User,
    client: Client,
    after: dt.datetime,
    until: dt.datetime,
    counts_as_read: bool = True,
) -> set[int]:
    """The "since last session" view opens: every shared entry the client sent
    in (after, until] counts as read by their therapist. Returns the ids read
    for the first time now (the view marks them "new").

    Called before the entries are read for display, so what is shown is
    exactly what became fixed. ``counts_as_read`` False: logged, nothing read
    (entry_mark_seen).
    """
    if not clients_for_user(user=actor).filter(pk=client.pk).exists():
        raise PermissionDenied(_("This is not one of your clients."))
    _record_view(actor, client, "Since last session")
    if not counts_as_read:
        return set()
    return _read_by_their_therapist(actor, client, Q(shared_at__gt=after, shared_at__lte=until))


@transaction.atomic
def summary_record_read(
    *,
    actor: User,
    client: Client,
    printed: Iterable[int],
    action: str,
    what: str,
    counts_as_read: bool = True,
) -> set[int]:
    """Staff have a session summary in hand (printed, downloaded, exported):
    a line in the client's access log and, for the client's own therapist,
    each shared entry whose words the summary prints (``printed``) counts as
    read, as opening it would. Those words are on paper now: the portal says
    so, and no longer offers to take them back. An entry the summary only
    dates or counts (an older record, a brief safety plan) stays unread.
    Returns the ids read for the first time. ``counts_as_read`` False:
    logged, nothing read (entry_mark_seen)."""
    access_event_record(actor=actor, client=client, action=action, what=what)
    printed = list(printed)
    if not (counts_as_read and printed):
        return set()
    return _read_by_their_therapist(actor, client, Q(pk__in=printed))


def _read_by_their_therapist(actor: User, client: Client, which: Q) -> set[int]:
    """Set ``seen_at`` on the client's shared entries matching ``which``, if
    ``actor`` is their therapist (a manager's look is logged, not a read)."""
    if not (actor.is_therapist and client.therapist_id == actor.pk):
        return set()
    unseen = (
        entries_for_user(user=actor)
        .readable_by_staff()
        .filter(which, assignment__client=client, seen_at__isnull=True)
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
    The same note sent again within SENT_TWICE_WINDOW is the one already saved.
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
    # The entry is locked: the same note sent twice at once is decided in turn.
    # The words are compared here, not in SQL: the column holds them
    # encrypted (practice.encryption), and the window holds a few rows.
    recent = EntryComment.objects.filter(
        entry=entry, author=actor, created_at__gte=timezone.now() - SENT_TWICE_WINDOW
    ).order_by("created_at", "pk")
    comment = next((c for c in recent if c.text == text), None) or EntryComment.objects.create(
        entry=entry, author=actor, text=text
    )
    entry_mark_seen(actor=actor, entry=entry)
    return comment
