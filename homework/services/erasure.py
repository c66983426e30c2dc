"""What stays after erasure: a nameless Client tombstone and the access log's lines, emptied."""

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext_lazy

from clients.models import AccessEvent, Client
from clients.services import access_event_record, admin_history_forget, client_erase_own_records
from homework.models import (
    Alert,
    Assignment,
    ClientProgram,
    Entry,
    EntryComment,
    EntryNote,
    OutboxMessage,
    PreparedDownload,
)
from homework.selectors.erasure import client_records_fingerprint
from homework.services.stored_summaries import summary_forget
from practice.models import User
from practice.roles import require_manager


class ClientAlreadyErased(Exception):
    """The client's records are gone already."""


class ClientChangedSinceShown(Exception):
    """The records changed after the page was drawn, so nothing was erased."""


@dataclass(frozen=True)
class Erased:
    client_id: int
    entries: int


ERASURE_IS_THE_MANAGERS = gettext_lazy("Only a practice manager erases a client's records.")


def client_export_record(*, actor: User, client: Client, what: str) -> None:
    require_manager(actor, refusal=ERASURE_IS_THE_MANAGERS)
    access_event_record(actor=actor, client=client, action=AccessEvent.Action.EXPORTED, what=what)


@transaction.atomic
def client_erase(*, actor: User, client_id: int, fingerprint: str) -> Erased:
    """The client's row is locked first, so a second erasure finds it done."""
    require_manager(actor, refusal=ERASURE_IS_THE_MANAGERS)
    client = Client.objects.select_for_update().filter(pk=client_id).first()
    if client is None:
        raise Client.DoesNotExist
    if client.status == Client.Status.ERASED:
        raise ClientAlreadyErased
    if fingerprint != client_records_fingerprint(client_id=client.pk):
        raise ClientChangedSinceShown
    assignments = Assignment.objects.filter(client=client)
    entries = Entry.objects.filter(assignment__client=client)
    admin_history_forget(model=Entry, ids=list(entries.values_list("pk", flat=True)))
    admin_history_forget(model=Assignment, ids=list(assignments.values_list("pk", flat=True)))
    # An acknowledgement's line names why the alert was raised.
    alerts = Alert.objects.filter(client=client)
    admin_history_forget(model=Alert, ids=list(alerts.values_list("pk", flat=True)))
    erased_entries = entries.count()
    OutboxMessage.objects.filter(client=client).delete()
    PreparedDownload.objects.filter(client=client).delete()
    EntryComment.objects.filter(entry__assignment__client=client).delete()
    EntryNote.objects.filter(entry__assignment__client=client).delete()
    ClientProgram.objects.filter(client=client).delete()
    entries.delete()
    assignments.delete()
    summary_forget(client_id=client.pk)
    transaction.on_commit(lambda: summary_forget(client_id=client_id), robust=True)
    client_erase_own_records(actor=actor, client=client)
    return Erased(client_id=client.pk, entries=erased_entries)
