"""A client with two-step sign-in can always get back in: recovery codes
shown once when it is turned on, each single use; a lost-phone page at the
second step; and their therapist's reset from the client page."""

import re

import pytest
from django.contrib.admin.models import LogEntry
from django.core.exceptions import PermissionDenied
from django.test import Client as HttpClient
from django.urls import reverse
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from clients import services
from clients.services.two_step import RECOVERY_CODES
from tests.conftest import login
from tests.factories import PASSWORD
from tests.helpers import current_code, sign_in, turn_on_two_step

LOST_PHONE = "/login/lost-phone/"


def turn_on_through_the_page(http: HttpClient, user) -> list[str]:
    http.post(reverse("clients:two_step_setup"), {"start": "1"})
    device = TOTPDevice.objects.get(user=user, confirmed=False)
    shown = http.post(
        reverse("clients:two_step_setup"), {"token": current_code(device), "device": device.pk}
    )
    assert shown.status_code == 200
    listed = shown.text.split('id="recovery-codes"', 1)[1].split("</ul>", 1)[0]
    return re.findall(r"<code>([a-z0-9]+)</code>", listed)


def with_codes(user) -> list[str]:
    device = services.totp_device_start(user=user)
    _on, codes = services.two_step_turn_on(
        user=user, token=current_code(device), device_id=device.pk
    )
    return codes


def password_step(email: str) -> HttpClient:
    http = HttpClient()
    assert sign_in(http, email)["Location"] == reverse("clients:login_code")
    return http


def test_turning_two_step_on_shows_recovery_codes_once(cast):
    user = cast.alice.portal_user
    http = login(user)
    codes = turn_on_through_the_page(http, user)
    assert len(set(codes)) == RECOVERY_CODES
    assert set(StaticToken.objects.filter(device__user=user).values_list("token", flat=True)) == (
        set(codes)
    )
    # Never again: the settings page counts them, and names none.
    settings_page = http.get(reverse("clients:account"))
    assert f"{RECOVERY_CODES} recovery codes left" in settings_page.text
    assert not any(code in settings_page.text for code in codes)
    again = http.get(reverse("clients:two_step_setup"), follow=True)
    assert not any(code in again.text for code in codes)


def test_the_second_step_offers_the_lost_phone_path(cast):
    turn_on_two_step(cast.alice.portal_user)
    page = password_step("alice@example.test").get(reverse("clients:login_code"))
    assert LOST_PHONE in page.text


def test_a_recovery_code_signs_in_once(cast):
    user = cast.alice.portal_user
    codes = with_codes(user)
    http = password_step("alice@example.test")
    lost = http.get(LOST_PHONE)
    assert lost.status_code == 200
    assert "therapist can turn off two-step sign-in" in lost.text
    # Typed as a person might: capitals, a space.
    signed_in = http.post(LOST_PHONE, {"code": f" {codes[0][:4].upper()} {codes[0][4:]}"})
    assert signed_in.status_code == 302 and signed_in["Location"] == reverse("homework:dashboard")
    dashboard = http.get(signed_in["Location"])
    assert dashboard.status_code == 200
    assert f"{RECOVERY_CODES - 1} are left" in dashboard.text
    assert not StaticToken.objects.filter(token=codes[0]).exists()
    # The same code again, from another browser: refused, and no one is signed in.
    replay = password_step("alice@example.test")
    refused = replay.post(LOST_PHONE, {"code": codes[0]})
    assert refused.status_code == 400 and "already used (each works once)" in refused.text
    assert "_auth_user_id" not in replay.session
    assert StaticToken.objects.filter(device__user=user).count() == RECOVERY_CODES - 1


def test_someone_elses_recovery_code_is_refused_and_stays_theirs(cast):
    with_codes(cast.alice.portal_user)
    bobs = with_codes(cast.bob.portal_user)
    http = password_step("alice@example.test")
    refused = http.post(LOST_PHONE, {"code": bobs[0]})
    assert refused.status_code == 400 and "did not work" in refused.text
    assert "_auth_user_id" not in http.session
    assert StaticToken.objects.filter(token=bobs[0], device__user=cast.bob.portal_user).exists()


def test_an_empty_or_overlong_code_gets_a_clear_message(cast):
    with_codes(cast.alice.portal_user)
    http = password_step("alice@example.test")
    empty = http.post(LOST_PHONE, {"code": ""})
    assert empty.status_code == 400 and "Type one of your recovery codes" in empty.text
    long = http.post(LOST_PHONE, {"code": "x" * 40})
    assert long.status_code == 400 and "8 letters and numbers" in long.text
    assert StaticToken.objects.filter(device__user=cast.alice.portal_user).count() == (
        RECOVERY_CODES
    )


def test_the_lost_phone_page_needs_the_right_password_first(cast):
    codes = with_codes(cast.alice.portal_user)
    http = HttpClient()
    assert http.get(LOST_PHONE)["Location"] == reverse("clients:login")
    sign_in(http, "alice@example.test", "not the password")
    tried = http.post(LOST_PHONE, {"code": codes[0]})
    assert tried["Location"] == reverse("clients:login")
    assert StaticToken.objects.filter(token=codes[0]).exists()


def test_turning_two_step_off_removes_the_recovery_codes_too(cast):
    user = cast.alice.portal_user
    with_codes(user)
    login(user).post(reverse("clients:two_step_remove"), {"password": PASSWORD})
    assert not StaticDevice.objects.filter(user=user).exists()


def test_setup_offers_a_tap_to_add_link_beside_the_picture(cast):
    started = login(cast.alice.portal_user).post(reverse("clients:two_step_setup"), {"start": "1"})
    link = re.search(r'class="tap-to-add"><a class="button" href="(otpauth://[^"]+)"', started.text)
    assert link, "no tap-to-add link"
    assert "alice" not in link[1] and "secret=" in link[1]


# -- the therapist's reset ------------------------------------------------------------


def reset_url(client) -> str:
    return reverse("admin:clients_client_two_step_off", args=[client.pk])


def test_the_client_page_offers_the_reset_when_two_step_is_on(cast):
    tara = login(cast.tara)
    page = reverse("admin:clients_client_change", args=[cast.alice.pk])
    assert reset_url(cast.alice) not in tara.get(page).text
    turn_on_two_step(cast.alice.portal_user)
    assert reset_url(cast.alice) in tara.get(page).text


def test_the_therapists_reset_lets_the_client_in_with_the_password_and_says_so_once(cast):
    user = cast.alice.portal_user
    with_codes(user)
    signed_in_before = login(user)
    tara = login(cast.tara)
    assert tara.get(reset_url(cast.alice)).status_code == 200
    done = tara.post(reset_url(cast.alice))
    assert done["Location"] == reverse("admin:clients_client_change", args=[cast.alice.pk])
    assert not TOTPDevice.objects.filter(user=user).exists()
    assert not StaticDevice.objects.filter(user=user).exists()
    logged = LogEntry.objects.get(object_id=str(cast.alice.pk), user=cast.tara)
    assert "Two-step sign-in turned off" in logged.change_message
    # A taken phone signed in is signed out.
    assert signed_in_before.get(reverse("homework:dashboard")).status_code == 302
    http = HttpClient()
    assert sign_in(http, "alice@example.test")["Location"] == reverse("homework:dashboard")
    assert "set it up again" in http.get(reverse("homework:dashboard")).text
    again = HttpClient()
    sign_in(again, "alice@example.test")
    assert "set it up again" not in again.get(reverse("homework:dashboard")).text


def test_another_therapists_client_cannot_be_reset(cast):
    user = cast.alice.portal_user
    device = turn_on_two_step(user)
    theo = login(cast.theo)
    refused = theo.post(reset_url(cast.alice), follow=True)
    assert "doesn’t exist" in refused.text
    assert TOTPDevice.objects.filter(pk=device.pk, confirmed=True).exists()
    assert not LogEntry.objects.filter(object_id=str(cast.alice.pk)).exists()


def test_the_service_refuses_another_therapists_client(cast):
    turn_on_two_step(cast.alice.portal_user)
    with pytest.raises(PermissionDenied):
        services.client_two_step_reset(actor=cast.theo, client_id=cast.alice.pk)
    assert TOTPDevice.objects.filter(user=cast.alice.portal_user).exists()


def test_a_reset_when_two_step_is_off_says_so_and_changes_nothing(cast):
    salt = cast.alice.portal_user.session_salt
    asked = login(cast.tara).get(reset_url(cast.alice))
    assert "nothing to turn off" in asked.text
    assert 'value="Turn off two-step sign-in"' not in asked.text
    refused = login(cast.tara).post(reset_url(cast.alice))
    assert refused.status_code == 400 and "nothing to turn off" in refused.text
    cast.alice.portal_user.refresh_from_db()
    assert cast.alice.portal_user.session_salt == salt
    assert cast.alice.portal_user.two_step_reset_at is None
    assert not LogEntry.objects.filter(object_id=str(cast.alice.pk)).exists()


def test_the_manager_may_reset_any_clients_two_step(cast):
    turn_on_two_step(cast.bob.portal_user)
    done = login(cast.morgan).post(reset_url(cast.bob))
    assert done.status_code == 302
    assert not TOTPDevice.objects.filter(user=cast.bob.portal_user).exists()


def test_a_new_list_of_codes_needs_the_apps_code_and_ends_the_old_one(cast):
    user = cast.alice.portal_user
    old = with_codes(user)
    device = TOTPDevice.objects.get(user=user)
    TOTPDevice.objects.filter(pk=device.pk).update(last_t=-1)  # its first code is spent
    http = login(user)
    url = reverse("clients:recovery_codes_new")
    for wrong in ({"codes-token": ""}, {"codes-token": old[0]}, {"codes-token": "000000"}):
        refused = http.post(url, wrong)
        assert refused.status_code == 400, wrong
        assert "Type the 6-digit code your app shows now" in refused.text, wrong
    assert set(StaticToken.objects.filter(device__user=user).values_list("token", flat=True)) == (
        set(old)
    )
    TOTPDevice.objects.filter(pk=device.pk).update(throttling_failure_count=0, last_t=-1)
    device.refresh_from_db()
    made = http.post(url, {"codes-token": current_code(device)})
    assert made.status_code == 200 and "Your new recovery codes" in made.text
    listed = made.text.split('id="recovery-codes"', 1)[1].split("</ul>", 1)[0]
    new = re.findall(r"<code>([a-z0-9]+)</code>", listed)
    assert len(new) == RECOVERY_CODES and not set(new) & set(old)
    assert set(StaticToken.objects.filter(device__user=user).values_list("token", flat=True)) == (
        set(new)
    )
