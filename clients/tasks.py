"""Background work for portal accounts. Ids in, one service call."""

from typing import Any

from celery import Task, shared_task

from clients import selectors, services
from clients.services.staff_invitations import staff_invitation_send_email
from practice import delivery
from practice.queue import message_done_before, remember_message_done


@shared_task(bind=True, max_retries=3, default_retry_delay=30)
def send_password_reset(self: "Task[Any, Any]", user_id: int) -> bool:
    """Remembered once done: a redelivery would mail a new link nobody asked for."""
    if message_done_before(self):
        return False
    try:
        sent = services.user_send_password_reset(user_id=user_id)
    except services.EmailNotSent as failure:
        raise self.retry(exc=failure) from failure
    remember_message_done(self)
    return sent


@shared_task(bind=True, max_retries=8, default_retry_delay=30)
def send_invitation_email(self: "Task[Any, Any]", invitation_id: int) -> bool:
    try:
        return services.invitation_send_email(invitation_id=invitation_id)
    except services.EmailNotSent as failure:
        raise self.retry(exc=failure, countdown=min(30 * 2**self.request.retries, 600)) from failure


@shared_task(bind=True, max_retries=8, default_retry_delay=30)
def send_staff_invitation_email(self: "Task[Any, Any]", invitation_id: int) -> bool:
    """No sweep: the manager who asked sees on the Staff page whether it went."""
    try:
        return staff_invitation_send_email(invitation_id=invitation_id)
    except services.EmailNotSent as failure:
        raise self.retry(exc=failure, countdown=min(30 * 2**self.request.retries, 600)) from failure


@shared_task
def email_pending_invitations(limit: int = delivery.SWEEP_LIMIT, tried_before: bool = False) -> int:
    """Each tried once: the sweep is their retry."""
    return delivery.ask_once_each(
        send_invitation_email,
        selectors.invitations_awaiting_email(limit=limit, tried_before=tried_before),
    )


@shared_task(bind=True, max_retries=3, default_retry_delay=30)
def send_invitation_finish_email(
    self: "Task[Any, Any]", invitation_id: int, try_number: int
) -> bool:
    if message_done_before(self):
        return False
    try:
        sent = services.invitation_send_finish_email(
            invitation_id=invitation_id, try_number=try_number
        )
    except services.EmailNotSent as failure:
        raise self.retry(exc=failure) from failure
    remember_message_done(self)
    return sent
