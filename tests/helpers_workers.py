"""Helpers for tests that run beside real processes: a Celery worker of the
test's own, and requests on connections of their own that queue on a row lock
(PostgreSQL)."""

import json
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection, transaction

from homework.models import Assignment
from practice.celery import app as celery_app

ROOT = Path(__file__).resolve().parents[1]


def database_url() -> str:
    db = settings.DATABASES["default"]
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def run_in_a_process_of_its_own(
    script: str, *, env: Mapping[str, str], hung: str
) -> tuple[dict[str, Any], str]:
    """Run ``script`` in a new Python process on the test's database, with
    ``env`` over the test's environment, as production runs (no eager tasks
    unless ``env`` says so); return the JSON it printed last, and its stderr.
    A process still running after a minute fails the test, saying ``hung``."""
    connection.close()  # the other process writes to the same database
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "DJANGO_ENV": "test",
        "DJANGO_SETTINGS_MODULE": "practice.settings",
        **env,
    }
    try:
        run = subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    except subprocess.TimeoutExpired as still_running:
        pytest.fail(f"{hung}: {still_running.stderr!r}")
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1]), run.stderr


def start_worker(queue: str, **env: str) -> "subprocess.Popen[str]":
    """A real ``celery worker`` (solo pool) on ``queue``, on the test's
    database and Redis, with ``env`` over the test's environment."""
    connection.close()  # the worker opens its own connections
    return subprocess.Popen(
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
        env={
            **os.environ,
            "DATABASE_URL": database_url(),
            "REDIS_URL": settings.REDIS_URL,
            "EMAIL_URL": "locmem://",
            "DJANGO_ENV": "test",
            **env,
        },
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def stop_worker(worker: "subprocess.Popen[str]") -> None:
    worker.terminate()
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        worker.kill()


@contextmanager
def queue_of_our_own() -> Iterator[str]:
    """A queue of our own, so no other worker takes the test's tasks: the
    test's process sends to it (task_default_queue) and starts its workers on it."""
    queue = f"test-{uuid.uuid4().hex[:12]}"
    previous = celery_app.conf.task_default_queue
    celery_app.conf.update(CELERY_TASK_DEFAULT_QUEUE=queue)
    try:
        yield queue
    finally:
        celery_app.conf.update(CELERY_TASK_DEFAULT_QUEUE=previous)


@pytest.fixture
def own_queue() -> Iterator[str]:
    with queue_of_our_own() as queue:
        yield queue


@pytest.fixture
def worker_queue() -> Iterator["subprocess.Popen[str]"]:
    """A worker of our own on a queue of our own, so no other worker takes the task."""
    with queue_of_our_own() as queue:
        worker = start_worker(queue)
        yield worker
        stop_worker(worker)


WAIT = 30  # seconds; only ever reached when something is wrong


class Request(threading.Thread):
    """One request on its own connection: what it returned, or what it raised."""

    def __init__(self, name: str, call: Callable[[], Any]) -> None:
        super().__init__(name=name, daemon=True)
        self.call = call
        self.result: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = self.call()
        except BaseException as error:  # the test looks at it
            self.error = error
        finally:
            connection.close()

    def finish(self) -> "Request":
        self.join(WAIT)
        assert not self.is_alive(), f"{self.name} never finished"
        return self


def waiting_for_locks() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return int(cursor.fetchone()[0])


def start(name: str, call: Callable[[], Any]) -> Request:
    request = Request(name, call)
    request.start()
    return request


def until_waiting(count: int) -> None:
    """Return once ``count`` connections wait for a lock (PostgreSQL says so)."""
    deadline = time.monotonic() + WAIT
    while waiting_for_locks() < count:
        assert time.monotonic() < deadline, "the requests never queued on the lock"
        time.sleep(0.01)


@contextmanager
def row_locked(lock: Callable[[], Any]) -> Iterator[None]:
    """Hold a row lock (``lock`` runs select_for_update) on another connection
    for the length of the block: requests started inside it queue behind it."""
    held, done = threading.Event(), threading.Event()

    def holder() -> None:
        with transaction.atomic():
            lock()
            held.set()
            assert done.wait(WAIT)

    thread = start("lock holder", holder)
    assert held.wait(WAIT)
    try:
        yield
    finally:
        done.set()
        thread.finish()
        assert thread.error is None, thread.error


def lock_assignment(assignment: Assignment) -> Callable[[], Any]:
    return lambda: list(Assignment.objects.select_for_update().filter(pk=assignment.pk))
