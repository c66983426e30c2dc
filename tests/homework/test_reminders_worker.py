"""Reminders on the real services: two scans at once on PostgreSQL write one
row per client and day; a real worker scans and sends."""

import datetime as dt
import threading
import time

import pytest
from django.db import connection
from django.utils import timezone

from homework.models import OutboxMessage
from homework.reminders.services import reminders_scan
from homework.tasks import scan_reminders
from tests.helpers_reminders import reminded_client
from tests.helpers_sms import HANG, FakeProvider
from tests.helpers_workers import (  # noqa: F401 (fixtures)
    own_queue,
    start,
    start_worker,
    stop_worker,
    worker_queue,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _clients_due_now(count: int) -> None:
    """Clients whose day's reminder time has passed, whatever the hour the test runs."""
    for _n in range(count):
        reminded_client(day=timezone.localdate(), recurring_reminder_at=dt.time(0, 0))


def test_two_scans_at_once_write_one_row_per_client_and_day(cast):
    _clients_due_now(20)
    now = timezone.now()
    go = threading.Barrier(2)

    def scan() -> int:
        go.wait()
        return reminders_scan(now=now).due

    first, second = start("scan 1", scan), start("scan 2", scan)
    first.finish(), second.finish()
    assert first.error is None and second.error is None, (first.error, second.error)
    # Each scan finds due what no committed scan has written yet: both, or
    # the first to read; the rows below are what must hold either way.
    assert max(first.result, second.result) == 20
    connection.close()
    rows = OutboxMessage.objects.filter(kind=OutboxMessage.Kind.REMINDER)
    assert rows.count() == 20 == rows.values("client_id").distinct().count()


def test_a_real_worker_scans_and_sends_each_reminder_once(cast, worker_queue):  # noqa: F811
    _clients_due_now(3)
    # The scan runs here (its sends go to this test's queue), twice: the
    # second while the worker sends what the first queued.
    scan_reminders.apply()
    scan_reminders.apply()
    rows = OutboxMessage.objects.filter(kind=OutboxMessage.Kind.REMINDER)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if rows.count() == 3 and not rows.exclude(state=OutboxMessage.State.SENT).exists():
            break
        assert worker_queue.poll() is None, (
            worker_queue.stdout.read() if worker_queue.stdout else ""
        )
        time.sleep(0.25)
    assert rows.count() == 3
    assert set(rows.values_list("state", "attempts")) == {(OutboxMessage.State.SENT, 1)}


def test_a_worker_killed_mid_send_and_restarted_sends_one_message(cast, own_queue):  # noqa: F811
    """SIGKILL while the provider holds the request without an answer: the
    send's transaction dies with the worker, the row still waits, and the
    next scan hands it to the restarted worker, which sends it once. (The
    killed try never got the provider's word that it took the message.)"""
    reminded_client(day=timezone.localdate(), text=True, recurring_reminder_at=dt.time(0))
    rows = OutboxMessage.objects.filter(kind=OutboxMessage.Kind.REMINDER)
    with FakeProvider() as provider:
        provider.answer(HANG)
        provider.answer(201, {"sid": "SM1"})
        env = {
            "SMS_URL": f"twilio+http://AC1:secret@127.0.0.1:{provider.port}?from=%2B447700900999",
            "SMS_READ_TIMEOUT": "40",
        }
        first = start_worker(own_queue, **env)
        try:
            scan_reminders.apply()
            _until(
                lambda: len(provider.requests) == 1, first, "the send never reached the provider"
            )
        finally:
            first.kill()  # SIGKILL, mid-send
            first.wait(timeout=20)
        connection.close()
        _until(lambda: rows.get().state == OutboxMessage.State.PENDING and rows.get().attempts == 0)
        second = start_worker(own_queue, **env)
        try:
            scan_reminders.apply()  # the scan is the sweep: the row waits, so it is queued again
            _until(lambda: rows.get().state == OutboxMessage.State.SENT, second, "never sent")
            assert scan_reminders.apply().get() == 0  # and once sent, never queued again
        finally:
            stop_worker(second)
        answered = provider.requests[1:]
    assert len(answered) == 1  # one message the provider took
    assert rows.get().attempts == 1


def _until(done, worker=None, why: str = "timed out") -> None:
    deadline = time.monotonic() + 60
    while not done():
        assert time.monotonic() < deadline, why
        if worker is not None:
            assert worker.poll() is None, worker.stdout.read() if worker.stdout else ""
        time.sleep(0.2)
