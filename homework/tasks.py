"""Background work. Tasks take ids, call one service, and are safe to repeat."""

from smtplib import SMTPException

from celery import shared_task

from homework import selectors, services


@shared_task(
    autoretry_for=(SMTPException, OSError),
    retry_backoff=True,
    retry_backoff_max=600,
    max_retries=8,
)
def notify_therapist_of_submission(entry_id: int) -> bool:
    return services.entry_notify_therapist(entry_id=entry_id)


@shared_task
def notify_pending_submissions() -> int:
    """Catch up on notifications whose enqueue failed (e.g. Redis was down)."""
    ids = selectors.pending_notification_ids()
    for entry_id in ids:
        notify_therapist_of_submission.delay(entry_id)
    return len(ids)
