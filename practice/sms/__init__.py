"""Text messages: one call for whoever sends one, the backend chosen by SMS_URL.

    from practice import sms
    try:
        receipt = sms.send_sms(to="+447700900123", body=message.sms)
    except sms.SmsTransientError:   # retry later (mind .maybe_sent)
    except sms.SmsPermanentError:   # record .reason; do not retry

Knows nothing of clients or reminders: the caller brings a number the client
said is safe and words that name nothing (practice.reminder_message).
"""

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
    """The backend the settings name, made anew (read at each send, so a
    test's override_settings applies)."""
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
    """Send ``body`` to ``to`` (E.164). Raises SmsTransientError (try again
    later) or SmsPermanentError (do not); never blocks longer than the
    connect timeout plus the read timeout, per step of the answer."""
    return get_backend().send(to, body)
