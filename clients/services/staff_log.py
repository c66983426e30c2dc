"""What a manager did to the practice's staff, recorded where the admin shows it.

Django's admin log is the history page of each account (and of each client
handed over): the manager sees there who changed what, and when. Nothing in
it is ever deleted by these services. The server's log gets a line too.
"""

import logging

from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db.models import Model

from practice.models import User

logger = logging.getLogger("clients.staff")


def staff_change_record(*, actor: User, target: Model, message: str) -> None:
    """One line in ``target``'s history, by ``actor``: what was done, in words."""
    LogEntry.objects.create(
        user_id=actor.pk,
        content_type_id=ContentType.objects.get_for_model(target, for_concrete_model=False).pk,
        object_id=str(target.pk),
        object_repr=str(target)[:200],
        action_flag=CHANGE,
        change_message=message,
    )
    logger.info("User %s: %s %s: %s", actor.pk, target._meta.label, target.pk, message)
