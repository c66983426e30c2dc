import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from practice import env

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = {
    "DJANGO_ENV": "production",
    "SECRET_KEY": "a" * 10 + "-production-secret-that-is-long-and-random-9f8e7d6c5b4a3",
    "ALLOWED_HOSTS": "practice.example.org",
    "SITE_URL": "https://practice.example.org",
    "DATABASE_URL": "sqlite:///:memory:",
    "FIELD_ENCRYPTION_KEYS": "dGVzdHMtb25seS1maWVsZC1rZXktbmV2ZXItcmVhbCE=",
}


def python(*args: str, **extra_env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**clean, **extra_env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def manage(*args: str, **extra_env: str) -> subprocess.CompletedProcess[str]:
    return python("manage.py", *args, **extra_env)


def settings_alone(code: str = "", **extra_env: str) -> subprocess.CompletedProcess[str]:
    """The settings module imported in a fresh process, as every start imports
    it first: what it refuses, it refuses there, at a fraction of the cost of
    ``manage.py check`` (which loads every app and runs the checks)."""
    return python("-c", f"from practice import settings\n{code}", **extra_env)


def test_deploy_check_passes_with_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("name", "value", "shown"),
    [
        ("DEFAULT_FROM_EMAIL", "Harbour <hello@harbourtherapy.example.org>", "harbourtherapy"),
        ("DEFAULT_FROM_EMAIL", "appointments@counselling-rooms.example.org", "counselling"),
        ("SITE_URL", "https://notebook.abuse-support.example.org", "abuse"),
    ],
)
def test_the_deploy_check_warns_of_an_email_address_or_link_that_says_what_it_is(
    name, value, shown
):
    """The practice's sender name and subject are kept neutral, but every email
    also shows the address it came from, and its link shows the site's: a
    partner reading the client's inbox reads those too."""
    result = manage(
        "check", "--deploy", "--fail-level", "WARNING", **{**PRODUCTION_ENV, name: value}
    )
    assert result.returncode != 0
    assert name in result.stderr and shown in result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    result = settings_alone(**{**PRODUCTION_ENV, "SECRET_KEY": ""})
    assert result.returncode != 0
    assert "SECRET_KEY is required" in result.stderr


@pytest.mark.parametrize(
    "secret_key",
    [
        "short-but-random-9f8e7d6c5b4a3",
        "ab" * 40,  # long, but two characters
        "django-insecure-" + "k3j4h5g6f7d8s9a0q1w2e3r4t5y6u7i8o9p0z1x2c3v4b5n6m7",
    ],
)
def test_production_refuses_a_short_or_repetitive_secret_key(secret_key):
    """Sessions, reset links and invitation tokens are signed with it: a weak
    one must stop the start, naming the variable and never showing the key."""
    result = settings_alone(**{**PRODUCTION_ENV, "SECRET_KEY": secret_key})
    assert result.returncode != 0
    last_line = result.stderr.splitlines()[-1]
    assert "SECRET_KEY must be at least 50" in last_line, result.stderr[-600:]
    assert secret_key not in result.stderr


def test_a_strong_secret_key_is_taken_and_development_keys_are_not_judged():
    strong = PRODUCTION_ENV["SECRET_KEY"]
    assert env.strong_secret_key("SECRET_KEY", strong) == strong
    result = settings_alone("print(settings.SECRET_KEY)", SECRET_KEY="dev")
    assert result.stdout.strip().endswith("dev"), result.stderr


@pytest.mark.django_db
def test_the_csrf_cookie_lasts_only_the_browser_session(client):
    """Django's default keeps it a year: on a shared device, a trace of the portal."""
    response = client.get("/login/")
    cookie = response.cookies[settings.CSRF_COOKIE_NAME]
    assert settings.CSRF_COOKIE_AGE is None
    assert cookie["max-age"] == "" and cookie["expires"] == ""


# Not set by the module: Django's default, None.
PROXY_HEADER = "print(getattr(settings, 'SECURE_PROXY_SSL_HEADER', None))"


def test_the_forwarded_protocol_is_trusted_only_when_a_tls_proxy_is_said_to_be_in_front():
    """Without a proxy that sets X-Forwarded-Proto, any client could send it
    and be taken for https."""
    assert settings_alone(PROXY_HEADER, **PRODUCTION_ENV).stdout.strip().endswith("None")
    behind = settings_alone(PROXY_HEADER, **PRODUCTION_ENV, PROXIES_IN_FRONT="1")
    assert "HTTP_X_FORWARDED_PROTO" in behind.stdout, behind.stderr


def test_a_misspelt_proxy_setting_stops_the_start():
    result = settings_alone(PROXIES_IN_FRONT="yes please")
    assert result.returncode != 0 and "PROXIES_IN_FRONT" in result.stderr


@pytest.mark.parametrize("site_url", ["", "http://practice.example.org"])
def test_production_refuses_links_in_emails_that_are_not_https(site_url):
    """Invitation and reset links carry a token that sets the password: over
    plain http, the first click (before HSTS is known) shows it to the network."""
    result = settings_alone(**{**PRODUCTION_ENV, "SITE_URL": site_url})
    assert result.returncode != 0
    assert "SITE_URL" in result.stderr


def test_production_refuses_debug():
    result = settings_alone(**{**PRODUCTION_ENV, "DEBUG": "true"})
    assert "DEBUG cannot be on" in result.stderr


@pytest.mark.parametrize(
    ("name", "value", "reader"),
    [
        ("X_BOOL", "maybe", lambda: env.env_bool("X_BOOL")),
        ("X_INT", "ten", lambda: env.env_int("X_INT", 1)),
        ("X_INT", "-5", lambda: env.env_int("X_INT", 1, minimum=0)),
        ("X_CHOICE", "staging", lambda: env.env_choice("X_CHOICE", "a", {"a", "b"})),
        ("X_RATE", "lots/min", lambda: env.env_rate("X_RATE", "1/min")),
    ],
)
def test_bad_environment_values_are_refused_loudly(monkeypatch, name, value, reader):
    monkeypatch.setenv(name, value)
    with pytest.raises(ImproperlyConfigured, match=name):
        reader()


def test_email_url_is_read_into_smtp_settings():
    config = env.email_config("smtps://user%40x:p%3Ass@mail.example.org?starttls=0")
    assert (config.host, config.port, config.user, config.password, config.use_ssl) == (
        "mail.example.org",
        465,
        "user@x",
        "p:ss",
        True,
    )
    with pytest.raises(ImproperlyConfigured):
        env.email_config("pigeon://coop")


def test_a_misspelt_email_url_is_named_without_its_password():
    """The start-up message goes to logs and terminals: it named the whole
    URL, the mail account's password with it."""
    with pytest.raises(ImproperlyConfigured) as refused:
        env.email_config("stmp://notify:s3cret-pass@mail.example.org:587")
    assert "EMAIL_URL" in str(refused.value)
    assert "s3cret-pass" not in str(refused.value)


def test_a_send_to_a_mail_server_gives_up_after_seconds():
    """Django's default is no timeout at all: a mail server that never
    answers held the invitation page, and a reset asked for while Redis was
    down, for good (tests/homework/test_races.py shows the lock it held)."""
    assert settings.EMAIL_TIMEOUT is not None and 1 <= settings.EMAIL_TIMEOUT <= 15
    result = settings_alone("print(settings.EMAIL_TIMEOUT)", EMAIL_TIMEOUT="25")
    assert result.stdout.strip().endswith("25"), result.stderr


def test_development_secret_key_is_generated_once_and_kept(tmp_path):
    path = tmp_path / "secret_key"
    first = env.development_secret_key(path)
    assert len(first) > 40 and env.development_secret_key(path) == first
    assert oct(path.stat().st_mode)[-3:] == "600"


def test_passwords_are_hashed_with_argon2_by_default():
    # The suite swaps in a fast hasher; the real setting is read from the module.
    from practice import settings as real_settings

    assert real_settings.PASSWORD_HASHERS[0].endswith("Argon2PasswordHasher")
    assert settings.AUTH_USER_MODEL == "practice.User"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DATABASE_URL", "postgress://postgres@127.0.0.1:5432/practice"),
        ("REDIS_URL", "127.0.0.1:6379/0"),
        ("TIME_ZONE", "Europe/Londn"),
        ("SITE_URL", "practice.example.org"),
    ],
)
def test_a_misspelt_service_or_place_stops_the_app_and_names_the_variable(name, value):
    """The README promises it: a typo must not start an app that loses its
    emails to a Redis that is not there, or links that lead nowhere."""
    result = settings_alone(**{name: value})
    assert result.returncode != 0
    assert f"{name} " in result.stderr.splitlines()[-1], result.stderr[-600:]


def test_a_django_warning_is_printed_once_in_development():
    # Django's own console handler and the project's root one both printed
    # every django.* line under runserver ("Not Found: /x" twice, "Watching
    # for file changes" twice): a log a newcomer learns to skim.
    result = manage(
        "shell",
        "-c",
        "import logging; logging.getLogger('django.request').warning('Not Found: /a-page')",
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("Not Found: /a-page") == 1, result.stderr
