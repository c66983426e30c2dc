"""The manager's Staff page: closing and reopening accounts, handing a
therapist's clients over, resetting a second factor; and any staff member's
new recovery codes. morgan manages; tara has alice, theo has bob."""

import pytest
from django.contrib.admin.models import LogEntry
from django.test import Client as HttpClient
from django.urls import reverse
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from clients.models import Client
from tests.conftest import login
from tests.factories import PASSWORD, ClientFactory, ManagerFactory, TherapistFactory
from tests.helpers import current_code, staff_authenticator, staff_recovery_code

STAFF = "/admin/staff/"


def close(http: HttpClient, user_id: int):
    return http.post(f"/admin/staff/{user_id}/close/")


def state(*users) -> list[tuple[bool, str]]:
    """What a refusal must leave as it was: each account's being open, and its sessions."""
    return [
        (u.is_active, u.session_salt)
        for u in type(users[0]).objects.filter(pk__in=[u.pk for u in users]).order_by("pk")
    ]


# -- the Staff page


def test_the_staff_page_lists_staff_with_role_clients_and_authenticator(cast):
    staff_authenticator(cast.tara)
    http = login(cast.morgan)
    page = http.get(STAFF)
    assert page.status_code == 200
    rows = {member.email: member for member in page.context["staff"]}
    assert set(rows) == {"tara@example.test", "theo@example.test", "morgan@example.test"}
    assert rows["tara@example.test"].active_clients == 1
    assert rows["tara@example.test"].has_authenticator
    assert not rows["theo@example.test"].has_authenticator
    assert "alice@example.test" not in page.text  # a client's sign-in address is theirs
    # The manager finds it from the admin's home; a therapist does not.
    assert reverse("admin:staff") in http.get("/admin/").text
    assert reverse("admin:staff") not in login(cast.tara).get("/admin/").text


def test_the_staff_page_holds_its_queries_as_staff_grow(cast, django_assert_num_queries):
    http = login(cast.morgan)
    http.get(STAFF)  # warm the session and settings
    with django_assert_num_queries(5) as first:
        http.get(STAFF)
    for _ in range(10):
        ClientFactory.create(therapist=TherapistFactory.create())
    with django_assert_num_queries(len(first.captured_queries)):
        http.get(STAFF)


# -- closing an account


def test_closing_an_account_signs_them_out_everywhere_and_keeps_their_records(cast):
    cast.bob.status = Client.Status.ARCHIVED
    cast.bob.save()
    theo_browser = login(cast.theo)
    assert theo_browser.get("/admin/").status_code == 200
    answer = close(login(cast.morgan), cast.theo.pk)
    assert answer.status_code == 302
    cast.theo.refresh_from_db()
    assert not cast.theo.is_active
    assert theo_browser.get("/admin/").status_code == 302  # signed out on every device
    assert Client.objects.get(pk=cast.bob.pk).therapist == cast.theo  # nothing moved or deleted
    assert LogEntry.objects.filter(object_id=str(cast.theo.pk), user=cast.morgan).exists()
    # And opened again.
    assert login(cast.morgan).post(f"/admin/staff/{cast.theo.pk}/reopen/").status_code == 302
    cast.theo.refresh_from_db()
    assert cast.theo.is_active


def test_a_therapist_with_active_clients_is_not_closed_and_is_offered_the_hand_over(cast):
    before = state(cast.tara)
    answer = close(login(cast.morgan), cast.tara.pk)
    assert answer.status_code == 400
    assert "still has 1 active client" in answer.text
    assert reverse("admin:clients_hand_over", args=[cast.tara.pk]) in answer.text
    assert state(cast.tara) == before


@pytest.mark.parametrize(
    ("another_manager", "told"),
    [(False, "only active manager"), (True, "cannot close your own account")],
)
def test_a_manager_does_not_close_their_own_account(cast, another_manager, told):
    """Refused either way: the practice's last manager, or oneself beside another."""
    if another_manager:
        ManagerFactory.create()
    before = state(cast.morgan)
    answer = close(login(cast.morgan), cast.morgan.pk)
    assert answer.status_code == 400
    assert told in answer.text
    assert state(cast.morgan) == before


def test_another_manager_can_be_closed(cast):
    other = ManagerFactory.create()
    assert close(login(cast.morgan), other.pk).status_code == 302
    other.refresh_from_db()
    assert not other.is_active


@pytest.mark.parametrize("user_id", ["0", "99999999", "-1"])
def test_no_such_staff_member_is_a_404(cast, user_id):
    assert login(cast.morgan).post(f"/admin/staff/{user_id}/close/").status_code == 404


def test_a_clients_account_is_not_staff_to_close(cast):
    portal_user = cast.alice.portal_user
    assert close(login(cast.morgan), portal_user.pk).status_code == 404
    portal_user.refresh_from_db()
    assert portal_user.is_active


@pytest.mark.parametrize("who", ["tara", "theo"])
def test_a_therapist_closes_nobody(cast, who):
    before = state(cast.tara, cast.theo, cast.morgan)
    for target in (cast.theo, cast.morgan, cast.tara):
        assert close(login(getattr(cast, who)), target.pk).status_code == 403
    assert state(cast.tara, cast.theo, cast.morgan) == before


# -- handing clients over


def test_the_hand_over_moves_that_therapists_active_clients_and_only_those(cast):
    second = ClientFactory.create(therapist=cast.tara)
    archived = ClientFactory.create(therapist=cast.tara, status=Client.Status.ARCHIVED)
    http = login(cast.morgan)
    answer = http.post(f"/admin/staff/{cast.tara.pk}/hand-over/", {"to_therapist": cast.theo.pk})
    assert answer.status_code == 302
    moved = set(Client.objects.filter(therapist=cast.theo).values_list("pk", flat=True))
    assert moved == {cast.alice.pk, second.pk, cast.bob.pk}
    assert Client.objects.get(pk=archived.pk).therapist == cast.tara
    assert LogEntry.objects.filter(object_id=str(cast.alice.pk), user=cast.morgan).exists()
    # Now tara can be closed.
    assert close(http, cast.tara.pk).status_code == 302


@pytest.mark.parametrize(
    "to",
    [
        lambda cast: cast.tara.pk,  # herself
        lambda cast: cast.morgan.pk,  # not a therapist
        lambda cast: cast.alice.portal_user.pk,  # a client
        lambda cast: 99999999,
        lambda cast: "",
        lambda cast: "x" * 5000,
    ],
)
def test_a_hand_over_to_no_open_therapist_is_refused_and_moves_nobody(cast, to):
    answer = login(cast.morgan).post(
        f"/admin/staff/{cast.tara.pk}/hand-over/", {"to_therapist": to(cast)}
    )
    assert answer.status_code == 400
    assert answer.context["form"].errors["to_therapist"]
    assert Client.objects.get(pk=cast.alice.pk).therapist == cast.tara


def test_a_hand_over_to_a_closed_therapist_is_refused(cast):
    closed = TherapistFactory.create(is_active=False)
    answer = login(cast.morgan).post(
        f"/admin/staff/{cast.tara.pk}/hand-over/", {"to_therapist": closed.pk}
    )
    assert answer.status_code == 400
    assert Client.objects.get(pk=cast.alice.pk).therapist == cast.tara


def test_a_therapist_hands_over_nobody(cast):
    answer = login(cast.tara).post(
        f"/admin/staff/{cast.tara.pk}/hand-over/", {"to_therapist": cast.theo.pk}
    )
    assert answer.status_code == 403
    assert Client.objects.get(pk=cast.alice.pk).therapist == cast.tara


# -- resetting a second factor


def test_a_reset_second_factor_is_set_up_again_at_next_sign_in(cast):
    staff_recovery_code(cast.tara)
    tara_browser = login(cast.tara)
    answer = login(cast.morgan).post(f"/admin/staff/{cast.tara.pk}/reset-second-factor/")
    assert answer.status_code == 302
    assert not TOTPDevice.objects.filter(user=cast.tara).exists()
    assert not StaticDevice.objects.filter(user=cast.tara).exists()
    assert tara_browser.get("/admin/").status_code == 302  # signed out everywhere
    step = HttpClient().post(
        reverse("admin:login"), {"username": cast.tara.email, "password": PASSWORD}
    )
    assert step["Location"] == reverse("admin:login_enrol")
    assert LogEntry.objects.filter(object_id=str(cast.tara.pk), user=cast.morgan).exists()


def test_a_manager_does_not_reset_their_own_second_factor(cast):
    device = staff_authenticator(cast.morgan)
    answer = login(cast.morgan).post(f"/admin/staff/{cast.morgan.pk}/reset-second-factor/")
    assert answer.status_code == 400
    assert "cannot reset your own second factor" in answer.text
    assert TOTPDevice.objects.filter(pk=device.pk).exists()


def test_a_therapist_resets_nobodys_second_factor(cast):
    device = staff_authenticator(cast.theo)
    answer = login(cast.tara).post(f"/admin/staff/{cast.theo.pk}/reset-second-factor/")
    assert answer.status_code == 403
    assert TOTPDevice.objects.filter(pk=device.pk).exists()


# -- new recovery codes


def test_new_recovery_codes_replace_the_old_ones(cast):
    old = staff_recovery_code(cast.tara)
    device = staff_authenticator(cast.tara)
    http = login(cast.tara)
    answer = http.post(reverse("admin:staff_recovery_codes"), {"code": current_code(device)})
    assert answer.status_code == 200
    codes = answer.context["codes"]
    assert len(codes) == 10
    tokens = set(StaticDevice.objects.get(user=cast.tara).token_set.values_list("token", flat=True))
    assert tokens == set(codes) and old not in tokens
    # Shown once: the page again asks for a code.
    assert "codes" not in http.get(reverse("admin:staff_recovery_codes")).context


@pytest.mark.parametrize("code", ["", "000000", "x" * 40, "recovery"])
def test_new_recovery_codes_need_the_apps_current_code(cast, code):
    old = staff_recovery_code(cast.tara)
    answer = login(cast.tara).post(reverse("admin:staff_recovery_codes"), {"code": code})
    assert answer.status_code == 400
    assert answer.context["form"].errors["code"]
    assert StaticDevice.objects.get(user=cast.tara).token_set.filter(token=old).exists()


def test_a_recovery_code_does_not_make_new_recovery_codes(cast):
    old = staff_recovery_code(cast.tara)
    answer = login(cast.tara).post(reverse("admin:staff_recovery_codes"), {"code": old})
    assert answer.status_code == 400
    assert StaticDevice.objects.get(user=cast.tara).token_set.filter(token=old).exists()
