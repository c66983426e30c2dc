"""A real Celery worker, on real Redis, writing to the real test database."""

import time

import pytest

from tests.helpers_entries import submit_written_record
from tests.helpers_workers import worker_queue  # noqa: F401 (a fixture)
from tests.notices import therapist_told

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_submission_is_notified_by_a_real_worker(cast, worker_queue):  # noqa: F811
    entry = submit_written_record(cast.alice_assignment)
    assert not therapist_told(entry)  # nothing ran in this process
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if therapist_told(entry):
            break
        assert worker_queue.poll() is None, (
            worker_queue.stdout.read() if worker_queue.stdout else ""
        )
        time.sleep(0.25)
    assert therapist_told(entry), "the worker never marked the entry's notice sent"
