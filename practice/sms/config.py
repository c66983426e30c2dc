"""Read SMS_URL at start-up; messages never repeat it (it holds the provider's secret)."""

from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

from practice.sms.base import is_e164

_BACKENDS = {
    "console": "practice.sms.local.ConsoleBackend",
    "locmem": "practice.sms.local.LocmemBackend",
    "twilio": "practice.sms.twilio.TwilioBackend",
    "twilio+http": "practice.sms.twilio.TwilioBackend",
}
_LOOPBACK = {"127.0.0.1", "localhost", "::1"}


@dataclass(frozen=True)
class SmsConfig:
    backend: str
    options: dict[str, str] = field(default_factory=dict)


def _refuse(problem: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"SMS_URL {problem} (see README, “Text messages”).")


def _query(query: str) -> dict[str, str]:
    # Not parse_qs: it reads "+" as a space, and "?from=+44…" is how people write it.
    pairs = (item.partition("=") for item in query.split("&") if item)
    return {unquote(key): unquote(value) for key, _eq, value in pairs}


def sms_config(url: str) -> SmsConfig:
    parts = urlsplit(url)
    if parts.scheme not in _BACKENDS:
        raise _refuse(
            f"must start with one of {', '.join(f'{s}://' for s in sorted(_BACKENDS))}; "
            + (f"it starts with {parts.scheme}://" if parts.scheme else "it has no scheme")
        )
    backend = _BACKENDS[parts.scheme]
    if not parts.scheme.startswith("twilio"):
        return SmsConfig(backend=backend)
    if not parts.hostname:
        raise _refuse("names no host (api.twilio.com)")
    secure = parts.scheme == "twilio"
    if not secure and parts.hostname not in _LOOPBACK:
        raise _refuse(
            "may use twilio+http:// only for a loopback address: the token would travel in clear"
        )
    if not parts.username or not parts.password:
        raise _refuse("needs the account SID and auth token, as twilio://SID:TOKEN@host")
    query = _query(parts.query)
    unknown = set(query) - {"from", "messaging_service"}
    if unknown:
        raise _refuse(f"has options it does not know: {', '.join(sorted(unknown))}")
    sender, service = query.get("from", "").strip(), query.get("messaging_service", "").strip()
    if bool(sender) == bool(service):
        raise _refuse("needs one of ?from=+44… (a sending number) or ?messaging_service=MG…")
    if sender and not is_e164(sender):
        raise _refuse("has a from= number that is not in international form (+447700900123)")
    try:
        port = parts.port
    except ValueError:
        raise _refuse("has a port that is not a number") from None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return SmsConfig(
        backend=backend,
        options={
            "account_sid": unquote(parts.username),
            "auth_token": unquote(parts.password),
            "from_number": sender,
            "messaging_service_sid": service,
            "base_url": f"{'https' if secure else 'http'}://{host}" + (f":{port}" if port else ""),
        },
    )
