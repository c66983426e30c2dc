"""Enqueueing background work without ever failing, or holding, the request that asked."""

import logging
from typing import Any

from celery import Task
from django.core.cache import cache
from django.db import transaction

from practice import delivery

logger = logging.getLogger(__name__)

# Longer than Redis's visibility timeout, after which an unacknowledged message comes again.
DONE_REMEMBERED_FOR = 24 * 60 * 60


class PracticeTask(Task):  # type: ignore[type-arg]
    """In the request a task tries once: retries there would keep the person waiting."""

    def retry(
        self,
        args: Any = None,
        kwargs: Any = None,
        exc: Exception | None = None,
        throw: bool = True,
        eta: Any = None,
        countdown: Any = None,
        max_retries: int | None = None,
        **options: Any,
    ) -> Any:
        if self.request.is_eager and exc is not None:
            raise exc
        return super().retry(args, kwargs, exc, throw, eta, countdown, max_retries, **options)


def enqueue_on_commit(
    task: "Task[Any, Any]", *args: Any, run_here_if_broker_down: bool = False
) -> None:
    """After commit; failures are logged, never raised: what the person did must stand."""

    def send() -> None:
        if task.app.conf.task_always_eager:
            _run_here(task, args)
            return
        try:
            task.delay(*args)
            return
        except Exception:
            if not run_here_if_broker_down:
                logger.error(
                    "Could not enqueue %s%r (is Redis down?); the sweep will retry it.",
                    task.name,
                    args,
                    exc_info=True,
                )
                return
            logger.error(
                "Could not enqueue %s%r (is Redis down?); running it here, once.",
                task.name,
                args,
                exc_info=True,
            )
        # Outside the except: a failure here is its own, not "during handling" of Redis's.
        _run_here(task, args)

    transaction.on_commit(send)


def _run_here(task: "Task[Any, Any]", args: tuple[Any, ...]) -> None:
    try:
        task.apply(args=args, throw=True)
    except Exception:
        logger.error(
            "%s%r failed in the request and was not retried (a retry there would keep the "
            "person waiting).",
            task.name,
            args,
            exc_info=True,
        )
        return
    # With no worker, this is the only time earlier waiting sends get another try.
    delivery.catch_up_in_request(task)


def message_done_before(task: "Task[Any, Any]") -> bool:
    """Acks are late, so a redelivered message may have done its work; the cache remembers it."""
    try:
        return cache.get(_done_key(task)) is not None
    except Exception:
        logger.warning("Cache unavailable: cannot tell whether %s ran before.", task.name)
        return False


def remember_message_done(task: "Task[Any, Any]") -> None:
    try:
        cache.set(_done_key(task), True, DONE_REMEMBERED_FOR)
    except Exception:
        logger.warning("Cache unavailable: %s may run again if redelivered.", task.name)


def _done_key(task: "Task[Any, Any]") -> str:
    return f"task-done:{task.name}:{task.request.id}"
