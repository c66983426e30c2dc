"""The Celery app: configuration comes from Django settings (CELERY_* names)."""

import os
import time
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "practice.settings")

# Every task tries once when it runs in the request (see PracticeTask).
app = Celery("practice", task_cls="practice.queue:PracticeTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# How long a worker keeps one database connection (seconds) when
# DATABASE_CONN_MAX_AGE leaves it at 0 (a new connection for every request).
WORKER_CONN_MAX_AGE = 300
# A connection a task finished with this recently is trusted without a
# health check: in a burst of short tasks (the evening's reminders) the
# check was one of a send's five round trips.
TRUSTED_FOR_SECONDS = 1.0
_last_task_ended = -TRUSTED_FOR_SECONDS


@worker_init.connect
def keep_database_connections(**_kwargs: Any) -> None:
    """A worker runs short task after short task in one process. Left at 0,
    Celery closes the connection after each and PostgreSQL starts a backend
    for the next: most of a reminder's send (bench.reminders). The worker
    keeps it instead, checked before a task's first query once it has sat
    idle (TRUSTED_FOR_SECONDS), so a restarted database costs one reconnect,
    not a failed task (a send that still meets a connection lost within
    that second fails its try and is retried; nothing was sent)."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if not database.get("CONN_MAX_AGE"):
        database["CONN_MAX_AGE"] = WORKER_CONN_MAX_AGE
        database["CONN_HEALTH_CHECKS"] = True
    # Connected here, after Celery's own Django hooks (connected as this
    # worker starts), so these run after them and have the last word.
    task_prerun.connect(_trust_a_connection_just_used, weak=False)
    task_postrun.connect(_note_task_ended, weak=False)


def _trust_a_connection_just_used(**_kwargs: Any) -> None:
    from django.db import connections

    if time.monotonic() - _last_task_ended < TRUSTED_FOR_SECONDS:
        for connection in connections.all(initialized_only=True):
            if connection.connection is not None and not connection.errors_occurred:
                connection.health_check_done = True  # type: ignore[attr-defined]  # not in django-stubs


def _note_task_ended(**_kwargs: Any) -> None:
    global _last_task_ended
    _last_task_ended = time.monotonic()
