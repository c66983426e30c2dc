"""A shared network cannot be locked out by one person: a browser where an
account signed in before carries a device cookie (OWASP's pattern) that
exempts that account's sign-in there from the per-address limit, never
from the per-account one."""

from django.core import signing
from django.test import Client as HttpClient
from django.urls import reverse

from clients import lockout, services
from tests.factories import ClientFactory
from tests.helpers import accept_and_finish, admin_sign_in, sign_in, token_of, turn_on_two_step

SHELTER = "203.0.113.40"  # one address for everyone on the shelter's wifi


def from_shelter() -> HttpClient:
    return HttpClient(REMOTE_ADDR=SHELTER)


def remembered_browser(email: str) -> HttpClient:
    """A browser at the shelter where ``email`` signed in before (and then signed out)."""
    first = from_shelter()
    assert sign_in(first, email).status_code == 302
    cookie = first.cookies[lockout.DEVICE_COOKIE].value
    browser = from_shelter()
    browser.cookies[lockout.DEVICE_COOKIE] = cookie
    return browser


def someone_guesses_across_accounts(times: int = 60) -> None:
    guesser = from_shelter()
    for number in range(times):
        sign_in(guesser, f"someone{number}@example.test", "guess")


def test_sixty_guesses_across_accounts_do_not_lock_out_a_remembered_browser(cast):
    browser = remembered_browser("alice@example.test")
    someone_guesses_across_accounts()
    assert sign_in(browser, "alice@example.test").status_code == 302
    assert "_auth_user_id" in browser.session
    # Without the cookie, refused as before: the address is paused.
    fresh = from_shelter()
    refused = sign_in(fresh, "alice@example.test")
    assert refused.status_code == 200 and "_auth_user_id" not in fresh.session
    assert "pauses for 15 minutes" in refused.text


def test_the_cookie_exempts_only_the_account_that_signed_in_there(cast):
    browser = remembered_browser("alice@example.test")
    someone_guesses_across_accounts()
    assert sign_in(browser, "bob@example.test").status_code == 200


def test_the_per_account_limit_still_holds_with_the_cookie(cast):
    browser = remembered_browser("alice@example.test")
    for attempt in range(lockout.ACCOUNT_FAILURES):
        sign_in(browser, "alice@example.test", f"guess {attempt}")
    assert sign_in(browser, "alice@example.test").status_code == 200
    assert "_auth_user_id" not in browser.session


def test_a_made_up_altered_or_old_cookie_counts_for_nothing(cast, monkeypatch):
    browser = remembered_browser("alice@example.test")
    real = browser.cookies[lockout.DEVICE_COOKIE].value
    someone_guesses_across_accounts()
    for fake in (real[:-2] + "xx", signing.dumps(["0" * 32], salt="another")):
        browser.cookies[lockout.DEVICE_COOKIE] = fake
        assert sign_in(browser, "alice@example.test").status_code == 200
    browser.cookies[lockout.DEVICE_COOKIE] = real
    monkeypatch.setattr(lockout, "DEVICE_COOKIE_MAX_AGE", -1)  # every cookie is too old now
    assert sign_in(browser, "alice@example.test").status_code == 200


def test_the_cookie_does_not_name_the_account_to_whoever_reads_it(cast):
    browser = HttpClient()
    sign_in(browser, "alice@example.test")
    cookie = browser.cookies[lockout.DEVICE_COOKIE]
    assert "alice" not in cookie.value and "alice" not in signing.b64_decode(
        cookie.value.split(":")[0].encode()
    ).decode(errors="replace")
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["max-age"]


def test_a_password_alone_does_not_earn_the_cookie(cast):
    turn_on_two_step(cast.alice.portal_user)
    browser = HttpClient()
    assert sign_in(browser, "alice@example.test")["Location"] == reverse("clients:login_code")
    assert lockout.DEVICE_COOKIE not in browser.cookies


def test_staff_signing_into_the_admin_are_remembered_too(cast):
    browser = from_shelter()
    admin_sign_in(browser, cast.tara)
    assert browser.get("/admin/").status_code == 200
    cookie = browser.cookies[lockout.DEVICE_COOKIE].value
    someone_guesses_across_accounts()
    again = from_shelter()
    again.cookies[lockout.DEVICE_COOKIE] = cookie
    admin_sign_in(again, cast.tara)
    assert again.get("/admin/").status_code == 200


def test_signing_out_ends_the_session_cookies_and_keeps_the_device_cookie(cast):
    browser = HttpClient()
    sign_in(browser, "alice@example.test")
    browser.get(reverse("homework:dashboard"))  # a page with a form: the security token is set
    response = browser.post(reverse("clients:logout"))
    assert '"cache"' in response["Clear-Site-Data"] and '"storage"' in response["Clear-Site-Data"]
    assert '"cookies"' not in response["Clear-Site-Data"]
    for ended in ("sessionid", "csrftoken"):
        assert response.cookies[ended]["max-age"] == 0, ended
    assert lockout.DEVICE_COOKIE not in response.cookies
    assert lockout.DEVICE_COOKIE in browser.cookies


def test_the_first_sign_in_from_an_invitation_remembers_the_browser(
    cast, django_capture_on_commit_callbacks
):
    newcomer = ClientFactory.create(
        therapist=cast.tara, portal_user=None, contact_email="casey@example.test"
    )
    issued = services.client_invite(actor=cast.tara, client=newcomer)
    browser = from_shelter()
    done = accept_and_finish(browser, token_of(issued), django_capture_on_commit_callbacks)
    assert done["Location"] == reverse("homework:dashboard")
    someone_guesses_across_accounts()
    browser.post(reverse("clients:logout"))
    assert sign_in(browser, "casey@example.test", "quiet harbour 42").status_code == 302
