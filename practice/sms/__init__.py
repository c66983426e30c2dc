"""Text messages through the backend SMS_URL names; knows nothing of clients or reminders."""

from typing import cast

from django.conf import settings
from django.utils.module_loading import import_string

from practice.sms.base import (
    SentReceipt,
    SmsBackend,
    SmsError,
    SmsPermanentError,
    SmsTransientError,
    last_digits,
)
from practice.sms.local import SentSms, outbox

__all__ = [
    "SentReceipt",
    "SentSms",
    "SmsBackend",
    "SmsError",
    "SmsPermanentError",
    "SmsTransientError",
    "get_backend",
    "last_digits",
    "outbox",
    "send_sms",
]


def get_backend() -> SmsBackend:
    """Made anew at each send, so a test's override_settings applies."""
    backend_class = import_string(settings.SMS_BACKEND)
    return cast(
        SmsBackend,
        backend_class(
            **settings.SMS_OPTIONS,
            connect_timeout=settings.SMS_CONNECT_TIMEOUT,
            read_timeout=settings.SMS_READ_TIMEOUT,
        ),
    )


def send_sms(*, to: str, body: str) -> SentReceipt:
    return get_backend().send(to, body)
