"""Enqueueing background work without ever failing, or holding, the request that asked."""

import logging
from typing import Any

from celery import Task
from django.core.cache import cache
from django.db import transaction

from practice import delivery

logger = logging.getLogger(__name__)

# Longer than Redis's visibility timeout (an hour unless set), after which a
# message taken but never acknowledged is delivered again.
DONE_REMEMBERED_FOR = 24 * 60 * 60


class PracticeTask(Task):  # type: ignore[type-arg]  # generic only to the type checker
    """Every task's base (``practice.celery`` makes it the app's default).

    A task run in the request (no REDIS_URL, so tasks are eager; or the
    queue was down and ``enqueue_on_commit`` ran the work here) tries once.
    Retries are a worker's: it waits between them and holds no one. In the
    request there is no waiting between tries, only the person who clicked
    waiting through each of them, EMAIL_TIMEOUT a time when the mail server
    takes the connection and never answers. Celery runs eager retries in
    line unless ``task_eager_propagates`` happens to be on; this rule does
    not lean on that setting.
    """

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
            raise exc  # the caller in the request logs it (enqueue_on_commit)
        return super().retry(args, kwargs, exc, throw, eta, countdown, max_retries, **options)


def enqueue_on_commit(
    task: "Task[Any, Any]", *args: Any, run_here_if_broker_down: bool = False
) -> None:
    """Send ``task`` once the current transaction commits.

    What the person did has committed by then and must stand, whatever
    happens to the work after it: every failure here is logged, never raised.

    If the broker is down, the work waits for the periodic sweep that looks
    for unfinished work (an entry whose therapist has not been told). Work
    no sweep looks for (a password-reset email, asked for once), or that a
    person is on the page to hear about (an invitation), asks to be run
    here instead, once. Without a broker at all (no REDIS_URL) the task
    runs here, once, as it would have on a worker; what it could not do is
    logged as not retried, and stays undone in the database for whatever
    looks for it (the sweep, when a worker and beat run; or the person,
    whose reset page says to ask again if nothing arrives). With no worker
    and so no sweep, a later send that goes here also tries a few of the
    waiting ones (practice.delivery.catch_up_in_request).
    """

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
    # It went, so the mail server answers: with no worker, this is the only
    # time anything sent earlier and still waiting gets another try.
    delivery.catch_up_in_request(task)


def message_done_before(task: "Task[Any, Any]") -> bool:
    """Whether the message ``task`` is running already did its work.

    Messages are acknowledged when a task ends (acks_late): a worker that
    dies after sending an email and before that gets the message again.
    For work with no row of its own to say it is done (a reset email), the
    message id is remembered instead. A retry keeps its id, so only work
    that went is remembered (``remember_message_done``). The cache is a
    convenience: if it cannot answer, the work is done again.
    """
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
