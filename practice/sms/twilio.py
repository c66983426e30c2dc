"""Text messages through Twilio's Messages API (or any provider speaking its shape).

One form-encoded POST to ``/2010-04-01/Accounts/{sid}/Messages.json`` with
basic auth. Written on the standard library's http.client, which lets the
connection and the answer have timeouts of their own: a provider that does
not answer holds a worker for seconds, never for the task's whole time limit.
"""

import base64
import http.client
import json
import logging
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from practice.sms.base import (
    SentReceipt,
    SmsPermanentError,
    SmsTransientError,
    check_message,
    last_digits,
)

logger = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.twilio.com"
# An answer is a small JSON object; more than this is not one.
MAX_ANSWER_BYTES = 64 * 1024
# 408 (the provider timed out reading us) and 429 (too many at once) pass.
_TRANSIENT_4XX = {408, 429}


class TwilioBackend:
    name = "twilio"

    def __init__(
        self,
        *,
        account_sid: str,
        auth_token: str,
        from_number: str = "",
        messaging_service_sid: str = "",
        base_url: str = DEFAULT_BASE_URL,
        connect_timeout: float = 5,
        read_timeout: float = 10,
        **_options: Any,
    ) -> None:
        if bool(from_number) == bool(messaging_service_sid):
            raise ValueError("Give either a sending number or a messaging service, not both.")
        self.account_sid = account_sid
        self.auth_token = auth_token
        self.from_number = from_number
        self.messaging_service_sid = messaging_service_sid
        self.base = urlsplit(base_url)
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout

    def send(self, to_e164: str, body: str) -> SentReceipt:
        check_message(to_e164, body)
        form = {"To": to_e164, "Body": body}
        if self.messaging_service_sid:
            form["MessagingServiceSid"] = self.messaging_service_sid
        else:
            form["From"] = self.from_number
        path = f"{self.base.path.rstrip('/')}/2010-04-01/Accounts/{quote(self.account_sid)}/Messages.json"
        status, retry_after, answer = self._post(path, urlencode(form).encode())
        if 200 <= status < 300:
            sid = str(answer.get("sid", "")) if isinstance(answer, dict) else ""
            logger.info("Text message to %s taken by the provider (%s).", last_digits(to_e164), sid)
            return SentReceipt(backend=self.name, provider_id=sid)
        # Twilio's own code says which rule was broken (21211: not a number);
        # its message is not kept, since it may quote the number.
        code = answer.get("code") if isinstance(answer, dict) else None
        reason = f"http-{status}" + (f" {code}" if code else "")
        logger.warning("Text message to %s not taken: %s.", last_digits(to_e164), reason)
        if status >= 500 or status in _TRANSIENT_4XX:
            raise SmsTransientError(reason, status=status, retry_after=retry_after)
        raise SmsPermanentError(reason, status=status)

    def _post(self, path: str, body: bytes) -> tuple[int, float | None, object]:
        """(status, Retry-After in seconds, the JSON answer or None)."""
        connection_class = (
            http.client.HTTPSConnection
            if self.base.scheme == "https"
            else http.client.HTTPConnection
        )
        connection = connection_class(
            self.base.hostname or "", self.base.port, timeout=self.connect_timeout
        )
        credentials = base64.b64encode(f"{self.account_sid}:{self.auth_token}".encode()).decode()
        try:
            try:
                connection.connect()
            except TimeoutError:
                raise SmsTransientError("connect-timeout") from None
            except OSError:
                raise SmsTransientError("connection-failed") from None
            assert connection.sock is not None  # connect() opened it
            connection.sock.settimeout(self.read_timeout)
            try:
                connection.request(
                    "POST",
                    path,
                    body=body,
                    headers={
                        "Authorization": f"Basic {credentials}",
                        "Content-Type": "application/x-www-form-urlencoded",
                        "Accept": "application/json",
                    },
                )
            except (OSError, http.client.HTTPException):
                raise SmsTransientError("connection-lost") from None
            try:
                response = connection.getresponse()
                raw = response.read(MAX_ANSWER_BYTES)
            except TimeoutError:
                # The request went whole: the provider may have taken it.
                raise SmsTransientError("read-timeout", maybe_sent=True) from None
            except (OSError, http.client.HTTPException):
                raise SmsTransientError("connection-lost", maybe_sent=True) from None
        finally:
            connection.close()
        try:
            answer: object = json.loads(raw)
        except ValueError:
            answer = None
        return response.status, _seconds(response.getheader("Retry-After")), answer


def _seconds(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None  # an HTTP date: rare from an API; our own backoff serves
