"""The discreet email to the therapist that follows a shared entry."""

from django.db import transaction
from django.utils import timezone

from homework.models import Entry, OutboxMessage
from homework.services.alerts import alerts_raise
from homework.services.outbox import (
    entry_notice_for_update,
    entry_notice_write,
    message_email,
    notice_send_again,
)
from practice.delivery import raise_if_failed
from practice.queue import enqueue_on_commit


def notify_when_shared(entry: Entry) -> None:
    """Call in the transaction that shares or changes the entry: its alerts are raised with it."""
    raised = alerts_raise(entry=entry)
    notice = entry_notice_write(entry=entry)
    if raised and notice.kind == OutboxMessage.Kind.FLAG_NOTICE:
        # A new alert is news now, even on an entry whose first notice went long ago.
        notice_send_again(notice)
    if notice.state == OutboxMessage.State.PENDING:
        from homework.tasks import notify_therapist_of_submission

        enqueue_on_commit(notify_therapist_of_submission, entry.pk)


class NotificationNotSent(Exception):
    """The mail server could not take it this time (the task retries)."""


def entry_notify_therapist(*, entry_id: int) -> bool:
    """One email per entry, naming no client and no exercise: inboxes are read on shared screens."""
    return raise_if_failed(_entry_try_notify(entry_id), NotificationNotSent(entry_id)) == "sent"


@transaction.atomic
def _entry_try_notify(entry_id: int) -> str:
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("assignment__client__therapist")
        .get(pk=entry_id)
    )
    notice = entry_notice_for_update(entry_id=entry.pk)
    if notice is None or notice.state != OutboxMessage.State.PENDING or not entry.readable_by_staff:
        return "skipped"
    therapist = entry.assignment.client.therapist
    notice.recipient = therapist  # the client's therapist when it goes, should they have moved
    # A flagged entry's email says "soon" and nothing more: the inbox may be read by others too.
    name = "flagged-entry" if notice.kind == OutboxMessage.Kind.FLAG_NOTICE else "new-entry"
    return message_email(
        message=notice,
        template=f"homework/email/{name}",
        context={"therapist": therapist},
        to=therapist,
        asked_at=entry.submitted_at,
        now=timezone.now(),
        what=f"the therapist's notice of entry {entry.pk}",
    )
