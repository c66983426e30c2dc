"""What every SMS backend promises: one call, one receipt, two kinds of failure."""

from dataclasses import dataclass
from typing import Protocol

import phonenumbers

# Twilio's own limit; ours are far shorter (a lock screen shows the first line).
MAX_BODY_CHARS = 1600


@dataclass(frozen=True)
class SentReceipt:
    backend: str
    provider_id: str


class SmsError(Exception):
    """``reason`` is short and safe to keep: never the number or the words."""

    def __init__(self, reason: str, *, status: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


class SmsTransientError(SmsError):
    """Worth trying again; ``maybe_sent``: it may have gone, and a retry may send it twice."""

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
    """Trying again cannot help: a person has to correct something."""


def is_e164(number: str) -> bool:
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
    """Refused before anything leaves: the provider would refuse it after a round trip."""
    if not is_e164(to_e164 or ""):
        raise SmsPermanentError("not-e164")
    if not body.strip():
        raise SmsPermanentError("empty-body")
    if len(body) > MAX_BODY_CHARS:
        raise SmsPermanentError("body-too-long")


def last_digits(number: str) -> str:
    digits = "".join(char for char in number if char.isdigit())
    return f"…{digits[-2:]}" if digits else "…"
