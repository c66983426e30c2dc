"""Reading and setting the therapist's notices in the outbox, for tests."""

from django.utils import timezone

from homework.models import Entry, OutboxMessage


def notice_of(entry: Entry) -> OutboxMessage:
    return OutboxMessage.objects.get(kind=OutboxMessage.Kind.ENTRY_NOTICE, entry=entry)


def therapist_told(entry: Entry) -> bool:
    """Whether the therapist's notice of ``entry`` went (False: none yet, or none written)."""
    return OutboxMessage.objects.filter(
        kind=OutboxMessage.Kind.ENTRY_NOTICE, entry=entry, state=OutboxMessage.State.SENT
    ).exists()


def mark_every_notice_sent() -> None:
    now = timezone.now()
    OutboxMessage.objects.update(state=OutboxMessage.State.SENT, sent_at=now, last_tried_at=now)
