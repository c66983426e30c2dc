"""Text messages through Twilio's Messages API: one POST (the SDK adds nothing it needs)."""

import json
import logging
from typing import Any
from urllib.parse import quote

import requests
from urllib3.exceptions import HTTPError, NewConnectionError

from practice.sms.base import (
    SentReceipt,
    SmsPermanentError,
    SmsTransientError,
    check_message,
    last_digits,
)

logger = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.twilio.com"
MAX_ANSWER_BYTES = 64 * 1024
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
        self.base_url = base_url.rstrip("/")
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout

    def send(self, to_e164: str, body: str) -> SentReceipt:
        check_message(to_e164, body)
        form = {"To": to_e164, "Body": body}
        if self.messaging_service_sid:
            form["MessagingServiceSid"] = self.messaging_service_sid
        else:
            form["From"] = self.from_number
        url = f"{self.base_url}/2010-04-01/Accounts/{quote(self.account_sid)}/Messages.json"
        status, retry_after, answer = self._post(url, form)
        if 200 <= status < 300:
            sid = str(answer.get("sid", "")) if isinstance(answer, dict) else ""
            logger.info("Text message to %s taken by the provider (%s).", last_digits(to_e164), sid)
            return SentReceipt(backend=self.name, provider_id=sid)
        # Twilio's code says which rule was broken; its message may quote the number.
        code = answer.get("code") if isinstance(answer, dict) else None
        reason = f"http-{status}" + (f" {code}" if code else "")
        logger.warning("Text message to %s not taken: %s.", last_digits(to_e164), reason)
        if status >= 500 or status in _TRANSIENT_4XX:
            raise SmsTransientError(reason, status=status, retry_after=retry_after)
        raise SmsPermanentError(reason, status=status)

    def _post(self, url: str, form: dict[str, str]) -> tuple[int, float | None, object]:
        try:
            response = requests.post(
                url,
                data=form,
                auth=(self.account_sid, self.auth_token),
                headers={"Accept": "application/json"},
                timeout=(self.connect_timeout, self.read_timeout),
                allow_redirects=False,
                stream=True,
            )
        except requests.ConnectTimeout:
            raise SmsTransientError("connect-timeout") from None
        except requests.ConnectionError as lost:
            if isinstance(
                getattr(lost.args[0] if lost.args else None, "reason", None), NewConnectionError
            ):
                raise SmsTransientError("connection-failed") from None
            raise SmsTransientError("connection-lost", maybe_sent=True) from None
        except requests.RequestException:
            # Sent whole, and no answer in time (ReadTimeout among them): it may have gone.
            raise SmsTransientError("read-timeout", maybe_sent=True) from None
        with response:
            try:
                raw = response.raw.read(MAX_ANSWER_BYTES, decode_content=True)
            except (HTTPError, OSError):
                raise SmsTransientError("read-timeout", maybe_sent=True) from None
        try:
            answer: object = json.loads(raw)
        except ValueError:
            answer = None
        return response.status_code, _seconds(response.headers.get("Retry-After")), answer


def _seconds(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None
