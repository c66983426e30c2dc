"""An alert its therapist has not acknowledged in time goes to the practice's managers, through
the outbox, in words that name no one: the inbox may be read by others too."""

import datetime as dt
import logging

from django.db import transaction

from homework.models import OutboxMessage
from homework.services.alerts import alerts_to_escalate
from homework.services.outbox import message_email, message_not_sent, pending_message_for_update
from practice.delivery import raise_if_failed
from practice.models import User
from practice.roles import is_acting_manager
from practice.selectors import practice_settings

logger = logging.getLogger(__name__)


class EscalationNotSent(Exception):
    """The mail server could not take it this time (the task retries)."""


@transaction.atomic
def alerts_escalate(*, now: dt.datetime) -> list[int]:
    """Each alert once: its messages and its ``escalated_at`` are written together. Returns every
    escalation still waiting, so a lost enqueue is sent by the next scan."""
    hours = practice_settings().alert_escalate_after_hours
    managers = list(
        User.objects.filter(role=User.Role.MANAGER, is_active=True).values_list("pk", flat=True)
    )
    due = alerts_to_escalate(now=now, after_hours=hours)
    if due and not managers:
        # Left open, so the first manager the practice adds is told.
        logger.error(
            "%s alerts wait past %s hours and the practice has no manager.", len(due), hours
        )
    elif due:
        OutboxMessage.objects.bulk_create(
            [
                OutboxMessage(
                    kind=OutboxMessage.Kind.ESCALATION,
                    recipient_id=manager_id,
                    client_id=alert.client_id,
                    alert=alert,
                    channel="email",
                    created_at=now,
                )
                for alert in due
                for manager_id in managers
            ],
            ignore_conflicts=True,
        )
        for alert in due:
            alert.escalated_at = now
            alert.save(update_fields=["escalated_at"])
    return list(
        OutboxMessage.objects.filter(
            kind=OutboxMessage.Kind.ESCALATION, state=OutboxMessage.State.PENDING
        ).values_list("pk", flat=True)
    )


def escalation_send(*, message_id: int, now: dt.datetime) -> str:
    return raise_if_failed(_escalation_try(message_id, now), EscalationNotSent(message_id))


@transaction.atomic
def _escalation_try(message_id: int, now: dt.datetime) -> str:
    row = pending_message_for_update(
        message_id=message_id, kind=OutboxMessage.Kind.ESCALATION, related=("recipient", "alert")
    )
    if row is None:
        return "skipped"
    manager = row.recipient
    alert = row.alert
    # Acknowledged since it was written: nothing is left to ask the manager.
    if not is_acting_manager(manager) or alert is None or not alert.is_open:
        message_not_sent(message=row)
        return "skipped"
    return message_email(
        message=row,
        template="homework/email/alert-escalated",
        context={"manager": manager, "hours": practice_settings().alert_escalate_after_hours},
        to=manager,
        asked_at=row.created_at,
        now=now,
        what=f"escalation {row.pk}",
    )
