"""Reads for a manager's "Export and erase"."""

import hashlib
import json
from dataclasses import dataclass

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import QuerySet

from clients.models import Client, Invitation, Session
from homework.models import Assignment, Entry, EntryComment, EntryNote, OutboxMessage
from homework.selectors.scoping import entries_for_user
from practice.models import User
from practice.roles import is_acting_manager


def entries_for_practice_export(*, user: User, client_id: int) -> QuerySet[Entry]:
    """Never private entries or drafts (CLINICAL.md)."""
    if not is_acting_manager(user):
        return Entry.objects.none()
    return (
        entries_for_user(user=user)
        .readable_by_staff()
        .filter(assignment__client_id=client_id)
        .select_related("assignment__exercise")
        .prefetch_related("notes", "comments")
        .order_by("created_at")
    )


@dataclass(frozen=True)
class ErasureCounts:
    assignments: int
    entries: int  # drafts and private ones too: everything the client wrote
    sessions: int
    invitations: int
    has_portal_account: bool


def erasure_counts(*, client: Client) -> ErasureCounts:
    return ErasureCounts(
        assignments=Assignment.objects.filter(client=client).count(),
        entries=Entry.objects.filter(assignment__client=client).count(),
        sessions=Session.objects.filter(client=client).count(),
        invitations=Invitation.objects.filter(client=client).count(),
        has_portal_account=client.portal_user_id is not None,
    )


def client_records_fingerprint(*, client_id: int) -> str:
    """Records changed since the confirmation page refuse the erasure: the export lacks them."""
    entries = Entry.objects.filter(assignment__client_id=client_id)
    state = [
        list(
            Client.objects.filter(pk=client_id).values_list(
                "display_name", "status", "portal_user_id", "contact_email", "therapist_id"
            )
        ),
        list(
            Assignment.objects.filter(client_id=client_id)
            .order_by("pk")
            .values_list("pk", "status", "instructions")
        ),
        list(
            entries.order_by("pk").values_list(
                "pk", "version", "updated_at", "status", "note_draft"
            )
        ),
        list(
            EntryNote.objects.filter(entry__in=entries).order_by("pk").values_list("pk", flat=True)
        ),
        list(
            EntryComment.objects.filter(entry__in=entries)
            .order_by("pk")
            .values_list("pk", flat=True)
        ),
        list(
            Session.objects.filter(client_id=client_id)
            .order_by("pk")
            .values_list("pk", "starts_at")
        ),
        list(
            Invitation.objects.filter(client_id=client_id)
            .order_by("pk")
            .values_list("pk", "used_at", "revoked_at")
        ),
        list(
            OutboxMessage.objects.filter(client_id=client_id)
            .order_by("pk")
            .values_list("pk", flat=True)
        ),
    ]
    stored = json.dumps(state, cls=DjangoJSONEncoder)
    return hashlib.sha256(stored.encode()).hexdigest()
