"""Invitations: the single-use link that lets a client set their portal password."""

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import BadHeaderError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from clients.languages import client_language
from clients.models import Client, Invitation
from clients.selectors import clients_for_user, invitations_for_client
from clients.services.clients import require_staff
from clients.services.discreet_email import (
    EmailNotSent,
    invitation_email_attempt,
    send_discreet_email_or_raise,
)
from clients.services.links import link_token, link_token_hash, new_link_seed
from practice.dates import as_zone, end_of_day
from practice.delivery import raise_if_failed
from practice.models import User
from practice.queue import enqueue_on_commit

INVITATION_ACCEPT_TRIES = 5
# Shorter than SENT_TWICE_WINDOW: correcting a wrong address and asking again takes longer.
INVITATION_SENT_TWICE_WINDOW = dt.timedelta(seconds=15)


class InvitationRefused(Exception):
    """``reason`` says why, for a kind message."""

    UNKNOWN = "unknown"
    USED = "used"
    EXPIRED = "expired"
    REVOKED = "revoked"
    TOO_MANY_TRIES = "too-many-tries"
    ADDRESS_TAKEN = "address-taken"

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class IssuedInvitation:
    invitation: Invitation
    url: str


invitation_token_hash = link_token_hash


def _invitation_token(seed: str) -> str:
    return link_token(seed, purpose="clients.invitation.link")


def _invitation_url(token: str) -> str:
    return settings.SITE_URL + reverse("clients:welcome", args=[token])


def _issued(invitation: Invitation) -> IssuedInvitation:
    return IssuedInvitation(
        invitation=invitation, url=_invitation_url(_invitation_token(invitation.link_seed))
    )


def invitation_issued(*, user: User, client_id: int, invitation_id: int) -> IssuedInvitation | None:
    """Here rather than in selectors: the link is made from the row's seed only in this module."""
    invitation = (
        invitations_for_client(user=user, client_id=client_id)
        .filter(pk=invitation_id, used_at=None, revoked_at=None, expires_at__gt=timezone.now())
        .exclude(link_seed="")
        .first()
    )
    return _issued(invitation) if invitation is not None else None


def _invitation_ends(now: dt.datetime, client: Client) -> dt.datetime:
    """End of day on the client's calendar: not dead on the evening the email names."""
    made_on = now.astimezone(as_zone(client.timezone)).date()
    return end_of_day(
        made_on + dt.timedelta(days=settings.INVITATION_MAX_AGE_DAYS), client.timezone
    )


@transaction.atomic
def client_invite(*, actor: User, client: Client, send_email: bool = False) -> IssuedInvitation:
    """A quick repeat returns the same link: a new one would kill the one just copied."""
    require_staff(actor)
    # Locked: two made at once would each revoke only the links it saw, and both would work.
    if not clients_for_user(user=actor).select_for_update().filter(pk=client.pk).first():
        raise PermissionDenied(_("This is not one of your clients."))
    if client.status != Client.Status.ACTIVE:
        raise ValidationError(_("Archived clients cannot be invited."))
    if client.portal_user_id is not None:
        raise ValidationError(
            _(
                "This client already has a portal account. If they have lost their password, "
                "they can use “Forgotten your password?” on the sign-in page."
            )
        )
    if send_email and not client.contact_email:
        raise ValidationError(_("Add a contact email first, or copy the link instead."))
    now = timezone.now()
    repeat = _just_invited(actor=actor, client=client, send_email=send_email, now=now)
    if repeat is not None:
        return _issued(repeat)
    Invitation.objects.filter(client=client, used_at=None, revoked_at=None).update(revoked_at=now)
    seed = new_link_seed()
    token = _invitation_token(seed)
    invitation = Invitation.objects.create(
        client=client,
        token_hash=invitation_token_hash(token),
        link_seed=seed,
        created_by=actor,
        expires_at=_invitation_ends(now, client),
        email_asked_at=now if send_email else None,
    )
    if send_email:
        from clients.tasks import send_invitation_email

        # Tried here if the queue is down: the therapist's page says whether it went.
        enqueue_on_commit(send_invitation_email, invitation.pk, run_here_if_broker_down=True)
    return IssuedInvitation(invitation=invitation, url=_invitation_url(token))


def _just_invited(
    *, actor: User, client: Client, send_email: bool, now: dt.datetime
) -> Invitation | None:
    """An email given up is not repeated: asking again is asking for a new try."""
    return (
        Invitation.objects.filter(
            client=client,
            created_by=actor,
            created_at__gte=now - INVITATION_SENT_TWICE_WINDOW,
            used_at=None,
            revoked_at=None,
            email_given_up_at=None,
            email_asked_at__isnull=not send_email,
        )
        .exclude(link_seed="")
        .first()
    )


def invitation_send_email(*, invitation_id: int) -> bool:
    """Raises EmailNotSent only once the failure's count has committed."""
    return (
        raise_if_failed(_invitation_try_email(invitation_id), EmailNotSent(invitation_id)) == "sent"
    )


@transaction.atomic
def _invitation_try_email(invitation_id: int) -> str:
    invitation = (
        Invitation.objects.select_for_update(of=("self",))
        .select_related("client")
        .filter(pk=invitation_id)
        .first()
    )
    if invitation is None or not _email_still_wanted(invitation):
        return "skipped"
    client = invitation.client
    token = _invitation_token(invitation.link_seed)

    def send() -> None:
        if invitation_token_hash(token) != invitation.token_hash:
            # SECRET_KEY changed since: the link would not open. Cannot get better.
            raise BadHeaderError("the link can no longer be made from its seed")
        # "Until 12 March" is read where the client lives, not on the practice's calendar.
        with timezone.override(client.timezone):
            send_discreet_email_or_raise(
                to=client.contact_email,
                template="clients/email/invitation",
                context={"url": _invitation_url(token), "expires_at": invitation.expires_at},
                language=client_language(client),
            )

    return invitation_email_attempt(
        invitation=invitation, send=send, now=timezone.now(), what=f"invitation {invitation.pk}"
    )


def _email_still_wanted(invitation: Invitation) -> bool:
    """A therapist who cleared the address (someone else reads that inbox) has stopped it."""
    client = invitation.client
    return (
        invitation.email_asked_at is not None
        and invitation.emailed_at is None
        and invitation.email_given_up_at is None
        and invitation.used_at is None
        and invitation.revoked_at is None
        and invitation.expires_at > timezone.now()
        and bool(invitation.link_seed)
        and client.status == Client.Status.ACTIVE
        and client.portal_user_id is None
        and bool(client.contact_email)
    )


def usable_invitation(token: str, *, lock: bool = False) -> Invitation:
    queryset = Invitation.objects.select_related("client")
    if lock:
        queryset = queryset.select_for_update(of=("self",))
    invitation = queryset.filter(token_hash=invitation_token_hash(token)).first()
    if invitation is None:
        raise InvitationRefused(InvitationRefused.UNKNOWN)
    invitation_still_open(invitation)
    if invitation.accept_tries >= INVITATION_ACCEPT_TRIES:
        raise InvitationRefused(InvitationRefused.TOO_MANY_TRIES)
    return invitation


def invitation_still_open(invitation: Invitation) -> None:
    if invitation.used_at is not None or invitation.client.portal_user_id is not None:
        raise InvitationRefused(InvitationRefused.USED)
    if invitation.revoked_at is not None or invitation.client.status != Client.Status.ACTIVE:
        raise InvitationRefused(InvitationRefused.REVOKED)
    if invitation.expires_at <= timezone.now():
        raise InvitationRefused(InvitationRefused.EXPIRED)


def invitation_check(*, token: str) -> Invitation:
    return usable_invitation(token)
