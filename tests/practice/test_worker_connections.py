"""A worker trusts a database connection a task finished with a moment ago
(no health-check round trip), checks one that has sat idle, and a reminder
whose send lost the database is tried again."""

import time

import pytest
from celery.exceptions import Retry
from django.db import OperationalError, connection

from homework import tasks
from homework.reminders import services as reminders
from practice import celery as worker


@pytest.mark.django_db
def test_a_connection_just_used_is_trusted_and_an_idle_one_is_checked(monkeypatch):
    connection.ensure_connection()
    monkeypatch.setattr(connection, "health_check_done", False)
    worker._note_task_ended()
    worker._trust_a_connection_just_used()
    assert getattr(connection, "health_check_done")  # noqa: B009 (not in django-stubs)
    monkeypatch.setattr(connection, "health_check_done", False)
    idle_since = time.monotonic() - worker.TRUSTED_FOR_SECONDS - 1
    monkeypatch.setattr(worker, "_last_task_ended", idle_since)
    worker._trust_a_connection_just_used()
    assert not getattr(connection, "health_check_done")  # noqa: B009 (not in django-stubs)


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
