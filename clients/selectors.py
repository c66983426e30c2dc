"""Reads of clients, scoped by who is asking. Admin, portal and API share these."""

from django.db.models import QuerySet
from django_otp.plugins.otp_totp.models import TOTPDevice

from clients.models import Client, Invitation, Session
from practice.models import User


def clients_for_user(*, user: User) -> QuerySet[Client]:
    """The clients a member of staff may see: a therapist their own, a manager all."""
    if not user.is_authenticated or not user.is_active:
        return Client.objects.none()
    if user.is_manager:
        return Client.objects.all()
    if user.is_therapist:
        return Client.objects.filter(therapist=user)
    return Client.objects.none()


def client_for_portal_user(*, user: User) -> Client | None:
    """The client record behind a portal login, or None for anyone else."""
    if not user.is_authenticated or not user.is_client:
        return None
    return Client.objects.filter(portal_user=user, status=Client.Status.ACTIVE).first()


def sessions_for_user(*, user: User) -> QuerySet[Session]:
    return Session.objects.filter(client__in=clients_for_user(user=user))


def has_two_step(*, user: User) -> bool:
    """Whether ``user`` signs in with a code from an authenticator app too."""
    return bool(TOTPDevice.objects.filter(user=user, confirmed=True).exists())


def invitations_for_client(*, user: User, client_id: int) -> QuerySet[Invitation]:
    """A client's invitations, for staff who may see the client."""
    return Invitation.objects.filter(client__in=clients_for_user(user=user), client_id=client_id)


def unconfirmed_totp_device(*, user: User) -> TOTPDevice | None:
    """The authenticator being set up, before its first code."""
    return TOTPDevice.objects.filter(user=user, confirmed=False).last()
