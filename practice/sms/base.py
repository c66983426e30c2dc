"""What every text-message backend promises: one call, one receipt, two kinds of failure.

The task that sends a reminder retries only a failure that may pass (the
provider busy or down, the network slow) and records the others once: a
number the provider says is not a number will not become one by asking again.
"""

from dataclasses import dataclass
from typing import Protocol

import phonenumbers

# Twilio's own limit; ours are far shorter (a lock screen shows the first line).
MAX_BODY_CHARS = 1600


@dataclass(frozen=True)
class SentReceipt:
    """The provider took the message: its id for it (to match a delivery report)."""

    backend: str
    provider_id: str


class SmsError(Exception):
    """A text message that did not go. ``reason`` is short and safe to keep
    on a row or show a therapist ("timeout", "http-500"): it never holds the
    number or the words."""

    def __init__(self, reason: str, *, status: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


class SmsTransientError(SmsError):
    """Worth trying again later: a timeout, a refused connection, a 5xx, a 429.

    ``maybe_sent`` is true when the whole request reached the provider and
    the answer never came back: the message may be on its way, and a retry
    may send it twice (the sender decides which is worse). ``retry_after``
    is the provider's own word on when to come back, in seconds, if it gave one.
    """

    def __init__(
        self,
        reason: str,
        *,
        status: int | None = None,
        maybe_sent: bool = False,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(reason, status=status)
        self.maybe_sent = maybe_sent
        self.retry_after = retry_after


class SmsPermanentError(SmsError):
    """Trying again cannot help: an invalid number, a refused message, wrong
    credentials (which a person has to correct in SMS_URL)."""


def is_e164(number: str) -> bool:
    """Whether ``number`` is written in E.164 (+447700900123) and could be a
    number where its country code says (phonenumbers' possible-number rules)."""
    try:
        parsed = phonenumbers.parse(number, None)
    except phonenumbers.NumberParseException:
        return False
    written = phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)
    return written == number and phonenumbers.is_possible_number(parsed)


class SmsBackend(Protocol):
    name: str

    def send(self, to_e164: str, body: str) -> SentReceipt: ...


def check_message(to_e164: str, body: str) -> None:
    """Refuse, before anything leaves, a number not in E.164 or an empty or
    overlong body: the provider would refuse them too, after a round trip."""
    if not is_e164(to_e164 or ""):
        raise SmsPermanentError("not-e164")
    if not body.strip():
        raise SmsPermanentError("empty-body")
    if len(body) > MAX_BODY_CHARS:
        raise SmsPermanentError("body-too-long")


def last_digits(number: str) -> str:
    """What a log line may show of a phone number: its last two digits."""
    digits = "".join(char for char in number if char.isdigit())
    return f"…{digits[-2:]}" if digits else "…"
