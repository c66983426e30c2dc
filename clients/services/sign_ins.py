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
    """Clear every failure counted for ``lock``'s account on ``lock``'s
    address, so the next right password there signs in; returns the rows cleared.

    The manager's alone (a lock guards any account, the manager's own
    colleagues' too). The address's count across accounts is left as it is:
    it guards everyone on that address, not one person. Each lift is logged
    with who lifted it, since it undoes a protection.
    """
    require_manager(actor, refusal=_("Only the practice manager can lift a lock."))
    cleared, _rows = AccessAttempt.objects.filter(
        username=lock.username, ip_address=lock.ip_address
    ).delete()
    # The lock's number only: the address and network address typed are a
    # person's, and server logs are kept and read more widely than this table.
    logger.warning(
        "Sign-in lock %s lifted early by user %s (%s rows cleared).", lock.pk, actor.pk, cleared
    )
    return int(cleared)
