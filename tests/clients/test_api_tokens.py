"""API tokens: a sign-in like the web's (same lockout, same second factor),
stored hashed, expiring, listed and revoked by their owner only."""

import datetime as dt

import pytest
from django.test import Client as HttpClient
from django.urls import reverse
from django.utils import timezone
from knox.models import AuthToken

from clients import lockout
from tests.factories import PASSWORD
from tests.helpers import current_code, sign_in, staff_recovery_code, turn_on_two_step

TOKEN_URL = "/api/v1/auth/token/"
TOKENS_URL = "/api/v1/auth/tokens/"


def ask_token(body: dict[str, object], http: HttpClient | None = None):
    return (http or HttpClient()).post(TOKEN_URL, body, content_type="application/json")


def token_for(email: str, **extra: object) -> str:
    response = ask_token({"email": email, "password": PASSWORD, **extra})
    assert response.status_code == 201, response.content
    return str(response.json()["token"])


def with_token(token: str) -> HttpClient:
    return HttpClient(headers={"Authorization": f"Token {token}"})


def test_a_client_gets_a_token_that_works_and_is_stored_only_as_a_hash(cast):
    token = token_for("Alice@example.test")  # the address as typed on a phone
    listed = with_token(token).get(TOKENS_URL)
    assert listed.status_code == 200
    [only] = listed.json()
    assert only["current"] is True and only["id"] == token[:15]
    stored = AuthToken.objects.get()
    assert stored.user == cast.alice.portal_user and token not in stored.digest
    assert stored.expiry is not None and stored.expiry > timezone.now() + dt.timedelta(hours=9)


def test_staff_always_give_their_second_factor(cast):
    refused = ask_token({"email": "tara@example.test", "password": PASSWORD})
    assert refused.status_code == 400 and not AuthToken.objects.exists()
    assert token_for("tara@example.test", code=staff_recovery_code(cast.tara))


def test_a_client_with_two_step_on_gives_the_code(cast):
    device = turn_on_two_step(cast.alice.portal_user)
    assert ask_token({"email": "alice@example.test", "password": PASSWORD}).status_code == 400
    wrong = ask_token({"email": "alice@example.test", "password": PASSWORD, "code": "000000"})
    assert wrong.status_code == 400 and not AuthToken.objects.exists()
    # The code that turned two-step on is spent, and a wrong one slows the next: start afresh.
    device.throttle_reset(commit=False)
    device.last_t = -1
    device.save()
    assert token_for("alice@example.test", code=current_code(device))


def test_wrong_token_passwords_lock_the_web_sign_in_too_and_a_lock_answers_as_a_wrong_one(cast):
    for attempt in range(lockout.ACCOUNT_FAILURES):
        ask_token({"email": "alice@example.test", "password": f"guess {attempt}"})
    locked = ask_token({"email": "alice@example.test", "password": PASSWORD})
    wrong = ask_token({"email": "bob@example.test", "password": "not bobs"})
    unknown = ask_token({"email": "nobody@example.test", "password": "anything"})
    assert locked.status_code == wrong.status_code == unknown.status_code == 400
    assert locked.json() == wrong.json() == unknown.json()
    assert sign_in(HttpClient(), "alice@example.test").status_code == 200  # the web's refusal
    assert not AuthToken.objects.exists()


def test_web_guesses_lock_the_token_sign_in(cast):
    for attempt in range(lockout.ACCOUNT_FAILURES):
        sign_in(HttpClient(), "alice@example.test", f"guess {attempt}")
    assert ask_token({"email": "alice@example.test", "password": PASSWORD}).status_code == 400


@pytest.mark.parametrize(
    "body",
    [
        {"email": "alice@example.test", "password": PASSWORD, "cod": "123456"},
        {"email": ["alice@example.test"], "password": PASSWORD},
        {"email": "alice@example.test"},
        ["alice@example.test", PASSWORD],
    ],
    ids=["unknown field", "wrong type", "missing field", "not an object"],
)
def test_a_malformed_token_request_is_refused_and_makes_no_token(cast, body):
    response = ask_token(body)
    assert response.status_code == 400 and not AuthToken.objects.exists()


def test_an_expired_or_revoked_token_is_refused(cast):
    expired, revoked = token_for("alice@example.test"), token_for("alice@example.test")
    AuthToken.objects.filter(token_key=expired[:15]).update(
        expiry=timezone.now() - dt.timedelta(seconds=1)
    )
    assert with_token(revoked).delete(f"{TOKENS_URL}{revoked[:15]}/").status_code == 204
    assert with_token(expired).get(TOKENS_URL).status_code == 401
    assert with_token(revoked).get(TOKENS_URL).status_code == 401


def test_another_persons_token_is_not_found_and_keeps_working(cast):
    alices = token_for("alice@example.test")
    bobs = token_for("bob@example.test")
    assert with_token(bobs).get(TOKENS_URL).json()[0]["id"] == bobs[:15]  # only his own
    assert with_token(bobs).delete(f"{TOKENS_URL}{alices[:15]}/").status_code == 404
    assert with_token(alices).get(TOKENS_URL).status_code == 200


def test_a_session_still_signs_in_to_the_api(cast):
    from tests.conftest import login

    response = login(cast.alice.portal_user).get(reverse("api:auth-tokens"))
    assert response.status_code == 200 and response.json() == []


def test_signing_out_everywhere_or_a_new_password_ends_every_token(cast):
    from django.test import RequestFactory

    from clients.services import user_log_out_everywhere
    from clients.services.accounts import user_change_password

    user = cast.alice.portal_user
    first = token_for("alice@example.test")
    user_log_out_everywhere(user=user)
    assert with_token(first).get(TOKENS_URL).status_code == 401
    second = token_for("alice@example.test")
    user_change_password(
        request=RequestFactory().post("/account/password/"),
        user=user,
        old_password=PASSWORD,
        new_password="another-long-password-2026",
    )
    assert with_token(second).get(TOKENS_URL).status_code == 401


def test_a_token_asked_for_while_password_checks_are_busy_is_a_429_in_the_shape(
    cast, monkeypatch: pytest.MonkeyPatch
):
    from clients.api import tokens
    from practice.busy import PasswordChecksBusy

    def busy(*args: object, **kwargs: object) -> None:
        raise PasswordChecksBusy

    monkeypatch.setattr(tokens, "authenticate", busy)
    response = ask_token({"email": "alice@example.test", "password": PASSWORD})
    assert response.status_code == 429 and response["Content-Type"] == "application/json"
    assert response.json()["code"] == "busy" and set(response.json()) == {
        "code",
        "detail",
        "errors",
    }
    assert int(response["Retry-After"]) > 0 and not AuthToken.objects.exists()
