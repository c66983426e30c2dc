"""Staff sign in with two factors: the admin's password, then a code from the
authenticator app or a single-use recovery code; set up on the first sign-in.

tara (therapist) and morgan (manager) from the cast; the password alone
never opens the admin, the API, or anything else.
"""

import re
import time

import pytest
import time_machine
from django.core import mail
from django.test import Client as HttpClient
from django.urls import reverse
from django.utils import timezone
from django_otp.oath import TOTP
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from clients.middleware import STAFF_LAST_SEEN
from clients.views.staff_two_step import PENDING_MAX_SECONDS, PENDING_STAFF_SIGN_IN
from practice.models import PracticeSettings
from tests.conftest import login, save_change_form
from tests.factories import PASSWORD
from tests.helpers import (
    CHANGE,
    current_code,
    request_reset,
    settings_form,
    sign_in,
    staff_authenticator,
    staff_recovery_code,
)

ADMIN = "/admin/"
SUMMARY_API = "/api/v1/clients/{}/summary.pdf"


def password_step(http: HttpClient, email: str, password: str = PASSWORD, **extra: str):
    return http.post(reverse("admin:login"), {"username": email, "password": password, **extra})


def code_step(http: HttpClient, code: str):
    return http.post(reverse("admin:login_code"), {"code": code})


def assert_code_refused(http: HttpClient, code: str, says: str) -> None:
    """The code step refuses ``code``, saying why, and the admin stays shut."""
    refused = code_step(http, code)
    assert refused.status_code == 400
    assert says in refused.text
    assert http.get(ADMIN).status_code == 302


def code_at(device: TOTPDevice, seconds_ago: float) -> str:
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = time.time() - seconds_ago
    return str(totp.token()).zfill(device.digits)


def enrol_page_device(http: HttpClient) -> tuple[str, TOTPDevice]:
    page = http.get(reverse("admin:login_enrol"))
    assert page.status_code == 200
    device = TOTPDevice.objects.get(pk=page.context["device"].pk)
    return page.text, device


@pytest.fixture
def frozen():
    """One moment, not ticking: a TOTP step lasts for the whole test."""
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        yield traveller


# -- first sign-in: setting up the app


def test_staff_with_no_app_are_sent_to_set_one_up_and_the_admin_stays_shut(cast):
    http = HttpClient()
    answer = password_step(http, cast.tara.email)
    assert answer.status_code == 302
    assert answer["Location"] == reverse("admin:login_enrol")
    text, device = enrol_page_device(http)
    assert "<svg" in text and 'aria-label="A code to scan' in text
    assert not device.confirmed
    # The password alone signed nobody in.
    assert "_auth_user_id" not in http.session
    assert http.get(ADMIN).status_code == 302
    assert http.get(SUMMARY_API.format(cast.alice.pk)).status_code == 401  # not signed in


def test_enrolment_with_the_apps_code_shows_recovery_codes_once_and_opens_the_admin(cast):
    http = HttpClient()
    password_step(http, cast.tara.email)
    _text, device = enrol_page_device(http)
    done = http.post(
        reverse("admin:login_enrol"), {"code": current_code(device), "device": str(device.pk)}
    )
    assert done.status_code == 200
    codes = done.context["codes"]
    assert len(codes) == 10 and len(set(codes)) == 10
    for code in codes:
        assert code in done.text
    assert sorted(
        StaticToken.objects.filter(device__user=cast.tara).values_list("token", flat=True)
    ) == sorted(codes)
    device.refresh_from_db()
    assert device.confirmed
    assert http.get(ADMIN).status_code == 200
    # Never shown again: the enrolment page now leads to the code step.
    assert http.get(reverse("admin:login_enrol")).status_code == 302


def test_a_wrong_first_code_changes_nothing(cast):
    http = HttpClient()
    password_step(http, cast.tara.email)
    _text, device = enrol_page_device(http)
    wrong = f"{(int(current_code(device)) + 1) % 1_000_000:06d}"
    refused = http.post(reverse("admin:login_enrol"), {"code": wrong, "device": str(device.pk)})
    assert refused.status_code == 400
    assert "That code did not match" in refused.text
    device.refresh_from_db()
    assert not device.confirmed
    assert not StaticDevice.objects.filter(user=cast.tara).exists()
    assert http.get(ADMIN).status_code == 302


def test_an_app_already_set_up_is_never_replaced_on_the_password_alone(cast):
    device = staff_authenticator(cast.tara)
    http = HttpClient()
    assert password_step(http, cast.tara.email)["Location"] == reverse("admin:login_code")
    assert http.get(reverse("admin:login_enrol"))["Location"] == reverse("admin:login_code")
    assert list(TOTPDevice.objects.filter(user=cast.tara)) == [device]


# -- the second step


def test_the_apps_code_signs_in_and_the_admin_opens(cast, frozen):
    device = staff_authenticator(cast.tara)
    http = HttpClient()
    password_step(http, cast.tara.email, next="/admin/clients/client/")
    answer = code_step(http, current_code(device))
    assert answer.status_code == 302
    assert answer["Location"] == "/admin/clients/client/"
    assert http.get(ADMIN).status_code == 200


def test_a_next_address_on_another_site_is_not_followed(cast):
    http = HttpClient()
    password_step(http, cast.tara.email, next="https://elsewhere.example/")
    assert code_step(http, staff_recovery_code(cast.tara))["Location"] == reverse("admin:index")


def test_a_wrong_code_is_refused_with_a_clear_message(cast, frozen):
    device = staff_authenticator(cast.tara)
    http = HttpClient()
    password_step(http, cast.tara.email)
    wrong = f"{(int(current_code(device)) + 1) % 1_000_000:06d}"
    assert_code_refused(http, wrong, "That code did not work")


def test_a_code_already_used_to_sign_in_is_refused(cast, frozen):
    """django-otp's last_t: the same step's code works once, even from another device."""
    device = staff_authenticator(cast.tara)
    code = current_code(device)
    first = HttpClient()
    password_step(first, cast.tara.email)
    assert code_step(first, code).status_code == 302
    device.refresh_from_db()
    last_t = device.last_t
    replay = HttpClient()
    password_step(replay, cast.tara.email)
    assert_code_refused(replay, code, "was already used")
    device.refresh_from_db()
    assert device.last_t == last_t


def test_an_expired_code_is_refused(cast):
    device = staff_authenticator(cast.tara)
    http = HttpClient()
    password_step(http, cast.tara.email)
    assert_code_refused(http, code_at(device, seconds_ago=5 * device.step), "too old")


def test_many_wrong_codes_in_a_row_are_slowed_down(cast, frozen):
    device = staff_authenticator(cast.tara)
    http = HttpClient()
    password_step(http, cast.tara.email)
    wrong = f"{(int(current_code(device)) + 1) % 1_000_000:06d}"
    code_step(http, wrong)
    code_step(http, wrong)
    # The right code, but too soon after two wrong ones.
    assert_code_refused(http, current_code(device), "Too many wrong codes")


def test_a_recovery_code_signs_in_once(cast):
    code = staff_recovery_code(cast.tara)
    other = staff_recovery_code(cast.tara)
    http = HttpClient()
    password_step(http, cast.tara.email)
    assert code_step(http, code.upper()).status_code == 302
    assert http.get(ADMIN).status_code == 200
    again = HttpClient()
    password_step(again, cast.tara.email)
    assert_code_refused(again, code, "already used (each works once)")
    assert list(
        StaticToken.objects.filter(device__user=cast.tara).values_list("token", flat=True)
    ) == [other]


def test_a_password_step_left_too_long_starts_again(cast, frozen):
    http = HttpClient()
    password_step(http, cast.tara.email)
    frozen.shift(PENDING_MAX_SECONDS + 1)
    answer = code_step(http, staff_recovery_code(cast.tara))
    assert answer["Location"] == f"{reverse('admin:login')}?ended=expired"
    assert PENDING_STAFF_SIGN_IN not in http.session
    assert "Sign-in took too long" in http.get(answer["Location"]).text
    assert http.get(ADMIN).status_code == 302


def test_the_code_step_without_a_password_first_goes_back_to_the_password(cast):
    http = HttpClient()
    answer = code_step(http, staff_recovery_code(cast.tara))
    assert answer["Location"].startswith(reverse("admin:login"))
    assert http.get(ADMIN).status_code == 302


# -- a password alone reaches nothing


def test_a_staff_session_without_a_second_factor_is_refused_everywhere(cast):
    http = HttpClient()
    http.force_login(cast.tara)  # signed in, never verified
    assert http.get(ADMIN)["Location"].startswith(reverse("admin:login"))
    assert http.get(SUMMARY_API.format(cast.alice.pk)).status_code == 401  # not signed in
    assert "_auth_user_id" not in http.session


def test_staff_signing_in_on_the_portals_form_get_no_further(cast):
    http = HttpClient()
    sign_in(http, cast.tara.email)
    assert http.get(SUMMARY_API.format(cast.alice.pk)).status_code == 401  # not signed in
    assert http.get(ADMIN).status_code == 302


def test_a_password_reset_never_skips_the_second_step(cast, django_capture_on_commit_callbacks):
    staff_authenticator(cast.tara)
    request_reset(cast.tara.email, django_capture_on_commit_callbacks)
    link = re.search(r"http://\S+/password/reset/\S+/", str(mail.outbox[0].body))
    assert link is not None
    http = HttpClient()
    form_page = http.get(link.group(0).split("127.0.0.1:8000", 1)[-1], follow=True)
    done = http.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "a calm new morning", "new_password2": "a calm new morning"},
    )
    assert done.status_code == 302
    assert http.get(ADMIN).status_code == 302
    answer = password_step(http, cast.tara.email, "a calm new morning")
    assert answer["Location"] == reverse("admin:login_code")
    assert http.get(ADMIN).status_code == 302
    assert code_step(http, staff_recovery_code(cast.tara)).status_code == 302
    assert http.get(ADMIN).status_code == 200


# -- idle timeout and signing out everywhere


def test_staff_are_signed_out_after_the_practices_idle_timeout(cast, frozen):
    PracticeSettings.objects.filter(pk=1).update(staff_idle_timeout_minutes=20)
    http = login(cast.tara)
    frozen.shift(19 * 60)
    assert http.get(ADMIN).status_code == 200
    frozen.shift(19 * 60)  # the last request counted: still within 20 minutes of it
    assert http.get(ADMIN).status_code == 200
    frozen.shift(21 * 60)
    ended = http.get(ADMIN)
    assert ended["Location"] == f"{reverse('admin:login')}?ended=idle"
    assert "_auth_user_id" not in http.session
    assert "signed out after a while" in http.get(ended["Location"]).text


def test_sign_out_on_every_device_ends_each_staff_session(cast):
    here, elsewhere = login(cast.tara), login(cast.tara)
    assert 'action="/admin/sign-out-everywhere/"' in here.get(ADMIN).text
    answer = here.post(reverse("admin:sign_out_everywhere"))
    assert answer["Location"] == f"{reverse('admin:login')}?ended=everywhere"
    assert here.get(ADMIN).status_code == 302
    assert elsewhere.get(ADMIN).status_code == 302
    assert "signed out on every device" in HttpClient().get(answer["Location"]).text


def test_the_manager_sets_the_staff_idle_timeout_within_its_range(cast):
    http = login(cast.morgan)
    refused = save_change_form(
        http, reverse(CHANGE, args=[1]), settings_form(staff_idle_timeout_minutes="1")
    )
    assert refused.status_code == 200
    assert "Choose between 2 and 240 minutes." in refused.text
    assert PracticeSettings.objects.get(pk=1).staff_idle_timeout_minutes == 30
    saved = save_change_form(
        http, reverse(CHANGE, args=[1]), settings_form(staff_idle_timeout_minutes="45")
    )
    assert saved.status_code == 302
    assert PracticeSettings.objects.get(pk=1).staff_idle_timeout_minutes == 45


def test_a_staff_session_notes_when_it_was_last_seen(cast):
    http = HttpClient()
    password_step(http, cast.tara.email)
    code_step(http, staff_recovery_code(cast.tara))
    assert isinstance(http.session[STAFF_LAST_SEEN], float)
