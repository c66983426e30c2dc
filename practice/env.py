"""Typed environment readers: a bad value stops the start, never a silently insecure default."""

import os
import re
import secrets
import zoneinfo
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from cryptography.fernet import Fernet
from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}.")


def env_int(name: str, default: int, *, minimum: int = 0) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}.") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {value}.")
    return value


_RATE = re.compile(r"^[1-9][0-9]{0,6}/(s|sec|second|m|min|minute|h|hour|d|day)$")


def env_rate(name: str, default: str) -> str:
    value = os.environ.get(name, default).strip()
    if not _RATE.match(value):
        raise ImproperlyConfigured(
            f"{name} must be a number of requests per s, min, hour or day (120/min), not {value!r}."
        )
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_choice(name: str, default: str, choices: set[str]) -> str:
    value = os.environ.get(name, default)
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {sorted(choices)}, not {value!r}.")
    return value


def env_url(name: str, default: str, schemes: set[str]) -> str:
    """Checked now, so a typo stops the start; the message never repeats the value (a password)."""
    value = os.environ.get(name, default)
    if value == "" and default == "":
        return value
    parts = urlsplit(value)
    if parts.scheme not in schemes or not (parts.netloc or parts.scheme == "unix"):
        raise ImproperlyConfigured(
            f"{name} must be a URL starting with one of "
            f"{', '.join(f'{scheme}://' for scheme in sorted(schemes))}."
        )
    return value


def env_time_zone(name: str, default: str) -> str:
    value = os.environ.get(name, default)
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ImproperlyConfigured(
            f"{name} must be a time zone name such as Europe/London, not {value!r}."
        ) from None
    return value


# Django only warns below these; sessions, reset links and invitations are signed with it.
SECRET_KEY_MIN_LENGTH = 50
SECRET_KEY_MIN_DISTINCT_CHARACTERS = 5


def strong_secret_key(name: str, value: str) -> str:
    if (
        len(value) < SECRET_KEY_MIN_LENGTH
        or len(set(value)) < SECRET_KEY_MIN_DISTINCT_CHARACTERS
        or value.startswith("django-insecure-")
    ):
        raise ImproperlyConfigured(
            f"{name} must be at least {SECRET_KEY_MIN_LENGTH} random characters when "
            f"DJANGO_ENV=production (this one is {len(value)} long or too repetitive): "
            'make one with python -c "import secrets; print(secrets.token_urlsafe(50))".'
        )
    return value


def development_secret_key(path: Path) -> str:
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


MAKE_A_FIELD_KEY = (
    'python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())"'
)


def env_fernet_keys(name: str) -> list[str]:
    """Each checked now, so a key cut short in a copy stops the start, not the first read."""
    keys = env_list(name, [])
    for number, key in enumerate(keys, start=1):
        try:
            Fernet(key.encode("ascii"))
        except (ValueError, UnicodeEncodeError):
            raise ImproperlyConfigured(
                f"{name}: key {number} of {len(keys)} is not a Fernet key (32 random bytes in "
                f"URL-safe base64, 44 characters); make one with {MAKE_A_FIELD_KEY}."
            ) from None
    if len(set(keys)) != len(keys):
        raise ImproperlyConfigured(f"{name} names the same key twice.")
    return keys


def development_field_key(path: Path) -> str:
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(Fernet.generate_key().decode("ascii"))
        path.chmod(0o600)
    return path.read_text().strip()


@dataclass(frozen=True)
class EmailConfig:
    backend: str
    host: str = "localhost"
    port: int = 25
    user: str = ""
    password: str = ""
    use_ssl: bool = False
    use_tls: bool = False
    anymail: dict[str, object] = field(default_factory=dict)


_EMAIL_BACKENDS = {
    "console": "django.core.mail.backends.console.EmailBackend",
    "locmem": "django.core.mail.backends.locmem.EmailBackend",
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "smtps": "django.core.mail.backends.smtp.EmailBackend",
}


ANYMAIL_PROVIDERS = {
    "brevo": "BREVO_API_KEY",
    "mailgun": "MAILGUN_API_KEY",
    "postmark": "POSTMARK_SERVER_TOKEN",
    "resend": "RESEND_API_KEY",
    "sendgrid": "SENDGRID_API_KEY",
}


def email_config(url: str) -> EmailConfig:
    """console://, locmem://, smtp(s)://user:pass@host:port?starttls=1, anymail+PROVIDER://KEY."""
    parts = urlsplit(url)
    if parts.scheme.startswith("anymail+"):
        return _anymail_config(parts.scheme.removeprefix("anymail+"), parts.netloc, parts.query)
    if parts.scheme not in _EMAIL_BACKENDS:
        raise ImproperlyConfigured(
            # Not the URL itself: it may hold the mail account's password.
            f"EMAIL_URL must start with one of {sorted(_EMAIL_BACKENDS)}:// "
            "or anymail+PROVIDER://; "
            + (f"it starts with {parts.scheme}://." if parts.scheme else "it has no scheme.")
        )
    backend = _EMAIL_BACKENDS[parts.scheme]
    if not parts.scheme.startswith("smtp"):
        return EmailConfig(backend=backend)
    if not parts.hostname:
        raise ImproperlyConfigured("EMAIL_URL names no host.")
    implicit_tls = parts.scheme == "smtps"
    return EmailConfig(
        backend=backend,
        host=parts.hostname,
        port=parts.port or (465 if implicit_tls else 25),
        user=unquote(parts.username or ""),
        password=unquote(parts.password or ""),
        use_ssl=implicit_tls,
        use_tls=parse_qs(parts.query).get("starttls", ["0"])[0] in _TRUE,
    )


def _anymail_config(provider: str, key: str, query: str) -> EmailConfig:
    if provider not in ANYMAIL_PROVIDERS:
        raise ImproperlyConfigured(
            f"EMAIL_URL names a provider this app does not set up: {provider!r}; "
            f"it knows anymail+{', anymail+'.join(sorted(ANYMAIL_PROVIDERS))}."
        )
    if not key:
        raise ImproperlyConfigured(f"EMAIL_URL gives no key: anymail+{provider}://KEY.")
    options: dict[str, object] = {ANYMAIL_PROVIDERS[provider]: unquote(key)}
    for name, values in parse_qs(query).items():
        if not name.replace("_", "").isalnum():
            raise ImproperlyConfigured(f"EMAIL_URL has an option anymail cannot take: {name!r}.")
        options[f"{provider.upper()}_{name.upper()}"] = values[-1]
    return EmailConfig(
        backend=f"anymail.backends.{provider}.EmailBackend",
        anymail={
            **options,
            # Tracking would rewrite the sign-in link and report when the client opened the email.
            "SEND_DEFAULTS": {"track_clicks": False, "track_opens": False},
            # The callers read a failed send as the mail server's OSError, as with SMTP.
            "IGNORE_RECIPIENT_STATUS": True,
        },
    )
