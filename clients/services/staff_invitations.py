"""Inviting a therapist or a manager, with the same single-use link as a client's invitation."""

import datetime as dt
import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clients.models import StaffInvitation
from clients.services.discreet_email import (
    EmailNotSent,
    invitation_email_attempt,
    send_discreet_email_or_raise,
)
from clients.services.invitations import INVITATION_SENT_TWICE_WINDOW, InvitationRefused
from clients.services.links import link_token, link_token_hash, new_link_seed
from clients.services.staff_log import staff_change_record
from practice.dates import as_zone, end_of_day
from practice.delivery import raise_if_failed
from practice.models import User
from practice.queue import enqueue_on_commit
from practice.roles import require_manager
from practice.selectors import practice_settings

logger = logging.getLogger(__name__)

_PURPOSE = "clients.staff_invitation.link"


def email_taken() -> str:
    """Whoever's it is: a client's sign-in address is shown to no one here."""
    return _("This email cannot be used for a new account here. Try another one.")


STAFF_ARE_THE_MANAGERS = gettext_lazy("Only a practice manager manages the practice's staff.")


@dataclass(frozen=True)
class IssuedStaffInvitation:
    invitation: StaffInvitation
    url: str


def _url(seed: str) -> str:
    token = link_token(seed, purpose=_PURPOSE)
    return settings.SITE_URL + reverse("admin:staff_welcome", args=[token])


def _ends(now: dt.datetime) -> dt.datetime:
    zone = str(settings.TIME_ZONE)
    made_on = now.astimezone(as_zone(zone)).date()
    return end_of_day(made_on + dt.timedelta(days=settings.INVITATION_MAX_AGE_DAYS), zone)


@transaction.atomic
def staff_invite(
    *, actor: User, name: str, email: str, role: str, send_email: bool = False
) -> IssuedStaffInvitation:
    require_manager(actor, refusal=STAFF_ARE_THE_MANAGERS)
    email = User.normalize_username(email)
    name = name.strip()
    errors: dict[str, list[str]] = {}
    if not name:
        errors["name"] = [_("Write the person's name, as colleagues know them.")]
    if role not in StaffInvitation.Role.values:
        errors["role"] = [_("Choose therapist or practice manager.")]
    if User.objects.filter(email__iexact=email).exists():
        errors["email"] = [email_taken()]
    if errors:
        raise ValidationError(errors)
    now = timezone.now()
    earlier = StaffInvitation.objects.select_for_update().filter(
        email=email, used_at=None, revoked_at=None
    )
    repeat = earlier.filter(
        created_by=actor,
        name=name,
        role=role,
        created_at__gte=now - INVITATION_SENT_TWICE_WINDOW,
        email_asked_at__isnull=not send_email,
    ).first()
    if repeat is not None:
        return IssuedStaffInvitation(invitation=repeat, url=_url(repeat.link_seed))
    earlier.update(revoked_at=now)
    seed = new_link_seed()
    invitation = StaffInvitation(
        email=email,
        name=name,
        role=role,
        token_hash=link_token_hash(link_token(seed, purpose=_PURPOSE)),
        link_seed=seed,
        created_by=actor,
        expires_at=_ends(now),
        email_asked_at=now if send_email else None,
    )
    invitation.full_clean()
    invitation.save()
    logger.info("Staff invitation %s made by user %s.", invitation.pk, actor.pk)
    if send_email:
        from clients.tasks import send_staff_invitation_email

        enqueue_on_commit(send_staff_invitation_email, invitation.pk, run_here_if_broker_down=True)
    return IssuedStaffInvitation(invitation=invitation, url=_url(seed))


def staff_invitation_issued(*, actor: User, invitation_id: int) -> IssuedStaffInvitation | None:
    require_manager(actor, refusal=STAFF_ARE_THE_MANAGERS)
    invitation = StaffInvitation.objects.filter(
        pk=invitation_id, used_at=None, revoked_at=None, expires_at__gt=timezone.now()
    ).first()
    return IssuedStaffInvitation(invitation, _url(invitation.link_seed)) if invitation else None


def _usable(token: str, *, lock: bool = False) -> StaffInvitation:
    queryset = StaffInvitation.objects.all()
    if lock:
        queryset = queryset.select_for_update()
    invitation = queryset.filter(token_hash=link_token_hash(token)).first()
    if invitation is None:
        raise InvitationRefused(InvitationRefused.UNKNOWN)
    if invitation.used_at is not None:
        raise InvitationRefused(InvitationRefused.USED)
    if invitation.revoked_at is not None:
        raise InvitationRefused(InvitationRefused.REVOKED)
    if invitation.expires_at <= timezone.now():
        raise InvitationRefused(InvitationRefused.EXPIRED)
    return invitation


def staff_invitation_check(*, token: str) -> StaffInvitation:
    return _usable(token)


@transaction.atomic
def staff_invitation_accept(*, token: str, password: str) -> User:
    invitation = _usable(token, lock=True)
    if User.objects.filter(email__iexact=invitation.email).exists():
        raise ValidationError(
            _(
                "This link can no longer make an account: its email is in use. "
                "Ask your practice manager for a new link."
            )
        )
    role = User.Role(invitation.role)
    try:
        validate_password(
            password, user=User(email=invitation.email, name=invitation.name, role=role)
        )
    except ValidationError as error:
        raise ValidationError({"password1": error.error_list}) from error
    user = User.objects.create_user(
        email=invitation.email, password=password, name=invitation.name, role=role, is_staff=True
    )
    invitation.used_at = timezone.now()
    invitation.account = user
    invitation.save(update_fields=["used_at", "account"])
    staff_change_record(
        actor=user,
        target=user,
        message=_("Joined through the invitation made by %(name)s.")
        % {"name": invitation.created_by},
    )
    return user


def staff_invitation_words(invitation: StaffInvitation) -> dict[str, Any]:
    """Who asked, for which practice and role: a colleague's invitation that named none of it
    would read as phishing (discretion is for clients' mail)."""
    roles = {
        StaffInvitation.Role.THERAPIST: _("a therapist"),
        StaffInvitation.Role.MANAGER: _("a practice manager"),
    }
    return {
        "name": invitation.name,
        "inviter": invitation.created_by.name or invitation.created_by.email,
        "practice": practice_settings().name,
        "role": roles[StaffInvitation.Role(invitation.role)],
        "url": _url(invitation.link_seed),
        "expires_at": invitation.expires_at,
    }


def staff_invitation_send_email(*, invitation_id: int) -> bool:
    return raise_if_failed(_try_email(invitation_id), EmailNotSent(invitation_id)) == "sent"


@transaction.atomic
def _try_email(invitation_id: int) -> str:
    invitation = StaffInvitation.objects.select_for_update().filter(pk=invitation_id).first()
    now = timezone.now()
    if (
        invitation is None
        or invitation.email_asked_at is None
        or invitation.emailed_at is not None
        or invitation.email_given_up_at is not None
        or invitation.used_at is not None
        or invitation.revoked_at is not None
        or invitation.expires_at <= now
    ):
        return "skipped"

    def send() -> None:
        context = staff_invitation_words(invitation)
        send_discreet_email_or_raise(
            to=invitation.email,
            template="clients/email/staff-invitation",
            context=context,
            language=None,  # no account yet to hold a language: the practice's
            subject=" ".join(
                render_to_string("clients/email/staff-invitation-subject.txt", context).split()
            ),
        )

    return invitation_email_attempt(
        invitation=invitation, send=send, now=now, what=f"staff invitation {invitation.pk}"
    )
