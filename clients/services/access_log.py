"""The client's access log: who saw their records, and when."""

import datetime as dt
from collections.abc import Iterable

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clients.models import AccessEvent, Client
from clients.selectors import clients_for_user
from clients.services.clients import _require_staff
from practice.models import User

# An access-log line repeated within this long (a page reloaded) is written once.
ACCESS_EVENT_REPEAT = dt.timedelta(minutes=15)


def access_event_record(
    *, actor: User, client: Client, action: str, what: str = ""
) -> AccessEvent | None:
    """Note in the client's access log that ``actor`` saw their records.

    The same look repeated within ACCESS_EVENT_REPEAT (a reload) is written
    once; returns None then.
    """
    written = access_events_record(actor=actor, clients=[client], action=action, what=what)
    return written[0] if written else None


@transaction.atomic
def access_events_record(
    *, actor: User, clients: Iterable[Client], action: str, what: str = ""
) -> list[AccessEvent]:
    """One look at several clients' records at once (a list page showing
    their words): a line in each one's access log, in a constant number of
    queries however many clients. Returns the lines written (a repeat
    within ACCESS_EVENT_REPEAT is not written again)."""
    if action not in AccessEvent.Action.values:
        raise ValueError(f"Unknown access action: {action!r}")
    _require_staff(actor)
    by_id = {client.pk: client for client in clients}
    if not by_id:
        return []
    # Sets of ids: no ORDER BY (the models' default orders) to build or run.
    own = set(
        clients_for_user(user=actor).filter(pk__in=by_id).order_by().values_list("pk", flat=True)
    )
    if own != set(by_id):
        raise PermissionDenied(_("This is not one of your clients."))
    what = what[:200]  # AccessEvent.what's length
    recent = timezone.now() - ACCESS_EVENT_REPEAT
    repeated = set(
        AccessEvent.objects.filter(
            actor=actor, client_id__in=by_id, action=action, what=what, at__gte=recent
        )
        .order_by()
        .values_list("client_id", flat=True)
    )
    return AccessEvent.objects.bulk_create(
        AccessEvent(actor=actor, client=client, action=action, what=what)
        for pk, client in by_id.items()
        if pk not in repeated
    )
