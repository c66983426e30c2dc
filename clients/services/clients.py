"""Clients: adding, changing, archiving and restoring them, and their portal login."""

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clients.models import Client
from clients.selectors import client_status_locked
from practice.languages import is_offered
from practice.models import User
from practice.roles import is_acting_manager, is_acting_staff

CLIENT_EDITABLE_FIELDS = (
    "display_name",
    "contact_email",
    "timezone",
    "language",
)


def require_staff(actor: User) -> None:
    if not is_acting_staff(actor):
        raise PermissionDenied(_("Only therapists and practice managers manage clients."))


@transaction.atomic
def client_create(*, actor: User, therapist: User | None = None, **fields: Any) -> Client:
    require_staff(actor)
    therapist = therapist or actor
    if actor.is_therapist and therapist != actor:
        raise PermissionDenied(_("Therapists add clients to their own caseload."))
    if not therapist.is_therapist:
        raise PermissionDenied(_("A client's therapist must be a therapist."))
    unknown = set(fields) - set(CLIENT_EDITABLE_FIELDS)
    if unknown:
        raise TypeError(f"Unknown client fields: {sorted(unknown)}")
    client = Client(therapist=therapist, **fields)
    client.full_clean()
    client.save()
    return client


@transaction.atomic
def client_update(*, actor: User, client: Client, **changes: Any) -> Client:
    _own_client(actor, client)
    unknown = set(changes) - {*CLIENT_EDITABLE_FIELDS, "therapist"}
    if unknown:
        raise TypeError(f"Unknown client fields: {sorted(unknown)}")
    if (
        "therapist" in changes
        and not is_acting_manager(actor)
        and changes["therapist"] != client.therapist
    ):
        raise PermissionDenied(_("Only a practice manager moves a client to another therapist."))
    for name, value in changes.items():
        setattr(client, name, value)
    client.full_clean()
    client.save(update_fields=list(changes))
    return client


def _own_client(actor: User, client: Client) -> Client.Status:
    """Read under the lock, so a change queued behind an erasure finds the client gone."""
    require_staff(actor)
    status = client_status_locked(user=actor, client=client)
    if status is None:
        raise PermissionDenied(_("This is not one of your clients."))
    return status


@transaction.atomic
def client_archive(*, actor: User, client: Client) -> Client:
    """Never deleted: what they wrote may matter later (a protection order, a complaint)."""
    return _client_set_status(actor=actor, client=client, status=Client.Status.ARCHIVED)


@transaction.atomic
def client_restore(*, actor: User, client: Client) -> Client:
    return _client_set_status(actor=actor, client=client, status=Client.Status.ACTIVE)


def _client_set_status(*, actor: User, client: Client, status: Client.Status) -> Client:
    now = _own_client(actor, client)
    client.status = status
    if now != status:
        client.save(update_fields=["status"])
    return client


@transaction.atomic
def client_attach_portal_account(
    *, client: Client, email: str, password: str = "", password_hash: str = ""
) -> User:
    user = User.objects.create_user(email=email, password=password, role=User.Role.CLIENT)
    if password_hash:
        user.password = password_hash
        user.save(update_fields=["password"])
    client.portal_user = user
    client.save(update_fields=["portal_user"])
    return user


@transaction.atomic
def client_choose_language(*, actor: User, language: str) -> Client:
    """The client's own choice, from their settings; staff set it on the client's record."""
    client = (
        Client.objects.select_for_update()
        .filter(portal_user=actor, status=Client.Status.ACTIVE)
        .first()
    )
    if client is None or not actor.is_client:
        raise PermissionDenied(_("Only the client chooses the language of their own portal."))
    if not is_offered(language):
        raise ValidationError({"language": _("Choose one of the languages offered here.")})
    client.language = language
    client.save(update_fields=["language"])
    return client
