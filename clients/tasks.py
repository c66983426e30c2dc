"""Background work for portal accounts. Ids in, one service call."""

from typing import Any

from celery import Task, shared_task

from clients import services


@shared_task(bind=True, max_retries=3, default_retry_delay=30)
def send_password_reset(self: "Task[Any, Any]", user_id: int) -> bool:
    try:
        return services.user_send_password_reset(user_id=user_id)
    except services.EmailNotSent as failure:
        # The mail server was down: a client locked out is waiting for this.
        raise self.retry(exc=failure) from failure
