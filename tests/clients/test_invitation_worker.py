"""A real Celery worker, on real Redis, emails the invitation once it is saved."""

import time

import pytest
from django.db import transaction

from clients import services
from clients.models import Invitation
from clients.tasks import send_invitation_email
from tests.factories import ClientFactory
from tests.helpers import invite_then_fail
from tests.helpers_workers import worker_queue  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def wait_for_email(invitation: Invitation, worker) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        invitation.refresh_from_db()
        if invitation.emailed_at is not None:
            return
        assert worker.poll() is None, worker.stdout.read() if worker.stdout else ""
        time.sleep(0.25)
    pytest.fail("the worker never emailed the invitation")


def test_the_invitation_is_emailed_by_a_real_worker_after_it_commits(
    cast,
    worker_queue,  # noqa: F811
    monkeypatch,
):
    newcomer = ClientFactory.create(
        therapist=cast.tara, portal_user=None, contact_email="casey@example.test"
    )
    handed_over_in_a_transaction: list[bool] = []
    delay = send_invitation_email.delay

    def watched_delay(*args):
        handed_over_in_a_transaction.append(transaction.get_connection().in_atomic_block)
        return delay(*args)

    monkeypatch.setattr(send_invitation_email, "delay", watched_delay)
    with transaction.atomic():
        issued = services.client_invite(actor=cast.tara, client=newcomer, send_email=True)
        assert handed_over_in_a_transaction == []  # a worker would find no invitation yet
    wait_for_email(issued.invitation, worker_queue)
    assert handed_over_in_a_transaction == [False]
    assert issued.invitation.email_attempts == 1


def test_an_invitation_rolled_back_is_never_handed_to_the_worker(
    cast,
    worker_queue,  # noqa: F811
):
    newcomer = ClientFactory.create(
        therapist=cast.tara, portal_user=None, contact_email="casey@example.test"
    )
    with pytest.raises(RuntimeError):
        invite_then_fail(cast, newcomer)
    # A second one, after: once it is emailed, the worker has had its turn at both.
    later = services.client_invite(actor=cast.tara, client=newcomer, send_email=True)
    wait_for_email(later.invitation, worker_queue)
    assert list(Invitation.objects.filter(client=newcomer)) == [later.invitation]
