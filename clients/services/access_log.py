"""The client's access log, caught where a decrypted field is read, so that a new page
cannot show a client's words without a line."""

import datetime as dt
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clients.models import AccessEvent, Client
from clients.selectors import clients_for_user
from clients.services.clients import require_staff
from practice.encryption import reads_told_to
from practice.models import User

# An access-log line repeated within this long (a page reloaded) is written once.
ACCESS_EVENT_REPEAT = dt.timedelta(minutes=15)
PAGE_LOOK = "Page {path}"


def is_page_look(what: str) -> bool:
    return what.startswith(PAGE_LOOK.format(path="/"))


@dataclass
class Looks:
    # Rows read without their owner joined are looked up by model at the end, in one query each.
    clients: set[int] = field(default_factory=set)
    opened: dict[type[models.Model], set[int]] = field(default_factory=dict)
    recorded: set[int] = field(default_factory=set)

    def note(self, instance: models.Model, owner: str) -> None:
        client_id = client_id_in_hand(instance, owner)
        if client_id is not None:
            self.clients.add(client_id)
        elif instance.pk is not None:
            self.opened.setdefault(type(instance), set()).add(instance.pk)

    def client_ids(self) -> set[int]:
        ids = set(self.clients)
        for model, pks in self.opened.items():
            owner: str = model.client_words_of  # type: ignore[attr-defined]
            ids.update(
                model._default_manager.filter(pk__in=pks)
                .order_by()
                .values_list(owner, flat=True)
                .distinct()
            )
        return ids


def client_id_in_hand(instance: models.Model, owner: str) -> int | None:
    """None unless every step was read with the row: following it would cost a query."""
    *steps, last = owner.split("__")
    here = instance
    for step in steps:
        relation = here._meta.get_field(step)
        if not relation.is_cached(here):  # type: ignore[union-attr]
            return None
        here = getattr(here, step)
        if here is None:
            return None
    client_id = getattr(here, f"{last}_id", None)
    return client_id if isinstance(client_id, int) else None


_looks: ContextVar[Looks | None] = ContextVar("looks", default=None)


def words_read(instance: models.Model) -> None:
    looks = _looks.get()
    owner = getattr(type(instance), "client_words_of", None)
    if looks is not None and owner:
        looks.note(instance, owner)


@contextmanager
def looks_noted() -> Iterator[Looks]:
    looks = Looks()
    token = _looks.set(looks)
    try:
        with reads_told_to(words_read):
            yield looks
    finally:
        _looks.reset(token)


def looks_record(*, actor: User, looks: Looks, path: str) -> list[AccessEvent]:
    if not (looks.clients or looks.opened):
        return []
    client_ids = looks.client_ids() - looks.recorded
    if not client_ids:
        return []
    return access_events_record(
        actor=actor,
        clients=client_ids,
        action=AccessEvent.Action.VIEWED,
        what=PAGE_LOOK.format(path=path),
    )


def access_event_record(
    *, actor: User, client: Client, action: str, what: str = ""
) -> AccessEvent | None:
    written = access_events_record(actor=actor, clients=[client], action=action, what=what)
    return written[0] if written else None


@transaction.atomic
def access_events_record(
    *, actor: User, clients: Iterable[Client | int], action: str, what: str = ""
) -> list[AccessEvent]:
    if action not in AccessEvent.Action.values:
        raise ValueError(f"Unknown access action: {action!r}")
    require_staff(actor)
    client_ids = {client if isinstance(client, int) else client.pk for client in clients}
    if not client_ids:
        return []
    # Sets of ids: no ORDER BY (the models' default orders) to build or run.
    own = set(
        clients_for_user(user=actor)
        .filter(pk__in=client_ids)
        .order_by()
        .values_list("pk", flat=True)
    )
    if own != client_ids:
        raise PermissionDenied(_("This is not one of your clients."))
    looks = _looks.get()
    if looks is not None:
        looks.recorded |= client_ids
    what = what[:200]  # AccessEvent.what's length
    recent = timezone.now() - ACCESS_EVENT_REPEAT
    repeated = set(
        AccessEvent.objects.filter(
            actor=actor, client_id__in=client_ids, action=action, what=what, at__gte=recent
        )
        .order_by()
        .values_list("client_id", flat=True)
    )
    return AccessEvent.objects.bulk_create(
        AccessEvent(actor=actor, client_id=pk, action=action, what=what)
        for pk in sorted(client_ids - repeated)
    )
