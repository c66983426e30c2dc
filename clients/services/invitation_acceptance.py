"""Accepting an invitation: the account is made from a link emailed to the chosen address,
so the welcome form never says whether an address already has an account here."""

import hashlib
import logging
import secrets
from base64 import urlsafe_b64encode
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.contrib.auth.password_validation import validate_password
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac

from clients.languages import client_language
from clients.models import Invitation
from clients.services.clients import client_attach_portal_account
from clients.services.discreet_email import EmailNotSent, send_discreet_email
from clients.services.invitations import (
    InvitationRefused,
    invitation_still_open,
    usable_invitation,
)
from practice.models import User
from practice.queue import enqueue_on_commit
from practice.requests import SENT_TWICE_WINDOW

logger = logging.getLogger(__name__)


def _finish_token(seed: str) -> str:
    digest = salted_hmac("clients.invitation.finish", seed, algorithm="sha256").digest()
    return urlsafe_b64encode(digest).rstrip(b"=").decode()


def finish_token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def invitation_accept(*, token: str, email: str, password: str) -> Invitation:
    """The same address again within SENT_TWICE_WINDOW (a double click) is not a second try."""
    email = User.normalize_username(email)
    validate_password(password, user=User(email=email, role=User.Role.CLIENT))
    hashed = make_password(password)  # before any branch: every request pays one hash
    from clients.tasks import send_invitation_finish_email

    with transaction.atomic():
        invitation = usable_invitation(token, lock=True)
        now = timezone.now()
        if (
            invitation.chosen_email.casefold() == email.casefold()
            and invitation.chosen_at is not None
            and invitation.chosen_at >= now - SENT_TWICE_WINDOW
        ):
            return invitation
        seed = secrets.token_hex(16)
        invitation.accept_tries += 1
        invitation.chosen_email = email
        invitation.chosen_password = hashed
        invitation.chosen_at = now
        invitation.finish_seed = seed
        invitation.finish_token_hash = finish_token_hash(_finish_token(seed))
        invitation.save(
            update_fields=[
                "accept_tries",
                "chosen_email",
                "chosen_password",
                "chosen_at",
                "finish_seed",
                "finish_token_hash",
            ]
        )
        enqueue_on_commit(
            send_invitation_finish_email,
            invitation.pk,
            invitation.accept_tries,
            run_here_if_broker_down=True,
        )
    return invitation


def invitation_send_finish_email(*, invitation_id: int, try_number: int) -> bool:
    """Worded at send time: the link to a free address, a neutral note to a taken one."""
    invitation = Invitation.objects.select_related("client").filter(pk=invitation_id).first()
    if invitation is None or invitation.accept_tries != try_number or not invitation.finish_seed:
        return False
    try:
        invitation_still_open(invitation)
    except InvitationRefused:
        return False
    to = invitation.chosen_email
    context: dict[str, Any]
    if User.objects.filter(email__iexact=to).exists():
        template = "clients/email/address-in-use"
        context = {
            "sign_in_url": settings.SITE_URL + reverse("clients:login"),
            "reset_url": settings.SITE_URL + reverse("clients:password_reset"),
        }
    else:
        template = "clients/email/finish-sign-in"
        path = reverse("clients:welcome_finish", args=[_finish_token(invitation.finish_seed)])
        context = {"url": settings.SITE_URL + path, "expires_at": invitation.expires_at}
    with timezone.override(invitation.client.timezone):
        language = client_language(invitation.client)
        if not send_discreet_email(to=to, template=template, context=context, language=language):
            raise EmailNotSent(invitation_id)
    return True


def _finishing_invitation(token: str, *, lock: bool = False) -> Invitation:
    queryset = Invitation.objects.select_related("client")
    if lock:
        queryset = queryset.select_for_update(of=("self",))
    invitation = (
        queryset.filter(finish_token_hash=finish_token_hash(token))
        .exclude(finish_token_hash="")  # nosec B106 (no link yet, not a password)
        .first()
    )
    if invitation is None:
        raise InvitationRefused(InvitationRefused.UNKNOWN)
    invitation_still_open(invitation)
    return invitation


def invitation_finish_check(*, token: str) -> Invitation:
    return _finishing_invitation(token)


@transaction.atomic
def invitation_finish(*, token: str) -> User:
    """An address given an account meanwhile is refused: its owner is the one reading this."""
    invitation = _finishing_invitation(token, lock=True)
    if User.objects.filter(email__iexact=invitation.chosen_email).exists():
        raise InvitationRefused(InvitationRefused.ADDRESS_TAKEN)
    user = client_attach_portal_account(
        client=invitation.client,
        email=invitation.chosen_email,
        password_hash=invitation.chosen_password,
    )
    invitation.used_at = timezone.now()
    invitation.chosen_password = ""  # nosec B105 (the kept hash is cleared once used)
    invitation.save(update_fields=["used_at", "chosen_password"])
    return user
