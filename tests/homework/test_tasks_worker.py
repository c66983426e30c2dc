"""A real Celery worker, on real Redis, writing to the real test database."""

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from homework import services
from homework.services import Flags
from practice.celery import app as celery_app
from tests.factories import written_record
from tests.notices import therapist_told

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def database_url() -> str:
    db = settings.DATABASES["default"]
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def worker_queue():
    """A worker of our own on a queue of our own, so no other worker takes the task."""
    queue = f"test-{uuid.uuid4().hex[:12]}"
    previous = celery_app.conf.task_default_queue
    celery_app.conf.update(CELERY_TASK_DEFAULT_QUEUE=queue)
    connection.close()  # the worker opens its own connections
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "EMAIL_URL": "locmem://",
        "DJANGO_ENV": "test",
    }
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "practice",
            "worker",
            "--pool=solo",
            "-Q",
            queue,
            "--loglevel=INFO",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    yield worker
    worker.terminate()
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        worker.kill()
    celery_app.conf.update(CELERY_TASK_DEFAULT_QUEUE=previous)


def test_submission_is_notified_by_a_real_worker(cast, worker_queue):
    entry = services.entry_submit(
        user=cast.alice.portal_user,
        assignment_id=cast.alice_assignment.pk,
        key=uuid.uuid4(),
        base_version=0,
        data=written_record(),
        flags=Flags(),
    )
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
