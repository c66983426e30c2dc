"""Enqueueing background work without ever failing the request that asked."""

import logging
from typing import Any

from celery import Task
from django.db import transaction

logger = logging.getLogger(__name__)


def enqueue_on_commit(task: "Task[Any, Any]", *args: Any) -> None:
    """Send ``task`` once the current transaction commits.

    If the broker is down (or, in eager mode, the task itself fails) the
    client's save has already committed and must stand: we log it, and the
    periodic sweep that looks for unfinished work picks it up later.
    """

    def send() -> None:
        try:
            task.delay(*args)
        except Exception:
            logger.warning(
                "Could not enqueue %s%r; the sweep will retry it.", task.name, args, exc_info=True
            )

    transaction.on_commit(send)
