"""The manager's one write on sign-ins: letting a locked account in early."""

import logging

from axes.models import AccessAttempt
from django.db import transaction
from django.utils.translation import gettext as _

from clients.models import SignInLock
from practice.models import User
from practice.roles import require_manager

logger = logging.getLogger(__name__)


@transaction.atomic
def sign_in_lock_lift(*, actor: User, lock: SignInLock) -> int:
    """The address's count across accounts stays: it guards everyone there, not one person."""
    require_manager(actor, refusal=_("Only the practice manager can lift a lock."))
    cleared, _rows = AccessAttempt.objects.filter(
        username=lock.username, ip_address=lock.ip_address
    ).delete()
    # The lock's number only: server logs are read more widely than this table.
    logger.warning(
        "Sign-in lock %s lifted early by user %s (%s rows cleared).", lock.pk, actor.pk, cleared
    )
    return int(cleared)
