"""Reset emails: a few an hour to one address, whether or not it has an
account, and never lost to a cache outage."""

from django.core import mail
from django.core.cache.backends.locmem import LocMemCache
from django.test import Client as HttpClient
from django.urls import reverse

from clients.password_resets import PasswordResetThrottle, password_reset_allowed
from practice.api.throttling import throttle_cache

HOUR = 60 * 60


def ask_reset(email: str) -> tuple[int, str]:
    asked = HttpClient().post(reverse("clients:password_reset"), {"email": email})
    return asked.status_code, asked["Location"]


def test_reset_emails_to_one_address_are_limited_and_the_page_never_changes(
    cast, django_capture_on_commit_callbacks, settings
):
    with django_capture_on_commit_callbacks(execute=True):
        pages = [ask_reset(email) for email in ["alice@example.test"] * 5]
        pages += [ask_reset(email) for email in ["nobody@example.test"] * 5]
    assert len(mail.outbox) == settings.PASSWORD_RESETS_PER_HOUR
    assert {message.to[0] for message in mail.outbox} == {"alice@example.test"}
    assert set(pages) == {(302, reverse("clients:password_reset_sent"))}
    # An address with no account was counted all the same.
    assert not password_reset_allowed(email="nobody@example.test")


def test_the_reset_limit_counts_an_address_however_it_is_typed(cast, settings):
    for _ in range(settings.PASSWORD_RESETS_PER_HOUR):
        assert password_reset_allowed(email="Alice@Example.test ")
    assert not password_reset_allowed(email="alice@example.test")


def test_an_address_may_be_sent_another_once_an_hour_has_passed_since_the_first(
    cast, settings, monkeypatch
):
    now = [1_000_000.0]
    monkeypatch.setattr(PasswordResetThrottle, "timer", lambda self: now[0])
    for _ in range(settings.PASSWORD_RESETS_PER_HOUR):
        assert password_reset_allowed(email="alice@example.test")
        now[0] += 60
    assert not password_reset_allowed(email="alice@example.test")
    now[0] = 1_000_000.0 + HOUR + 1
    assert password_reset_allowed(email="alice@example.test")
    assert not password_reset_allowed(email="alice@example.test")


def test_the_address_is_kept_only_as_a_digest(cast):
    password_reset_allowed(email="alice@example.test")
    key = PasswordResetThrottle(email="alice@example.test").get_cache_key(None, None)  # type: ignore[arg-type]
    assert "alice" not in key and throttle_cache.get(key)


def test_with_the_cache_down_the_reset_email_still_goes_and_is_counted_in_memory(
    cast, django_capture_on_commit_callbacks, settings, monkeypatch
):
    from django.core.cache import cache

    def down(*args: object, **kwargs: object) -> None:
        raise ConnectionError("the cache is down")

    monkeypatch.setattr(cache, "get", down)
    monkeypatch.setattr(cache, "set", down)
    monkeypatch.setattr(throttle_cache, "memory", LocMemCache("test-reset-outage", {}))
    monkeypatch.setattr(throttle_cache, "paused_until", 0.0)
    with django_capture_on_commit_callbacks(execute=True):
        pages = [ask_reset("alice@example.test") for _ in range(5)]
    assert set(pages) == {(302, reverse("clients:password_reset_sent"))}
    assert len(mail.outbox) == settings.PASSWORD_RESETS_PER_HOUR
