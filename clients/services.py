"""Every write to clients goes through here."""

import datetime as dt
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction

from clients.models import AccessEvent, Client, Session
from clients.selectors import clients_for_user
from practice.models import User

CLIENT_EDITABLE_FIELDS = (
    "display_name",
    "contact_email",
    "timezone",
    "reminder_channel",
    "quiet_hours_start",
    "quiet_hours_end",
    "status",
)


def _require_staff(actor: User) -> None:
    if not (actor.is_therapist or actor.is_manager):
        raise PermissionDenied("Only therapists and practice managers manage clients.")


@transaction.atomic
def client_create(*, actor: User, therapist: User | None = None, **fields: Any) -> Client:
    """Add a client. A therapist adds to their own caseload; a manager to anyone's."""
    _require_staff(actor)
    therapist = therapist or actor
    if actor.is_therapist and therapist != actor:
        raise PermissionDenied("Therapists add clients to their own caseload.")
    if not therapist.is_therapist:
        raise PermissionDenied("A client's therapist must be a therapist.")
    unknown = set(fields) - set(CLIENT_EDITABLE_FIELDS)
    if unknown:
        raise TypeError(f"Unknown client fields: {sorted(unknown)}")
    client = Client(therapist=therapist, **fields)
    client.full_clean()
    client.save()
    return client


@transaction.atomic
def client_update(*, actor: User, client: Client, **changes: Any) -> Client:
    _require_staff(actor)
    if not clients_for_user(user=actor).filter(pk=client.pk).exists():
        raise PermissionDenied("This is not one of your clients.")
    unknown = set(changes) - {*CLIENT_EDITABLE_FIELDS, "therapist"}
    if unknown:
        raise TypeError(f"Unknown client fields: {sorted(unknown)}")
    if "therapist" in changes and not actor.is_manager and changes["therapist"] != client.therapist:
        raise PermissionDenied("Only a practice manager moves a client to another therapist.")
    for name, value in changes.items():
        setattr(client, name, value)
    client.full_clean()
    client.save(update_fields=list(changes))
    return client


@transaction.atomic
def client_attach_portal_account(*, client: Client, email: str, password: str) -> User:
    """Give a client a portal login (the invitation flow will call this)."""
    user = User.objects.create_user(email=email, password=password, role=User.Role.CLIENT)
    client.portal_user = user
    client.save(update_fields=["portal_user"])
    return user


@transaction.atomic
def session_schedule(*, actor: User, client: Client, starts_at: dt.datetime) -> Session:
    _require_staff(actor)
    if not clients_for_user(user=actor).filter(pk=client.pk).exists():
        raise PermissionDenied("This is not one of your clients.")
    session, _ = Session.objects.get_or_create(client=client, starts_at=starts_at)
    return session


def _own_session(actor: User, session: Session) -> None:
    _require_staff(actor)
    if not clients_for_user(user=actor).filter(pk=session.client_id).exists():
        raise PermissionDenied("This is not one of your clients.")


@transaction.atomic
def session_reschedule(*, actor: User, session: Session, starts_at: dt.datetime) -> Session:
    _own_session(actor, session)
    session.starts_at = starts_at
    session.full_clean()
    session.save(update_fields=["starts_at"])
    return session


@transaction.atomic
def session_cancel(*, actor: User, session: Session) -> None:
    _own_session(actor, session)
    session.delete()


@transaction.atomic
def access_event_record(*, actor: User, client: Client, action: str, what: str = "") -> AccessEvent:
    """Write one line of the access log: ``actor`` saw ``client``'s records.

    Callers that show a client's records to staff (the summary PDF from the
    admin, the API, the command line) call this; the read itself stays pure.
    """
    if action not in AccessEvent.Action.values:
        raise ValueError(f"Unknown access action: {action!r}")
    return AccessEvent.objects.create(actor=actor, client=client, action=action, what=what[:200])
