"""Writing messages to the outbox, and recording how each try went.

A message is written by the service whose change causes it, inside that
change's transaction; a worker sends it later, holding the row's lock so
it goes once (homework.models.outbox).
"""

import datetime as dt

from homework.models import Entry, OutboxMessage
from practice import delivery


def entry_notice_write(*, entry: Entry) -> OutboxMessage:
    """The therapist's notice that ``entry`` arrived: written once, the first
    time it is shared, and left as it is after (sent, given up or waiting).

    Call inside the transaction that shares the entry, with its row locked:
    the lock keeps two shares of one entry from both writing.
    """
    client = entry.assignment.client
    message, _created = OutboxMessage.objects.get_or_create(
        kind=OutboxMessage.Kind.ENTRY_NOTICE,
        entry=entry,
        defaults={"client": client, "recipient_id": client.therapist_id},
    )
    return message


def entry_notice_for_update(*, entry_id: int) -> OutboxMessage | None:
    """The notice of entry ``entry_id``, its row locked for this transaction
    (None: the entry was never shared, so nothing was asked for)."""
    return (
        OutboxMessage.objects.select_for_update(of=("self",))
        .filter(kind=OutboxMessage.Kind.ENTRY_NOTICE, entry_id=entry_id)
        .first()
    )


def message_mark_sent(*, message: OutboxMessage, now: dt.datetime) -> None:
    """Record that ``message`` went (its try already counted in ``attempts``)."""
    message.state = OutboxMessage.State.SENT
    message.sent_at = message.last_tried_at = now
    message.last_error = ""
    message.save(
        update_fields=["recipient", "state", "attempts", "sent_at", "last_tried_at", "last_error"]
    )


def message_count_failure(
    *,
    message: OutboxMessage,
    failure: BaseException,
    asked_at: dt.datetime | None,
    now: dt.datetime,
    what: str,
) -> str:
    """Record a try at ``message`` that failed with ``failure`` (already
    counted in ``attempts``), and give it up once practice.delivery says so.
    Returns "given-up", or "failed" while worth retrying."""
    stop = delivery.gives_up(failure, attempts=message.attempts, asked_at=asked_at, now=now)
    if stop:
        message.state = OutboxMessage.State.GIVEN_UP
    message.last_tried_at = now
    message.last_error = delivery.short_error(failure)[:200]
    message.save(update_fields=["state", "attempts", "last_tried_at", "last_error"])
    return delivery.log_failure(failure, what=what, tries=message.attempts, stop=stop)
