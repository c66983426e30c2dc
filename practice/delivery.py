"""When an email that did not go is tried again, and when it stops being tried.

One place for every notification the sweeps look for (a therapist's "something
new arrived", a client's invitation), so they give up by the same rule.
"""

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

# Each try at the mail server counts: the worker's own quick retries (about
# nine in the first few minutes), then one per sweep, every five minutes. 24
# rides out a mail server down for over an hour; past that the people who
# run it know, and the staff who asked see "could not be delivered" with a
# way to send again, rather than the worker spending its evenings waiting on
# a dead server for the same old emails (which once starved the summaries).
GIVE_UP_AFTER_ATTEMPTS = 24
# However few the tries (Redis down for days, nobody ran a sweep), an email
# asked for this long ago and still failing is stale: an invitation that
# late surprises the client, and the therapist has long seen the entry.
GIVE_UP_AFTER = dt.timedelta(days=2)
# How many waiting emails one sweep asks for. Fewer-tried ones first (see the
# selectors), so past this many an old failing one cannot hold up a new one.
SWEEP_LIMIT = 500
SWEEP_EVERY = dt.timedelta(minutes=5)  # settings.CELERY_BEAT_SCHEDULE runs the sweeps so

# Without a worker (no REDIS_URL: ``make run``, a first install) no beat runs
# the sweeps. A request whose own email just went (so the mail server is up)
# also tries this many of each kind waiting, at most once per SWEEP_EVERY per
# process: a few more seconds for one person now and then, rather than an
# email waiting forever. Only ones that failed before: without a worker each
# email is tried in the request that asked, so one never tried is most likely
# another request's, still on its way.
CATCH_UP_IN_REQUEST = 3


def refused_for_good(failure: BaseException) -> bool:
    """Whether trying again cannot help: the server answered 5xx (an address
    that does not exist, a message refused), or the email cannot be written
    (a sender or subject with a line break; a manager must correct it). A
    provider's API (anymail) says the same with a 4xx other than 408 or 429."""
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


def gives_up(
    failure: BaseException, *, attempts: int, asked_at: dt.datetime | None, now: dt.datetime
) -> bool:
    """After ``attempts`` tries (this one included), the last failing with ``failure``."""
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
    """Record on ``row`` a try that failed with ``failure``: its count of tries
    (the field named ``attempts``, this try already counted) is saved, and so
    is ``given_up`` (set to ``now``) once ``gives_up`` says so. Logged, naming
    ``what`` was not sent. Returns "given-up", or "failed" while worth retrying."""
    tries: int = getattr(row, attempts)
    stop = gives_up(failure, attempts=tries, asked_at=asked_at, now=now)
    if stop:
        setattr(row, given_up, now)
    row.save(update_fields=[attempts, given_up])
    return log_failure(failure, what=what, tries=tries, stop=stop)


def log_failure(failure: BaseException, *, what: str, tries: int, stop: bool) -> str:
    """Log a try that failed, naming ``what`` was not sent. Returns
    "given-up" when ``stop``, or "failed" while worth retrying."""
    # The kind of failure and its code only, with no traceback: a provider's
    # error (anymail's) carries its response, which may quote the address.
    logger.warning(
        "Could not send %s (try %s)%s: %s.",
        what,
        tries,
        "; not trying again" if stop else "",
        short_error(failure),
    )
    return "given-up" if stop else "failed"


def short_error(failure: BaseException) -> str:
    """What went wrong, short enough to keep on a row: the kind of failure
    and the server's code, never the message (it may quote an address)."""
    code = getattr(failure, "smtp_code", None) or getattr(failure, "status_code", None)
    if isinstance(failure, SMTPRecipientsRefused):
        code = ",".join(sorted({str(status) for status, _message in failure.recipients.values()}))
    return f"{type(failure).__name__} {code}".strip() if code else type(failure).__name__


def ask_once_each(task: "Task[Any, Any]", ids: Sequence[int]) -> int:
    """Queue ``task`` once for each id, as its last retry: the sweep is its
    retry, and comes back. The stubs leave out ``retries``; Celery's own
    retry() sends it so. Run in the request (no worker), each runs here and
    may fail: the rest still get their turn."""
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
    """With no worker, after a send in the request went: the waiting ones, a few."""
    if not task.app.conf.task_always_eager:
        return
    try:
        if not cache.add("delivery:caught-up-in-request", True, SWEEP_EVERY.total_seconds()):
            return
    except Exception:
        return  # no cache to keep it to once in a while: leave it
    for name in settings.DELIVERY_SWEEPS:
        try:
            # By its module, not Celery's registry: a command that sends
            # (seed_demo, say) has not imported every app's tasks.
            import_string(name).apply(
                kwargs={"limit": CATCH_UP_IN_REQUEST, "tried_before": True}, throw=True
            )
        except Exception:
            logger.warning("Catching up on %s in the request failed.", name, exc_info=True)
