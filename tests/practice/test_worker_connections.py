"""A worker keeps its database connection between tasks, health-checked by
Django, and a reminder whose send lost the database is tried again."""

import pytest
from celery.exceptions import Retry
from django.db import OperationalError

from homework import tasks
from homework.reminders import services as reminders
from practice import celery as worker


def test_a_worker_keeps_its_connection_checked_by_django(monkeypatch):
    from django.conf import settings

    default = {**settings.DATABASES["default"], "CONN_MAX_AGE": 0, "CONN_HEALTH_CHECKS": False}
    monkeypatch.setitem(settings.DATABASES, "default", default)
    worker.keep_database_connections()
    database = settings.DATABASES["default"]
    assert database["CONN_MAX_AGE"] == worker.WORKER_CONN_MAX_AGE
    assert database["CONN_HEALTH_CHECKS"] is True


def test_a_reminder_whose_send_lost_the_database_is_tried_again(monkeypatch):
    def lost(**_kwargs: object) -> str:
        raise OperationalError("server closed the connection unexpectedly")

    asked: dict[str, object] = {}

    def retry(**kwargs: object) -> Retry:
        asked.update(kwargs)
        return Retry()

    monkeypatch.setattr(reminders, "reminder_send", lost)
    monkeypatch.setattr(tasks.send_reminder, "retry", retry)
    with pytest.raises(Retry):
        tasks.send_reminder.run(7)
    assert isinstance(asked["exc"], OperationalError) and asked["countdown"] == 5
