"""A staff member's forgotten password: asked for from the admin's sign-in page, answered the
same for any address, limited per address like the portal's, and the link opens the admin's page."""

import re

from django.core import mail
from django.test import Client as HttpClient
from django.urls import reverse

from practice.models import User
from tests.conftest import login

NEW_PASSWORD = "a calm new password 2027"


def ask(http: HttpClient, email: str):
    return http.post(reverse("admin:password_reset"), {"email": email})


def test_the_staff_sign_in_page_offers_forgot_password(db):
    page = HttpClient().get(reverse("admin:login"))
    assert f'href="{reverse("admin:password_reset")}"' in page.text
    assert "Forgot your password?" in page.text


def test_a_staff_reset_sends_a_neutral_email_whose_link_sets_a_new_password(
    cast, django_capture_on_commit_callbacks
):
    http = HttpClient()
    with django_capture_on_commit_callbacks(execute=True):
        asked = ask(http, "Tara@example.test")
    assert asked["Location"] == reverse("admin:password_reset_sent")
    [message] = mail.outbox
    assert message.to == [cast.tara.email]
    assert "therap" not in f"{message.subject} {message.body}".lower()
    link = re.search(r"https?://[^/\s]+(/admin/password/reset/\S+/\S+/)", str(message.body))
    assert link, message.body
    form_page = http.get(link.group(1), follow=True)
    assert form_page.context["validlink"]
    saved = http.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert saved["Location"] == reverse("admin:password_reset_complete")
    assert User.objects.get(pk=cast.tara.pk).check_password(NEW_PASSWORD)
    # Signing in still asks for the second step.
    signed_in = http.post(
        reverse("admin:login"), {"username": cast.tara.email, "password": NEW_PASSWORD}
    )
    assert signed_in["Location"].startswith("/admin/login/")


def test_an_unknown_address_gets_the_same_answer_and_no_email(
    cast, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        known = ask(HttpClient(), cast.tara.email)
        unknown = ask(HttpClient(), "nobody@example.test")
    assert (unknown.status_code, unknown["Location"]) == (known.status_code, known["Location"])
    assert [message.to for message in mail.outbox] == [[cast.tara.email]]


def test_staff_resets_are_limited_per_address(cast, django_capture_on_commit_callbacks, settings):
    with django_capture_on_commit_callbacks(execute=True):
        answers = {ask(HttpClient(), cast.tara.email)["Location"] for _ in range(5)}
    assert answers == {reverse("admin:password_reset_sent")}
    assert len(mail.outbox) == settings.PASSWORD_RESETS_PER_HOUR


def test_a_bad_address_is_refused_at_its_field_and_sends_nothing(cast):
    refused = ask(HttpClient(), "not an address")
    assert refused.status_code == 200
    assert refused.context["form"].errors["email"]
    assert not mail.outbox


def test_a_made_up_link_says_it_no_longer_works(cast):
    page = HttpClient().get(
        reverse("admin:password_reset_confirm", args=["MQ", "set-password"]), follow=True
    )
    assert not page.context["validlink"]
    assert "This link no longer works" in page.text


def test_a_clients_reset_link_still_opens_the_portal(cast, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        ask(login(cast.tara), cast.alice.portal_user.email)
    [message] = mail.outbox
    assert "/password/reset/" in message.body and "/admin/" not in message.body
