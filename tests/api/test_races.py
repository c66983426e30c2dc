"""Two API requests at once on PostgreSQL (each on its own connection, as two
web processes): the same Idempotency-Key never writes twice. Skipped on
SQLite, whose writes are serial anyway (tests/homework/test_races.py says how)."""

import json

import pytest

from homework.models import Entry
from practice.models import IdempotentRequest
from tests.conftest import login
from tests.factories import written_record
from tests.helpers_workers import lock_assignment, row_locked, start, until_waiting

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_two_sends_with_one_idempotency_key_at_once_make_one_entry(cast):
    """The first holds the key's row while it waits on the assignment's lock;
    the second waits on the key, then replays the first's answer."""
    url = f"/api/v1/assignments/{cast.alice_assignment.pk}/entries/"
    body = json.dumps({"response": written_record(), "status": "submitted"})
    phones = [login(cast.alice.portal_user) for _ in range(2)]

    def send(http):
        return lambda: http.post(
            url, body, content_type="application/json", headers={"Idempotency-Key": "same"}
        )

    with row_locked(lock_assignment(cast.alice_assignment)):
        sends = [start(f"send {n}", send(http)) for n, http in enumerate(phones)]
        until_waiting(len(sends))
    answers = [request.finish().result for request in sends]
    assert [answer.status_code for answer in answers] == [201, 201]
    assert answers[0].json() == answers[1].json()
    assert sorted(answer.has_header("Idempotent-Replayed") for answer in answers) == [False, True]
    assert (
        Entry.objects.filter(assignment=cast.alice_assignment).count() == 2
    )  # the cast's, and one
    assert IdempotentRequest.objects.get().status_code == 201
