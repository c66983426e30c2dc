"""A client's save with the broker unreachable (REDIS_URL naming a closed
port, in this process): it answers promptly, the therapist's notice waits
in the outbox, and the sweep sends it once Redis is back."""

import time

import pytest

from homework import selectors
from homework.models import OutboxMessage
from homework.tasks import notify_pending_submissions
from practice.celery import app as celery_app
from tests.helpers_entries import submit_written_record

pytestmark = pytest.mark.django_db(transaction=True)


def _fresh_connections() -> None:
    """Drop the app's connection and producer pools, so the next publish
    connects to the broker the configuration names now."""
    # Left to the garbage collector: a pool closed is closed for good.
    celery_app._pool = None  # type: ignore[attr-defined]
    celery_app.amqp._producer_pool = None  # type: ignore[attr-defined]


@pytest.fixture
def broker_unreachable():
    previous = celery_app.conf.broker_url
    celery_app.conf.update(
        CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL="redis://127.0.0.1:1/0"
    )
    _fresh_connections()
    yield
    celery_app.conf.update(CELERY_TASK_ALWAYS_EAGER=True, CELERY_BROKER_URL=previous)
    _fresh_connections()


def test_a_save_with_redis_unreachable_answers_promptly_and_is_sent_later(
    cast, broker_unreachable, caplog
):
    started = time.monotonic()
    entry = submit_written_record(cast.alice_assignment)
    assert time.monotonic() - started < 10  # connect timeout 2s, one publish retry
    assert "is Redis down?" in caplog.text
    notice = OutboxMessage.objects.get(entry=entry)
    assert notice.state == OutboxMessage.State.PENDING
    assert entry.pk in selectors.pending_notification_ids()
    # Redis back (eager here, as a worker would run it): the sweep sends it.
    celery_app.conf.update(CELERY_TASK_ALWAYS_EAGER=True)
    notify_pending_submissions.apply()
    notice.refresh_from_db()
    assert notice.state == OutboxMessage.State.SENT
