"""Background work. Tasks take ids, call one service, and are safe to repeat."""

import datetime as dt
from collections.abc import Callable
from smtplib import SMTPException

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from homework import selectors, services
from homework.reminders import services as reminders
from homework.services import digest, downloads, escalation, programs, retention

# Imported here so a worker loads WeasyPrint once, at start-up.
from homework.summary import selectors as summary_selectors
from homework.summary import services as summary_services
from practice import delivery
from practice.api.idempotency import idempotency_keys_purge
from practice.pdf import collector_paused_in_worker
from practice.queue import enqueue_on_commit

# Far below the broker's visibility timeout, past which Redis would redeliver a waiting message.
REMINDER_RETRY_MAX_SECONDS = 600


@shared_task(
    autoretry_for=(services.NotificationNotSent, SMTPException, OSError),
    retry_backoff=True,
    retry_backoff_max=600,
    max_retries=8,
)
def notify_therapist_of_submission(entry_id: int) -> bool:
    return services.entry_notify_therapist(entry_id=entry_id)


@shared_task
def notify_pending_submissions(
    limit: int = delivery.SWEEP_LIMIT, tried_before: bool = False
) -> int:
    """The sweep tries each notice once, so a mail server that hangs can't swamp the worker."""
    return delivery.ask_once_each(
        notify_therapist_of_submission,
        selectors.pending_notification_ids(limit=limit, tried_before=tried_before),
    )


@shared_task(soft_time_limit=60, time_limit=90)
def prepare_tomorrows_summaries() -> int:
    tomorrow = timezone.localdate(timezone=timezone.get_default_timezone()) + dt.timedelta(days=1)
    ids = summary_selectors.session_ids_on(day=tomorrow)
    for session_id in ids:
        prepare_session_summary.delay(session_id)
    return len(ids)


@shared_task(
    autoretry_for=(OSError,),
    retry_backoff=True,
    max_retries=3,
    soft_time_limit=120,
    time_limit=150,
)
def prepare_session_summary(session_id: int) -> str | None:
    with collector_paused_in_worker(prepare_session_summary):
        return summary_services.summary_prepare_for_session(session_id=session_id)


@shared_task(soft_time_limit=120, time_limit=150)
def purge_stale_summaries() -> int:
    return summary_services.summary_purge_stale()


@shared_task(soft_time_limit=120, time_limit=150)
def scan_reminders() -> int:
    """Doubles as the reminders' sweep: a lost enqueue or a dead worker's send goes again."""
    scanned = reminders.reminders_scan(now=timezone.now())
    for message_id in scanned.ready:
        enqueue_on_commit(send_reminder, message_id)
    return len(scanned.ready)


@shared_task(
    bind=True,
    acks_late=True,
    max_retries=reminders.REMINDER_TRIES,
    soft_time_limit=30,
    time_limit=45,
)
def send_reminder(self: Task, message_id: int) -> str:  # type: ignore[type-arg]
    """Safe to run twice: the row's lock and state make it go once."""
    try:
        return reminders.reminder_send(message_id=message_id)
    except (OperationalError, InterfaceError) as lost:
        # Nothing committed, so the row still waits; try again soon.
        raise self.retry(exc=lost, countdown=5) from None
    except reminders.ReminderNotSent as failure:
        wait = failure.retry_after or 30 * 2**self.request.retries
        raise self.retry(exc=failure, countdown=min(wait, REMINDER_RETRY_MAX_SECONDS)) from None


def outbox_send_task(
    not_sent: type[Exception],
) -> Callable[[Callable[[int], str]], "Task[[int], str]"]:
    """An outbox row's sender: retried while the mail server refuses, the row's lock sends once."""
    return shared_task(
        acks_late=True,
        autoretry_for=(not_sent,),
        retry_backoff=True,
        retry_backoff_max=REMINDER_RETRY_MAX_SECONDS,
        max_retries=5,
        soft_time_limit=60,
        time_limit=90,
    )


def enqueue_each(task: "Task[[int], str]", message_ids: list[int]) -> int:
    for message_id in message_ids:
        enqueue_on_commit(task, message_id)
    return len(message_ids)


@shared_task(soft_time_limit=120, time_limit=150)
def scan_digests() -> int:
    return enqueue_each(send_digest, digest.digests_scan(now=timezone.now()))


@outbox_send_task(digest.DigestNotSent)
def send_digest(message_id: int) -> str:
    return digest.digest_send(message_id=message_id, now=timezone.now())


@shared_task(soft_time_limit=300, time_limit=360)
def purge_done_messages() -> int:
    now = timezone.now()
    # Kept API answers (Idempotency-Key) are done with after a day.
    idempotency_keys_purge(now=now)
    return retention.outbox_purge_done(now=now)


@shared_task(acks_late=True, soft_time_limit=300, time_limit=330)
def prepare_download(download_id: int, attempt: int) -> str:
    """A second delivery of the same message finds the row claimed and does nothing."""
    with collector_paused_in_worker(prepare_download):
        return downloads.download_build(download_id=download_id, attempt=attempt)


@shared_task(soft_time_limit=120, time_limit=150)
def purge_expired_downloads() -> int:
    return downloads.downloads_purge_expired(now=timezone.now())


@shared_task(soft_time_limit=600, time_limit=660)
def release_program_steps() -> int:
    """The steps of programs whose day has come where each client lives."""
    return programs.programs_release_due()


@shared_task(soft_time_limit=120, time_limit=150)
def escalate_alerts() -> int:
    """Doubles as the escalations' sweep: a lost enqueue goes with the next scan."""
    return enqueue_each(send_alert_escalation, escalation.alerts_escalate(now=timezone.now()))


@outbox_send_task(escalation.EscalationNotSent)
def send_alert_escalation(message_id: int) -> str:
    return escalation.escalation_send(message_id=message_id, now=timezone.now())
