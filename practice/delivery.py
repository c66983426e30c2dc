"""When a failed email is tried again and when it stops: one rule for every sweep."""

import datetime as dt
import logging
from collections.abc import Sequence
from smtplib import SMTPRecipientsRefused, SMTPResponseException
from typing import TYPE_CHECKING, Any

from anymail.exceptions import AnymailAPIError
from celery import Task
from django.conf import settings
from django.core.cache import cache
from django.core.mail import BadHeaderError
from django.utils.module_loading import import_string

if TYPE_CHECKING:
    from django.db.models import Model

logger = logging.getLogger(__name__)

# 24 tries ride out a mail server down for over an hour; past that, staff may send again.
GIVE_UP_AFTER_ATTEMPTS = 24
# An invitation that late surprises the client, however few the tries.
GIVE_UP_AFTER = dt.timedelta(days=2)
# Fewer-tried ones first, so an old failing one cannot hold up a new one.
SWEEP_LIMIT = 500
SWEEP_EVERY = dt.timedelta(minutes=5)

# Without a worker no beat runs the sweeps: a request whose own email went tries a few.
CATCH_UP_IN_REQUEST = 3


def refused_for_good(failure: BaseException) -> bool:
    """Whether trying again cannot help: a 5xx, an unwritable email, or an API's 4xx."""
    if isinstance(failure, BadHeaderError):
        return True
    if isinstance(failure, AnymailAPIError):
        status = failure.status_code or 0
        return 400 <= status < 500 and status not in (408, 429)
    if isinstance(failure, SMTPRecipientsRefused):
        codes = [code for code, _message in failure.recipients.values()]
        return bool(codes) and all(code >= 500 for code in codes)
    if isinstance(failure, SMTPResponseException):
        return failure.smtp_code >= 500
    return False


def raise_if_failed(outcome: str, error: Exception) -> str:
    """The outcome of one try, whose record has committed: "failed" raises ``error`` for the
    task to retry, so a retry always finds the failure counted."""
    if outcome == "failed":
        raise error
    return outcome


def gives_up(
    failure: BaseException, *, attempts: int, asked_at: dt.datetime | None, now: dt.datetime
) -> bool:
    if refused_for_good(failure) or attempts >= GIVE_UP_AFTER_ATTEMPTS:
        return True
    return asked_at is not None and now - asked_at >= GIVE_UP_AFTER


def count_failure(
    row: "Model",
    failure: BaseException,
    *,
    attempts: str,
    given_up: str,
    asked_at: dt.datetime | None,
    now: dt.datetime,
    what: str,
) -> str:
    """Returns "given-up", or "failed" while worth retrying."""
    tries: int = getattr(row, attempts)
    stop = gives_up(failure, attempts=tries, asked_at=asked_at, now=now)
    if stop:
        setattr(row, given_up, now)
    row.save(update_fields=[attempts, given_up])
    return log_failure(failure, what=what, tries=tries, stop=stop)


def log_failure(failure: BaseException, *, what: str, tries: int, stop: bool) -> str:
    # No traceback: a provider's error carries its response, which may quote the address.
    logger.warning(
        "Could not send %s (try %s)%s: %s.",
        what,
        tries,
        "; not trying again" if stop else "",
        short_error(failure),
    )
    return "given-up" if stop else "failed"


def short_error(failure: BaseException) -> str:
    """Never the message: it may quote an address."""
    code = getattr(failure, "smtp_code", None) or getattr(failure, "status_code", None)
    if isinstance(failure, SMTPRecipientsRefused):
        code = ",".join(sorted({str(status) for status, _message in failure.recipients.values()}))
    return f"{type(failure).__name__} {code}".strip() if code else type(failure).__name__


def ask_once_each(task: "Task[Any, Any]", ids: Sequence[int]) -> int:
    """As its last retry: the sweep is its retry, and comes back."""
    for pk in ids:
        try:
            task.apply_async((pk,), retries=task.max_retries)  # type: ignore[call-arg]
        except Exception:
            logger.warning(
                "%s(%r) from a sweep did not go; the next sweep tries again.",
                task.name,
                pk,
                exc_info=True,
            )
    return len(ids)


def catch_up_in_request(task: "Task[Any, Any]") -> None:
    if not task.app.conf.task_always_eager:
        return
    try:
        if not cache.add("delivery:caught-up-in-request", True, SWEEP_EVERY.total_seconds()):
            return
    except Exception:
        return
    for name in settings.DELIVERY_SWEEPS:
        try:
            # By its module: a command may not have imported every app's tasks.
            import_string(name).apply(
                kwargs={"limit": CATCH_UP_IN_REQUEST, "tried_before": True}, throw=True
            )
        except Exception:
            logger.warning("Catching up on %s in the request failed.", name, exc_info=True)
