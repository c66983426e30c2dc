"""Enqueueing background work without ever failing the request that asked."""

import logging
from typing import Any

from celery import Task
from django.db import transaction

logger = logging.getLogger(__name__)


def enqueue_on_commit(
    task: "Task[Any, Any]", *args: Any, run_here_if_broker_down: bool = False
) -> None:
    """Send ``task`` once the current transaction commits.

    If the broker is down (or, in eager mode, the task itself fails) the
    client's save has already committed and must stand: we log it, and the
    periodic sweep that looks for unfinished work picks it up later. Work no
    sweep looks for (a password-reset email, asked for once) asks to be run
    here instead, in this request, when the broker cannot take it.
    """

    def send() -> None:
        try:
            task.delay(*args)
        except Exception:
            if run_here_if_broker_down:
                logger.warning("Could not enqueue %s%r; running it here.", task.name, args)
                try:
                    task.apply(args=args, throw=True)
                except Exception:
                    logger.warning("%s%r failed here too.", task.name, args, exc_info=True)
                return
            logger.warning(
                "Could not enqueue %s%r; the sweep will retry it.", task.name, args, exc_info=True
            )

    transaction.on_commit(send)
