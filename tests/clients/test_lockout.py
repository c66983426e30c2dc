"""No password guessing: every password check counts, per account on one
address and per address, and a locked account answers as a wrong one does."""

import re

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import hashers
from django.test import Client as HttpClient
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice

from clients import lockout
from tests.conftest import login
from tests.factories import PASSWORD
from tests.helpers import sign_in, turn_on_two_step

ELSEWHERE = "203.0.113.9"  # a guesser's address; the test client's own is 127.0.0.1


def from_address(address: str) -> HttpClient:
    return HttpClient(REMOTE_ADDR=address)


def guess(http: HttpClient, email: str, times: int) -> None:
    for attempt in range(times):
        sign_in(http, email, f"guess {attempt}")


def answer(response) -> tuple[int, str]:
    """What a person sees: the status and the page, without its security token and the address typed."""
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.text)
    return response.status_code, re.sub(r'value="[^"]*@example\.test"', 'value="X"', text)


def test_thirty_wrong_passwords_then_the_right_one_is_refused(cast):
    http = HttpClient()
    guess(http, "alice@example.test", 30)
    right = sign_in(http, "alice@example.test")
    assert right.status_code == 200 and "_auth_user_id" not in http.session
    assert "pauses for 15 minutes" in right.text and reverse("clients:password_reset") in right.text


def test_the_right_password_still_works_before_the_limit_and_clears_the_count(cast):
    http = HttpClient()
    guess(http, "alice@example.test", lockout.ACCOUNT_FAILURES - 1)
    assert sign_in(http, "alice@example.test").status_code == 302
    assert not AccessAttempt.objects.filter(username="alice@example.test").exists()


def test_the_admin_sign_in_locks_too(cast):
    http = HttpClient()
    for attempt in range(lockout.ACCOUNT_FAILURES):
        http.post(
            reverse("admin:login"), {"username": "tara@example.test", "password": f"no {attempt}"}
        )
    right = http.post(
        reverse("admin:login"), {"username": "tara@example.test", "password": PASSWORD}
    )
    assert right.status_code == 200 and "_auth_user_id" not in http.session


def test_another_addresss_guesses_do_not_lock_the_owner_out_on_their_device(cast):
    guess(from_address(ELSEWHERE), "alice@example.test", 30)
    assert sign_in(from_address(ELSEWHERE), "alice@example.test").status_code == 200
    assert sign_in(HttpClient(), "alice@example.test").status_code == 302


def test_one_address_guessing_across_accounts_is_stopped_at_a_higher_limit(cast):
    guesser = from_address(ELSEWHERE)
    for number in range(lockout.ADDRESS_FAILURES - 1):
        sign_in(guesser, f"someone{number}@example.test", "guess")
    assert sign_in(from_address(ELSEWHERE), "bob@example.test").status_code == 302
    sign_in(guesser, "someone-else@example.test", "guess")
    assert sign_in(from_address(ELSEWHERE), "alice@example.test").status_code == 200
    assert sign_in(HttpClient(), "alice@example.test").status_code == 302


def test_signing_into_ones_own_account_does_not_clear_the_guesses_at_another(cast):
    """Axes' own reset on success clears the address's counters for every
    account: a guesser with an account could sign in between guesses."""
    guesser = from_address(ELSEWHERE)
    guess(guesser, "alice@example.test", lockout.ACCOUNT_FAILURES - 1)
    assert sign_in(from_address(ELSEWHERE), "bob@example.test").status_code == 302
    guess(guesser, "alice@example.test", 1)
    assert sign_in(from_address(ELSEWHERE), "alice@example.test").status_code == 200


def test_locked_wrong_and_unknown_accounts_get_the_same_answer(cast):
    guess(HttpClient(), "alice@example.test", lockout.ACCOUNT_FAILURES)
    locked = sign_in(HttpClient(), "alice@example.test")  # the right password, locked
    wrong = sign_in(HttpClient(), "bob@example.test", "not bobs")
    unknown = sign_in(HttpClient(), "nobody@example.test", "anything")
    assert answer(locked) == answer(wrong) == answer(unknown)


def test_a_locked_sign_in_still_spends_one_password_hash(cast, monkeypatch):
    """Equal cost, so that a lock cannot be told by how fast the answer comes:
    Django hashes once for an unknown account, and checks once for a known one."""
    guess(HttpClient(), "alice@example.test", lockout.ACCOUNT_FAILURES)
    spent: list[str] = []
    real = hashers.make_password

    def counted(raw: str) -> str:
        spent.append(raw)
        return real(raw)

    monkeypatch.setattr(lockout, "make_password", counted)
    sign_in(HttpClient(), "alice@example.test", "one more")
    assert spent == ["one more"]


def change_password(http: HttpClient, old: str):
    new = "a quiet river morning"
    return http.post(
        reverse("clients:change_password"),
        {"old_password": old, "new_password1": new, "new_password2": new},
    )


def test_the_current_password_check_on_a_password_change_locks_too(cast):
    user = cast.alice.portal_user
    http = login(user)
    for attempt in range(lockout.ACCOUNT_FAILURES):
        wrong = change_password(http, f"guess {attempt}")
    right = change_password(http, PASSWORD)
    assert right.status_code == wrong.status_code == 400
    assert "pauses for 15 minutes" in right.text
    user.refresh_from_db()
    assert user.check_password(PASSWORD)
    # The same count as signing in: the account is locked on this address there too.
    assert sign_in(HttpClient(), "alice@example.test").status_code == 200
    stored = "".join(AccessAttempt.objects.values_list("post_data", flat=True))
    assert "guess" not in stored and "quiet river" not in stored  # no password is kept


def test_turning_two_step_off_locks_after_wrong_passwords(cast):
    user = cast.alice.portal_user
    turn_on_two_step(user)
    http = login(user)
    for attempt in range(lockout.ACCOUNT_FAILURES):
        http.post(reverse("clients:two_step_remove"), {"password": f"guess {attempt}"})
    right = http.post(reverse("clients:two_step_remove"), {"password": PASSWORD})
    assert right.status_code == 400 and "pauses for 15 minutes" in right.text
    assert TOTPDevice.objects.filter(user=user).exists()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_lock_holds_in_postgresql_across_connections(cast):
    """Counted in the database, so every web process sees it: here a fresh
    connection for each try, as separate processes would have."""
    from django.db import connection

    for attempt in range(lockout.ACCOUNT_FAILURES):
        connection.close()
        sign_in(HttpClient(), "alice@example.test", f"guess {attempt}")
    connection.close()
    assert sign_in(HttpClient(), "alice@example.test").status_code == 200
    assert sign_in(from_address(ELSEWHERE), "alice@example.test").status_code == 302


def test_behind_a_proxy_each_client_is_counted_by_the_address_the_proxy_saw(cast, settings):
    settings.PROXIES_IN_FRONT = 1

    def through_proxy(claimed: str) -> HttpClient:
        return HttpClient(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=claimed)

    # The guesser's own X-Forwarded-For entry is ignored: the proxy's is used.
    guess(through_proxy(f"198.51.100.7, {ELSEWHERE}"), "alice@example.test", 30)
    assert sign_in(through_proxy(ELSEWHERE), "alice@example.test").status_code == 200
    assert sign_in(through_proxy("192.0.2.44"), "alice@example.test").status_code == 302


def test_a_forwarded_address_that_is_not_one_counts_as_the_connections_own(cast, settings):
    settings.PROXIES_IN_FRONT = 1
    refused = HttpClient(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="not an address")
    assert sign_in(refused, "alice@example.test", "guess").status_code == 200
    assert AccessAttempt.objects.get().ip_address == "10.0.0.1"
