"""Before each session on the real services: the beat's reminder scan queues, and a real worker
sends, one reminder to a client whose before-session window opens today, at their reminder time, and none
to one whose window opens tomorrow."""

import datetime as dt
import time
from zoneinfo import ZoneInfo

import pytest

from clients.contact import hours
from clients.contact.models import ContactProfile
from clients.models import Client, Session
from homework.models import OutboxMessage
from homework.selectors import client_today
from homework.tasks import scan_reminders
from tests.factories import AssignmentFactory, ClientFactory
from tests.helpers_workers import worker_queue  # noqa: F401 (fixture)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def client_with_a_session_in(days: int, *, zone: str) -> Client:
    """Reachable at any hour, reminded from midnight, with work due three days before each
    session, and a session ``days`` from their today."""
    client = ClientFactory.create(timezone=zone)
    ContactProfile.objects.create(
        client=client,
        email_is_safe=True,
        email=f"safe-{client.pk}@example.test",
        safe_hours=hours.any_time_every_day(),
        recurring_reminder_at=dt.time(0, 0),
    )
    today = client_today(client)
    AssignmentFactory.create(
        client=client,
        schedule="before_session",
        days_before=3,
        due_on=None,
        starts_on=today - dt.timedelta(days=7),
    )
    on = dt.datetime.combine(today + dt.timedelta(days=days), dt.time(9), tzinfo=ZoneInfo(zone))
    Session.objects.create(client=client, starts_at=on)
    return client


def test_a_real_worker_reminds_on_the_day_a_window_opens(cast, worker_queue):  # noqa: F811
    opens_today = client_with_a_session_in(3, zone="America/New_York")
    opens_tomorrow = client_with_a_session_in(4, zone="Pacific/Auckland")
    # The beat's scan runs here, so its sends go to this test's queue: the worker sends them.
    scan_reminders.apply()
    rows = OutboxMessage.objects.filter(kind=OutboxMessage.Kind.REMINDER)
    deadline = time.monotonic() + 60
    while not rows.filter(state=OutboxMessage.State.SENT).exists():
        assert time.monotonic() < deadline, list(rows.values("client_id", "state", "last_error"))
        assert worker_queue.poll() is None, (
            worker_queue.stdout.read() if worker_queue.stdout else ""
        )
        time.sleep(0.25)
    sent = rows.get()
    assert sent.client_id == opens_today.pk
    assert sent.slot_on == client_today(opens_today)
    assert not rows.filter(client=opens_tomorrow).exists()
