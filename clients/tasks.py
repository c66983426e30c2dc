"""Background work for portal accounts. Ids in, one service call."""

from typing import Any

from celery import Task, shared_task

from clients import services
from practice.queue import message_done_before, remember_message_done


@shared_task(bind=True, max_retries=3, default_retry_delay=30)
def send_password_reset(self: "Task[Any, Any]", user_id: int) -> bool:
    """Safe to run twice: the link's token is made at send time, so a message
    delivered again (a worker that died before acknowledging it) would mail a
    new working link the person did not ask for, maybe after they had used
    the first."""
    if message_done_before(self):
        return False
    try:
        sent = services.user_send_password_reset(user_id=user_id)
    except services.EmailNotSent as failure:
        # The mail server was down: a client locked out is waiting for this.
        raise self.retry(exc=failure) from failure
    remember_message_done(self)
    return sent
