"""The baselines for bench.reminders, imported by its worker
(``celery worker -I bench.noop``).

``no_op`` does nothing but say it ran: the count in Redis is how the
benchmark knows the last one has run, one increment per task (the floor
pays it, our sends do not). ``floor_send`` is the least durable work a send
must do: lock its outbox row, mark it sent, commit (no profile, no message,
no channel); against it, a reminder's send shows the cost of our own code.
"""

import os
from functools import cache

import redis
from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone


@cache
def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


@shared_task(acks_late=True)
def no_op() -> None:
    _redis().incr(os.environ.get("BENCH_NO_OP_COUNTER", "bench:reminders:no-op"))


@shared_task(acks_late=True)
def floor_send(message_id: int) -> None:
    from homework.models import OutboxMessage

    with transaction.atomic():
        row = (
            OutboxMessage.objects.select_for_update()
            .filter(pk=message_id, state=OutboxMessage.State.PENDING)
            .first()
        )
        if row is not None:
            row.state, row.sent_at = OutboxMessage.State.SENT, timezone.now()
            row.save(update_fields=["state", "sent_at"])
