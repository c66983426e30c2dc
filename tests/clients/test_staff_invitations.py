"""Inviting a therapist or a manager: morgan (manager) makes a single-use link;
the new person chooses a password through it and sets up their
authenticator at their first sign-in. tara (therapist) may not invite."""

import datetime as dt
import re
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.test import Client as HttpClient
from django.urls import reverse
from django.utils import timezone

from clients.models import StaffInvitation
from practice.models import PracticeSettings, User
from tests.conftest import login

INVITE = "/admin/staff/invite/"
NEW_PASSWORD = "a quiet harbour at dawn 7"


def invite(http: HttpClient, **changes: str):
    data = {"name": "Nadia Hale", "email": "nadia@example.test", "role": "therapist", **changes}
    return http.post(INVITE, data)


def issued_link(http: HttpClient) -> str:
    page = http.get(INVITE)
    assert page.status_code == 200
    found = re.search(r'id="invite-link"[^>]*value="([^"]+)"', page.text)
    assert found, page.text
    return found.group(1).removeprefix("http://testserver")


def take_up(link: str, password: str = NEW_PASSWORD) -> tuple[HttpClient, Any]:
    http = HttpClient()
    opened = http.get(link)
    assert opened.status_code == 302
    return http, http.post(opened["Location"], {"password1": password, "password2": password})


def test_a_manager_invites_and_the_link_makes_a_staff_account_once(cast):
    manager = login(cast.morgan)
    assert invite(manager).status_code == 302
    link = issued_link(manager)
    # Shown once: the page again makes no new link and shows none.
    assert 'id="invite-link"' not in manager.get(INVITE).text

    http, answer = take_up(link)
    assert answer.status_code == 302 and answer["Location"] == reverse("admin:login")
    nadia = User.objects.get(email="nadia@example.test")
    assert (nadia.role, nadia.name, nadia.is_staff) == ("therapist", "Nadia Hale", True)
    assert nadia.check_password(NEW_PASSWORD)
    # The first sign-in leads to setting up the authenticator app (the existing flow).
    step = http.post(reverse("admin:login"), {"username": nadia.email, "password": NEW_PASSWORD})
    assert step["Location"] == reverse("admin:login_enrol")

    # Single use: the same link again is refused, and makes nothing.
    replay = HttpClient().get(link)
    assert replay.status_code == 410
    assert "already been used" in replay.text
    assert User.objects.filter(email="nadia@example.test").count() == 1


def test_an_expired_link_says_so_and_makes_no_account(cast):
    manager = login(cast.morgan)
    invite(manager)
    link = issued_link(manager)
    with time_machine.travel(timezone.now() + dt.timedelta(days=30)):
        answer = HttpClient().get(link)
    assert answer.status_code == 410
    assert "only work for a few days" in answer.text
    assert not User.objects.filter(email="nadia@example.test").exists()


def test_a_new_link_to_the_same_address_stops_the_earlier_one(cast):
    manager = login(cast.morgan)
    invite(manager)
    first = issued_link(manager)
    StaffInvitation.objects.update(created_at=timezone.now() - dt.timedelta(minutes=5))
    invite(manager, role="manager")
    second = issued_link(manager)
    assert first != second
    assert HttpClient().get(first).status_code == 410
    _http, answer = take_up(second)
    assert answer.status_code == 302
    assert User.objects.get(email="nadia@example.test").role == "manager"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"email": "ALICE@example.test"}, "email"),  # a client's sign-in address
        ({"email": "tara@example.test"}, "email"),  # a colleague's
        ({"email": "not an address"}, "email"),
        ({"name": ""}, "name"),
        ({"name": "x" * 500}, "name"),
        ({"role": "client"}, "role"),
        ({"role": ""}, "role"),
    ],
)
def test_bad_input_to_the_invitation_is_named_and_changes_nothing(cast, data, field):
    answer = invite(login(cast.morgan), **data)
    assert answer.status_code == 400
    assert answer.context["form"].errors[field]
    assert not StaffInvitation.objects.exists()


def test_a_taken_address_gets_the_same_calm_words_whoever_has_it(cast):
    manager = login(cast.morgan)
    client_address = invite(manager, email="alice@example.test").context["form"].errors["email"]
    colleague_address = invite(manager, email="tara@example.test").context["form"].errors["email"]
    assert client_address == colleague_address
    assert "cannot be used for a new account here" in client_address[0]


def test_an_address_taken_after_the_invitation_is_refused_at_the_link(cast):
    manager = login(cast.morgan)
    invite(manager)
    link = issued_link(manager)
    User.objects.create_user(email="nadia@example.test", password=NEW_PASSWORD)
    _http, answer = take_up(link)
    assert answer.status_code == 400
    assert "Ask your practice manager for a new link" in answer.text
    assert StaffInvitation.objects.get().used_at is None


def test_a_weak_password_is_refused_and_the_link_still_works(cast):
    manager = login(cast.morgan)
    invite(manager)
    link = issued_link(manager)
    _http, answer = take_up(link, password="123")
    assert answer.status_code == 400
    assert answer.context["form"].errors["password1"]
    assert not User.objects.filter(email="nadia@example.test").exists()
    _http, answer = take_up(link)
    assert answer.status_code == 302


def test_the_emailed_invitation_names_the_practice_who_asked_and_the_role_and_opens(
    cast, django_capture_on_commit_callbacks
):
    """Discretion is for clients' mail: a colleague's invitation naming nobody read as phishing."""
    PracticeSettings.objects.filter(pk=1).update(name="Riverside & Co")
    manager = login(cast.morgan)
    with django_capture_on_commit_callbacks(execute=True):
        invite(manager, send_email="on")
    assert StaffInvitation.objects.get().email_state == "sent"
    [message] = mail.outbox
    assert message.to == ["nadia@example.test"]
    assert message.subject == "Morgan invited you to Riverside & Co's practice companion"
    assert isinstance(message, EmailMultiAlternatives)
    html = str(message.alternatives[0][0])
    for body, practice in ((str(message.body), "Riverside & Co"), (html, "Riverside &amp; Co")):
        assert f"Morgan invited you to join {practice} as a therapist" in body
        assert "Hello Nadia Hale," in body
    link = re.search(r"https?://\S+/admin/welcome/\S+/", str(message.body))
    assert link
    _http, answer = take_up(link.group(0).removeprefix("http://testserver"))
    assert answer.status_code == 302


def test_a_therapist_cannot_invite_staff(cast):
    answer = invite(login(cast.tara))
    assert answer.status_code == 403
    assert not StaffInvitation.objects.exists()


def test_a_made_up_link_opened_from_another_site_signs_no_one_out(cast):
    """Any page elsewhere can make a browser open it (an image's address)."""
    http = login(cast.morgan)
    assert http.get("/admin/welcome/made-up/").status_code == 404
    assert http.session.get("_auth_user_id") == str(cast.morgan.pk)
