"""The Celery app: configuration comes from Django settings (CELERY_* names)."""

import os
from typing import Any

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "practice.settings")

app = Celery("practice", task_cls="practice.queue:PracticeTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# A worker's connection lifetime (seconds) when DATABASE_CONN_MAX_AGE leaves it at 0.
WORKER_CONN_MAX_AGE = 300


@worker_init.connect
def keep_database_connections(**_kwargs: Any) -> None:
    """A restarted database costs a reconnect, not a failed task."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if not database.get("CONN_MAX_AGE"):
        database["CONN_MAX_AGE"] = WORKER_CONN_MAX_AGE
        database["CONN_HEALTH_CHECKS"] = True
