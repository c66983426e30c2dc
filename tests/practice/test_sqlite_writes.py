"""The embedded SQLite database under requests that write at once (make run)."""

import threading
import time

import pytest
from django.db import connection, transaction

from practice.models import User
from tests.factories import TherapistFactory


@pytest.mark.django_db(transaction=True)
def test_a_write_that_follows_a_read_waits_its_turn_instead_of_failing():
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL waits for row locks by itself")
    user = TherapistFactory.create(name="Before")
    has_read = threading.Event()
    errors: list[Exception] = []

    def reads_then_writes() -> None:  # e.g. saving a draft: load, check, write
        try:
            with transaction.atomic():
                User.objects.get(pk=user.pk)
                has_read.set()
                time.sleep(0.3)  # another request starts writing meanwhile
                User.objects.filter(pk=user.pk).update(name="First")
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()

    def writes() -> None:  # e.g. signing out in another tab
        has_read.wait(5)
        try:
            with transaction.atomic():
                User.objects.filter(pk=user.pk).update(name="Second")
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=reads_then_writes), threading.Thread(target=writes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    assert User.objects.get(pk=user.pk).name == "Second"  # each in turn
