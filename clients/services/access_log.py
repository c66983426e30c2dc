"""The client's access log: who saw their records, and when.

Every look is recorded here, in one of two ways. A service that knows what
it shows names the look itself (access_event_record: "Since last session",
a printed summary). Every other staff request is caught where the client's
words are opened: reading a decrypted field off a model whose class names
its client (``client_words_of``) notes that client for the request
(looks_noted), and the request's end writes one line for each client not
already recorded (looks_record, called by clients.middleware.looks_middleware).
A new page therefore cannot show a client's words without a line.
"""

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
# What a look caught at a request's end says: the page, PDF or API route it was.
PAGE_LOOK = "Page {path}"


def is_page_look(what: str) -> bool:
    return what.startswith(PAGE_LOOK.format(path="/"))


@dataclass
class Looks:
    """The clients whose words one request opened, and those it already recorded."""

    # Clients known from rows read with their owner joined; rows read without it, by model.
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
        """Who the opened rows belong to: one query per kind of row read without its owner."""
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
    """The client at the end of ``owner`` (``assignment__client``), if every
    step before it was read with the row (select_related): else None."""
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
    """A decrypted field was read off ``instance``: note its client, if it names one."""
    looks = _looks.get()
    owner = getattr(type(instance), "client_words_of", None)
    if looks is not None and owner:
        looks.note(instance, owner)


@contextmanager
def looks_noted() -> Iterator[Looks]:
    """Note, while this lasts, every client whose words are read (words_read)."""
    looks = Looks()
    token = _looks.set(looks)
    try:
        with reads_told_to(words_read):
            yield looks
    finally:
        _looks.reset(token)


def looks_record(*, actor: User, looks: Looks, path: str) -> list[AccessEvent]:
    """The end of a staff request to ``path``: a line for each client whose
    words it opened and that no service recorded by name already."""
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
    """Note in the client's access log that ``actor`` saw their records.

    The same look repeated within ACCESS_EVENT_REPEAT (a reload) is written
    once; returns None then.
    """
    written = access_events_record(actor=actor, clients=[client], action=action, what=what)
    return written[0] if written else None


@transaction.atomic
def access_events_record(
    *, actor: User, clients: Iterable[Client | int], action: str, what: str = ""
) -> list[AccessEvent]:
    """One look at several clients' records at once (a list page showing
    their words): a line in each one's access log, in a constant number of
    queries however many clients. Returns the lines written (a repeat
    within ACCESS_EVENT_REPEAT is not written again)."""
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
