"""The client's sessions (appointments) with their therapist."""

import datetime as dt

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from clients.models import Client, Session
from clients.selectors import clients_for_user
from clients.services.clients import require_staff
from practice.models import User


@transaction.atomic
def session_schedule(*, actor: User, client: Client, starts_at: dt.datetime) -> Session:
    require_staff(actor)
    if not clients_for_user(user=actor).filter(pk=client.pk).exists():
        raise PermissionDenied(_("This is not one of your clients."))
    # A time already booked is that session, not an error.
    Session(client=client, starts_at=starts_at).full_clean(
        validate_unique=False, validate_constraints=False
    )
    session, _created = Session.objects.get_or_create(client=client, starts_at=starts_at)
    return session


def _own_session(actor: User, session: Session) -> None:
    require_staff(actor)
    if not clients_for_user(user=actor).filter(pk=session.client_id).exists():
        raise PermissionDenied(_("This is not one of your clients."))


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
