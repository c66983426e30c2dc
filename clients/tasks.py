"""Background work for portal accounts. Ids in, one service call."""

from celery import shared_task

from clients import services


@shared_task(max_retries=3, default_retry_delay=30)
def send_password_reset(user_id: int) -> bool:
    return services.user_send_password_reset(user_id=user_id)
