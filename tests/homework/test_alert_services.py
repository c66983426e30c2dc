"""Alerts on the real services: two acknowledgements at once on PostgreSQL, one wins and the other
is told by whom; a real worker sends the escalation of an alert past the limit, once."""

import datetime as dt
import time

import pytest
from django.db import connection
from django.utils import timezone

from homework.models import Alert, OutboxMessage
from homework.services.alerts import AlertAlreadyAcknowledged, alert_acknowledge
from homework.tasks import escalate_alerts
from tests.factories import EntryFactory
from tests.helpers_workers import (  # noqa: F401 (fixtures)
    row_locked,
    start,
    until_waiting,
    worker_queue,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_two_acknowledgements_at_once_one_wins_and_the_other_is_told_by_whom(cast):
    alert = EntryFactory.create(assignment=cast.alice_assignment, felt_unsafe=True).alerts.get()
    by_tara = lambda: alert_acknowledge(alert=alert, by=cast.tara, note="called, safe tonight")  # noqa: E731
    by_morgan = lambda: alert_acknowledge(alert=alert, by=cast.morgan, note="calling now")  # noqa: E731
    lock = lambda: list(Alert.objects.select_for_update().filter(pk=alert.pk))  # noqa: E731
    with row_locked(lock):
        both = [start("tara", by_tara), start("morgan", by_morgan)]
        until_waiting(len(both))
    for request in both:
        request.finish()
    errors = [request.error for request in both]
    assert errors.count(None) == 1, errors
    [lost] = [error for error in errors if error is not None]
    assert isinstance(lost, AlertAlreadyAcknowledged)
    connection.close()
    alert.refresh_from_db()
    winner = cast.tara if both[0].error is None else cast.morgan
    assert alert.acknowledged_by == winner == lost.alert.acknowledged_by
    assert alert.note == lost.alert.note


def test_a_real_worker_sends_the_escalation_of_an_alert_past_the_limit_once(cast, worker_queue):  # noqa: F811
    entry = EntryFactory.create(
        assignment=cast.alice_assignment,
        felt_unsafe=True,
        submitted_at=timezone.now() - dt.timedelta(hours=25),
    )
    alert = entry.alerts.get()
    # The scan runs here (its sends go to this test's queue), twice: the second while the worker
    # sends what the first queued.
    escalate_alerts.apply()
    escalate_alerts.apply()
    deadline = time.monotonic() + 60
    sent = OutboxMessage.objects.filter(
        kind=OutboxMessage.Kind.ESCALATION, state=OutboxMessage.State.SENT
    )
    while not sent.exists():
        assert time.monotonic() < deadline, "the worker never sent the escalation"
        assert worker_queue.poll() is None, (
            worker_queue.stdout.read() if worker_queue.stdout else ""
        )
        time.sleep(0.2)
    alert.refresh_from_db()
    assert alert.escalated_at is not None
    [message] = OutboxMessage.objects.filter(kind=OutboxMessage.Kind.ESCALATION)
    assert (message.recipient, message.alert) == (cast.morgan, alert)
