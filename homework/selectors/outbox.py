from clients.models import Client
from homework.models import OutboxMessage, readable_by_staff_q
from practice import delivery


def pending_notification_ids(
    *, limit: int = delivery.SWEEP_LIMIT, tried_before: bool = False
) -> list[int]:
    ids = (
        OutboxMessage.objects.filter(
            readable_by_staff_q("entry__"),
            kind__in=(OutboxMessage.Kind.ENTRY_NOTICE, OutboxMessage.Kind.FLAG_NOTICE),
            state=OutboxMessage.State.PENDING,
            attempts__gte=1 if tried_before else 0,
        )
        .order_by("attempts", "entry__submitted_at", "entry_id")
        .values_list("entry_id", flat=True)[:limit]
    )
    return [pk for pk in ids if pk is not None]


REMINDERS_SHOWN = 5


def recent_reminders(*, client: Client, limit: int = REMINDERS_SHOWN) -> list[OutboxMessage]:
    return list(
        OutboxMessage.objects.filter(kind=OutboxMessage.Kind.REMINDER, client=client).order_by(
            "-slot_on", "-pk"
        )[:limit]
    )
