"""Done messages go after the practice's ``message_keep_days``; a waiting one never goes."""

import datetime as dt

from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Coalesce

from homework.models import OutboxMessage
from practice.selectors import practice_settings

# Rows per delete, each batch its own short transaction, so no long lock on the outbox table.
PURGE_BATCH = 1000
DONE_STATES = (
    OutboxMessage.State.SENT,
    OutboxMessage.State.GIVEN_UP,
    OutboxMessage.State.NOT_SENT,
)


def outbox_purge_done(*, now: dt.datetime, batch: int = PURGE_BATCH) -> int:
    cutoff = now - dt.timedelta(days=practice_settings().message_keep_days)
    old = (
        OutboxMessage.objects.filter(state__in=DONE_STATES)
        .alias(done_at=Coalesce("sent_at", "last_tried_at", "created_at"))
        .filter(Q(done_at__lt=cutoff))
    )
    removed = 0
    while True:
        with transaction.atomic():
            ids = list(old.order_by("pk").values_list("pk", flat=True)[:batch])
            if not ids:
                return removed
            removed += OutboxMessage.objects.filter(pk__in=ids).delete()[0]
