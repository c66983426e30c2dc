"""What a manager did to the staff, in Django's admin log: each account's history page."""

import logging

from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db.models import Model

from practice.models import User

logger = logging.getLogger("clients.staff")


def staff_change_record(*, actor: User, target: Model, message: str) -> None:
    LogEntry.objects.create(
        user_id=actor.pk,
        content_type_id=ContentType.objects.get_for_model(target, for_concrete_model=False).pk,
        object_id=str(target.pk),
        object_repr=str(target)[:200],
        action_flag=CHANGE,
        change_message=message,
    )
    logger.info("User %s: %s %s: %s", actor.pk, target._meta.label, target.pk, message)
