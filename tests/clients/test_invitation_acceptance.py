"""Accepting an invitation says nothing about which addresses have
accounts here: every address chosen gets "check your email", and the
email finishes the account (a free address) or tells its owner (a taken one)."""

import datetime as dt
import re
from typing import Any

import pytest
from django.contrib.auth import hashers
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.test import Client as HttpClient
from django.urls import reverse
from django.utils import timezone

from clients import services
from clients.models import Client, Invitation
from clients.services import invitation_acceptance
from clients.tasks import send_invitation_finish_email
from practice.models import User
from practice.selectors import practice_settings
from tests.conftest import login
from tests.factories import ClientFactory
from tests.helpers import accept, finish_link, sign_in, token_of

CLINICAL_WORDS = ("therap", "homework", "abuse", "exercise", "session", "clinic", "counsel")
PASSWORD = "quiet harbour 42"


@pytest.fixture
def newcomer(cast) -> Client:
    return ClientFactory.create(
        therapist=cast.tara, display_name="Casey", portal_user=None, contact_email=""
    )


@pytest.fixture
def token(cast, newcomer) -> str:
    return token_of(services.client_invite(actor=cast.tara, client=newcomer))


def without_form_token(text: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)


def choose(token: str, email: str, capture, http: HttpClient | None = None):
    """The welcome form sent with ``email``; returns the answer and the page it leads to."""
    http = http or HttpClient()
    with capture(execute=True):
        answer = accept(http, token, email=email)
    return answer, http.get(answer["Location"]) if answer.status_code == 302 else None


def finish(link: str, http: HttpClient | None = None):
    http = http or HttpClient()
    opened = http.get(link)
    if opened.status_code != 302:
        return opened
    return http.post(reverse("clients:welcome_finish_confirm"))


def test_a_free_and_a_taken_address_get_the_same_answer_and_one_email_each(
    cast, newcomer, django_capture_on_commit_callbacks, monkeypatch
):
    hashes: list[str] = []
    real_hash = hashers.make_password

    def counted_hash(raw: str) -> str:
        hashes.append(raw)
        return real_hash(raw)

    monkeypatch.setattr(invitation_acceptance, "make_password", counted_hash)
    answers: list[Any] = []
    for email in ("casey@example.test", "alice@example.test"):
        token = token_of(services.client_invite(actor=cast.tara, client=newcomer))
        with django_capture_on_commit_callbacks() as queued:
            posted = accept(HttpClient(), token, email=email)
        assert len(queued) == 1  # one email queued, whatever the address
        for callback in queued:
            callback()
        answers.append((posted.status_code, posted["Location"]))
        answers.append(without_form_token(HttpClient().get(posted["Location"]).text))
        Invitation.objects.update(created_at=timezone.now() - dt.timedelta(minutes=5))
    assert answers[0] == answers[2] == (302, reverse("clients:welcome_sent"))
    assert answers[1] == answers[3] and "Check your email" in answers[1]
    assert hashes == [PASSWORD, PASSWORD]

    free, taken = mail.outbox
    assert free.to == ["casey@example.test"] and taken.to == ["alice@example.test"]
    assert "/welcome/finish/" in free.body and "/welcome/finish/" not in taken.body
    assert "already has one, so nothing was changed" in taken.body
    assert (
        reverse("clients:login") in taken.body and reverse("clients:password_reset") in taken.body
    )
    practice = practice_settings()
    for message in (free, taken):
        assert isinstance(message, EmailMultiAlternatives)
        assert message.subject == practice.reminder_subject
        assert message.from_email.startswith(f"{practice.reminder_sender_name} <")
        words = f"{message.subject} {message.body} {message.alternatives[0][0]!s}".lower()
        for word in (*CLINICAL_WORDS, "casey", "alice", cast.tara.name.lower()):
            assert word not in words.replace("casey@", "").replace("alice@", ""), word
    # Nothing about the taken address changed: Alice signs in as before.
    assert sign_in(HttpClient(), "alice@example.test").status_code == 302


def test_the_emailed_link_makes_the_account_with_the_password_chosen(
    cast, newcomer, token, django_capture_on_commit_callbacks
):
    choose(token, "casey@example.test", django_capture_on_commit_callbacks)
    newcomer.refresh_from_db()
    assert newcomer.portal_user is None  # not before the address is shown to be theirs
    invitation = Invitation.objects.get()
    assert invitation.chosen_password and PASSWORD not in invitation.chosen_password

    http = HttpClient()
    opened = http.get(finish_link(mail.outbox[-1]))
    # The token leaves the address bar, and opening the link makes nothing (mail scanners open links).
    assert opened["Location"] == reverse("clients:welcome_finish_confirm")
    confirm = http.get(opened["Location"])
    assert confirm.status_code == 200 and "Open my notebook" in confirm.text
    assert not User.objects.filter(email="casey@example.test").exists()

    done = http.post(reverse("clients:welcome_finish_confirm"))
    assert done.status_code == 302 and done["Location"] == reverse("homework:dashboard")
    assert http.get(reverse("homework:dashboard")).status_code == 200
    newcomer.refresh_from_db()
    assert newcomer.portal_user is not None
    assert newcomer.portal_user.email == "casey@example.test"
    assert newcomer.portal_user.check_password(PASSWORD)
    invitation.refresh_from_db()
    assert invitation.used_at is not None and invitation.chosen_password == ""
    assert sign_in(HttpClient(), "casey@example.test", PASSWORD).status_code == 302


def test_the_finishing_link_opened_again_says_it_was_used(
    cast, newcomer, token, django_capture_on_commit_callbacks
):
    choose(token, "casey@example.test", django_capture_on_commit_callbacks)
    link = finish_link(mail.outbox[-1])
    assert finish(link).status_code == 302
    again = HttpClient().get(link)
    assert again.status_code == 410 and "already been used" in again.text
    # The confirm page sent a second time (a double click, a tab kept open) makes nothing more.
    http = HttpClient()
    session = http.session
    session["invitation-finish"] = link.rstrip("/").rsplit("/", 1)[1]
    session.save()
    assert http.post(reverse("clients:welcome_finish_confirm")).status_code == 410
    assert User.objects.filter(email="casey@example.test").count() == 1


@pytest.mark.parametrize("how", ["replaced", "archived", "expired"])
def test_the_finishing_link_stops_when_the_invitation_does(
    cast, newcomer, token, django_capture_on_commit_callbacks, monkeypatch, how
):
    choose(token, "casey@example.test", django_capture_on_commit_callbacks)
    link = finish_link(mail.outbox[-1])
    http = HttpClient()
    assert http.get(link).status_code == 302  # opened before the change: refused on pressing too
    if how == "replaced":
        later = timezone.now() + dt.timedelta(minutes=1)
        monkeypatch.setattr(timezone, "now", lambda: later)
        services.client_invite(actor=cast.tara, client=newcomer)
    elif how == "archived":
        services.client_archive(actor=cast.tara, client=newcomer)
    else:
        Invitation.objects.update(expires_at=timezone.now() - dt.timedelta(minutes=1))
    pressed = http.post(reverse("clients:welcome_finish_confirm"))
    assert pressed.status_code == 410
    assert HttpClient().get(link).status_code == 410
    assert not User.objects.filter(email="casey@example.test").exists()


def test_a_later_choice_replaces_the_earlier_link(
    cast, newcomer, token, django_capture_on_commit_callbacks
):
    choose(token, "casey.old@example.test", django_capture_on_commit_callbacks)
    first = finish_link(mail.outbox[-1])
    Invitation.objects.update(chosen_at=timezone.now() - dt.timedelta(minutes=5))
    choose(token, "casey@example.test", django_capture_on_commit_callbacks)
    assert finish(first).status_code == 404
    assert finish(finish_link(mail.outbox[-1])).status_code == 302
    newcomer.refresh_from_db()
    assert newcomer.portal_user.email == "casey@example.test"


def test_the_form_sent_twice_sends_one_email(
    cast, newcomer, token, django_capture_on_commit_callbacks
):
    http = HttpClient()
    choose(token, "casey@example.test", django_capture_on_commit_callbacks, http)
    with django_capture_on_commit_callbacks(execute=True):
        second = http.post(
            reverse("clients:welcome_password"),
            {"email": "casey@example.test", "password1": PASSWORD, "password2": PASSWORD},
        )
    assert second.status_code == 302 and second["Location"] == reverse("clients:welcome_sent")
    again, _page = choose(token, "Casey@example.test", django_capture_on_commit_callbacks)
    assert again["Location"] == reverse("clients:welcome_sent")
    assert len(mail.outbox) == 1 and Invitation.objects.get().accept_tries == 1


def test_a_link_cannot_mail_address_after_address(
    cast, newcomer, token, django_capture_on_commit_callbacks
):
    """Every address chosen counts, taken or not (so the count says nothing
    either): after a few, the invitation stops; the last email's link still finishes."""
    for number in range(services.INVITATION_ACCEPT_TRIES):
        Invitation.objects.update(chosen_at=timezone.now() - dt.timedelta(minutes=5))
        email = "alice@example.test" if number % 2 else f"casey{number}@example.test"
        answer, _page = choose(token, email, django_capture_on_commit_callbacks)
        assert answer["Location"] == reverse("clients:welcome_sent")
    stopped = HttpClient().get(reverse("clients:welcome", args=[token]))
    assert stopped.status_code == 410 and "stopped working" in stopped.text
    assert len(mail.outbox) == services.INVITATION_ACCEPT_TRIES
    assert finish(finish_link(mail.outbox[-1])).status_code == 302


def test_an_address_given_an_account_meanwhile_is_not_given_another(
    cast, newcomer, token, django_capture_on_commit_callbacks
):
    choose(token, "casey@example.test", django_capture_on_commit_callbacks)
    link = finish_link(mail.outbox[-1])
    ClientFactory.create(therapist=cast.theo, portal_user__email="casey@example.test")
    refused = finish(link)
    assert refused.status_code == 410 and "given a sign-in here since" in refused.text
    newcomer.refresh_from_db()
    assert newcomer.portal_user is None


def test_an_address_typed_another_way_is_its_owners(
    cast, newcomer, token, django_capture_on_commit_callbacks
):
    """Alice's address with its domain in full-width letters (a phone's
    Japanese or Chinese keyboard): the note goes to Alice, no account is made."""
    http = HttpClient(raise_request_exception=False)
    answer, _page = choose(
        token, "Alice@ｅｘａｍｐｌｅ.test", django_capture_on_commit_callbacks, http
    )
    assert answer["Location"] == reverse("clients:welcome_sent")
    [note] = mail.outbox
    assert note.to == ["alice@example.test"] and "/welcome/finish/" not in note.body
    newcomer.refresh_from_db()
    assert newcomer.portal_user is None


def test_an_email_for_a_replaced_choice_is_not_sent(cast, newcomer, token, monkeypatch):
    """A queued email that waited while another address was chosen sends nothing:
    only the latest choice is emailed."""
    services.invitation_accept(token=token, email="first@example.test", password=PASSWORD)
    Invitation.objects.update(chosen_at=timezone.now() - dt.timedelta(minutes=5))
    services.invitation_accept(token=token, email="second@example.test", password=PASSWORD)
    assert send_invitation_finish_email.delay(Invitation.objects.get().pk, 1).get() is False
    assert send_invitation_finish_email.delay(Invitation.objects.get().pk, 2).get() is True
    assert [message.to for message in mail.outbox] == [["second@example.test"]]


@pytest.mark.parametrize("path", ["/welcome/finish/made-up/", "/welcome/finish/"])
def test_an_unknown_finishing_link_gets_a_kind_message(db, path):
    response = HttpClient().get(path)
    assert response.status_code == 404 and "could not find this link" in response.text


def test_the_finish_page_refuses_a_post_without_its_form_token(
    cast, newcomer, token, django_capture_on_commit_callbacks
):
    choose(token, "casey@example.test", django_capture_on_commit_callbacks)
    http = HttpClient(enforce_csrf_checks=True)
    http.get(finish_link(mail.outbox[-1]))
    assert http.post(reverse("clients:welcome_finish_confirm")).status_code == 403
    assert not User.objects.filter(email="casey@example.test").exists()


@pytest.mark.parametrize("path", ["/welcome/made-up/", "/welcome/finish/made-up/"])
def test_a_made_up_link_opened_from_another_site_signs_no_one_out(cast, path):
    """Any page elsewhere can make a browser open it (an image's address)."""
    http = login(cast.alice.portal_user)
    assert http.get(path).status_code == 404
    assert http.session.get("_auth_user_id") == str(cast.alice.portal_user_id)
