"""A therapist's change queued on the client's row behind a manager's erasure,
on PostgreSQL (row locks; SQLite takes one lock on the whole file, so there
is nothing to queue behind). Needs no Redis, so not marked ``services``."""

from collections.abc import Callable

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied

from clients import services
from clients.models import Client
from tests.helpers_workers import row_locked, start, until_waiting

pytestmark = [
    pytest.mark.skipif(
        settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
        reason="row locks need PostgreSQL",
    ),
    pytest.mark.django_db(transaction=True),
]

CHANGES: dict[str, Callable[..., object]] = {
    "restore": lambda cast: services.client_restore(actor=cast.tara, client=cast.alice),
    "rename": lambda cast: services.client_update(
        actor=cast.tara, client=cast.alice, display_name="Alice again"
    ),
}


@pytest.mark.parametrize("change", CHANGES)
def test_a_restore_or_rename_queued_behind_an_erasure_is_refused(cast, change):
    """The Restore (or Save of a new name) waits on the erasure's lock on the
    client's row; once the erasure is done there is no one left to change."""
    cast.alice.status = Client.Status.ARCHIVED
    cast.alice.save()

    def erase() -> None:
        list(Client.objects.select_for_update().filter(pk=cast.alice.pk))
        Client.objects.filter(pk=cast.alice.pk).update(status=Client.Status.ERASED, display_name="")

    with row_locked(erase):
        request = start(change, lambda: CHANGES[change](cast))
        until_waiting(1)
    assert isinstance(request.finish().error, PermissionDenied), request.error
    tombstone = Client.objects.get(pk=cast.alice.pk)
    assert (tombstone.status, tombstone.display_name) == (Client.Status.ERASED, "")
