"""Backends that send nothing: the console for ``make run``, a list for tests."""

import itertools
import sys
import threading
from dataclasses import dataclass
from typing import Any, TextIO

from practice.sms.base import SentReceipt, check_message, last_digits


@dataclass(frozen=True)
class SentSms:
    to: str
    body: str


# tests/conftest.py empties it before each test, as Django does mail.outbox.
outbox: list[SentSms] = []
_numbers = itertools.count(1)
_lock = threading.Lock()


class ConsoleBackend:
    name = "console"

    def __init__(self, *, stream: TextIO | None = None, **_options: Any) -> None:
        self.stream = stream

    def send(self, to_e164: str, body: str) -> SentReceipt:
        check_message(to_e164, body)
        with _lock:
            number = next(_numbers)
        stream = self.stream or sys.stdout
        stream.write(f"Text message to {last_digits(to_e164)}:\n{body}\n{'-' * 40}\n")
        stream.flush()
        return SentReceipt(backend=self.name, provider_id=f"console-{number}")


class LocmemBackend:
    name = "locmem"

    def __init__(self, **_options: Any) -> None:
        pass

    def send(self, to_e164: str, body: str) -> SentReceipt:
        check_message(to_e164, body)
        with _lock:
            outbox.append(SentSms(to=to_e164, body=body))
            number = next(_numbers)
        return SentReceipt(backend=self.name, provider_id=f"locmem-{number}")
