"""Inviting a client to the portal, and the client's first visit."""

import datetime as dt
import re

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import EmailMultiAlternatives
from django.test import Client as HttpClient
from django.urls import reverse
from django.utils import timezone

from clients import services
from clients.models import Invitation
from practice.models import User
from tests.conftest import login
from tests.factories import ClientFactory
from tests.helpers import accept, accept_and_finish, choose_password, token_of

CLINICAL_WORDS = ("therap", "homework", "abuse", "exercise", "session", "clinic", "counsel")


def invite(cast, client, **kwargs) -> services.IssuedInvitation:
    return services.client_invite(actor=cast.tara, client=client, **kwargs)


def a_while_later(monkeypatch) -> None:
    """Past the window in which the same invitation asked for again is the
    first request sent twice: asking again now means a new link."""
    later = timezone.now() + services.INVITATION_SENT_TWICE_WINDOW + dt.timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)


def test_therapist_invites_from_the_client_page_and_sees_the_link_once(cast, newcomer):
    http = login(cast.tara)
    page = http.get(reverse("admin:clients_client_change", args=[newcomer.pk]))
    invite_url = reverse("admin:clients_client_invite", args=[newcomer.pk])
    assert invite_url in page.text
    made = http.post(invite_url, follow=True)
    assert made.status_code == 200
    assert "no-store" in made["Cache-Control"]
    invitation = Invitation.objects.get(client=newcomer)
    link = re.search(r'value="(http[^"]+/welcome/[^"]+)"', made.text)
    assert link is not None
    token = link.group(1).rstrip("/").rsplit("/", 1)[1]
    assert token not in invitation.token_hash
    assert invitation.token_hash == services.invitation_token_hash(token)
    # Shown once: the page, opened again, cannot show it (only the hash is kept).
    assert token not in http.get(invite_url).text


def test_invitation_email_is_discreet(cast, newcomer, django_capture_on_commit_callbacks):
    from practice.selectors import practice_settings

    with django_capture_on_commit_callbacks(execute=True):
        issued = invite(cast, newcomer, send_email=True)
    [message] = mail.outbox
    practice = practice_settings()
    assert message.subject == practice.reminder_subject
    assert message.from_email.startswith(f"{practice.reminder_sender_name} <")
    assert message.to == ["casey@example.test"]
    assert issued.url in message.body
    assert isinstance(message, EmailMultiAlternatives)
    everything = f"{message.subject} {message.body} {message.alternatives[0][0]!s}".lower()
    for word in (*CLINICAL_WORDS, "casey", cast.tara.name.lower(), practice.name.lower()):
        assert word not in everything, word


def test_failed_email_still_gives_the_link(
    cast, newcomer, monkeypatch, django_capture_on_commit_callbacks
):
    def refuse(*args, **kwargs):
        raise OSError("mail server down")

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", refuse)
    with django_capture_on_commit_callbacks(execute=True):
        issued = invite(cast, newcomer, send_email=True)
    issued.invitation.refresh_from_db()
    assert issued.url and issued.invitation.email_state == "retrying"


def test_resending_invalidates_the_old_link(cast, newcomer, monkeypatch):
    first = invite(cast, newcomer)
    a_while_later(monkeypatch)
    second = invite(cast, newcomer)
    http = HttpClient()
    refused = http.get(reverse("clients:welcome", args=[token_of(first)]))
    assert refused.status_code == 410
    assert "only the newest one works" in refused.text
    assert http.get(reverse("clients:welcome", args=[token_of(second)])).status_code == 302


def test_a_new_link_that_cannot_be_made_leaves_the_old_one_working(cast, newcomer, monkeypatch):
    """Revoking the earlier link and making the new one are one change: if
    the new one fails, the client's link in their inbox still works."""
    first = invite(cast, newcomer)
    a_while_later(monkeypatch)

    def fail(**kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(Invitation.objects, "create", fail)
    with pytest.raises(RuntimeError):
        invite(cast, newcomer)
    assert HttpClient().get(reverse("clients:welcome", args=[token_of(first)])).status_code == 302


def test_another_therapist_cannot_invite_my_client(cast, newcomer):
    with pytest.raises(PermissionDenied):
        services.client_invite(actor=cast.theo, client=newcomer)
    response = login(cast.theo).post(reverse("admin:clients_client_invite", args=[newcomer.pk]))
    assert response.status_code == 302
    assert not Invitation.objects.exists()


def test_a_client_with_an_account_is_not_invited_again(cast):
    with pytest.raises(ValidationError, match="already has a portal account"):
        invite(cast, cast.alice)
    page = login(cast.tara).post(reverse("admin:clients_client_invite", args=[cast.alice.pk]))
    assert "already has a portal account" in page.text
    assert not Invitation.objects.exists()


def test_invitation_link_leads_to_a_password_then_the_email_to_the_dashboard(
    cast, newcomer, django_capture_on_commit_callbacks
):
    issued = invite(cast, newcomer)
    http = HttpClient()
    landing = http.get(reverse("clients:welcome", args=[token_of(issued)]))
    # The token leaves the address bar at once.
    assert landing.status_code == 302 and landing["Location"] == reverse("clients:welcome_password")
    form = http.get(landing["Location"])
    assert form.status_code == 200 and "casey@example.test" in form.text
    done = accept_and_finish(http, token_of(issued), django_capture_on_commit_callbacks)
    assert done.status_code == 302 and done["Location"] == reverse("homework:dashboard")
    newcomer.refresh_from_db()
    assert newcomer.portal_user is not None and newcomer.portal_user.is_client
    assert newcomer.portal_user.check_password("quiet harbour 42")
    assert Invitation.objects.get().used_at is not None
    assert http.get(reverse("homework:dashboard")).status_code == 200


def test_the_invitation_pages_are_never_cached(cast, newcomer):
    """They show the client's email before anyone has signed in."""
    http = HttpClient()
    opened = http.get(reverse("clients:welcome", args=[token_of(invite(cast, newcomer))]))
    form = http.get(reverse("clients:welcome_password"))
    assert newcomer.contact_email in form.text
    for response in (opened, form):
        assert "no-store" in response["Cache-Control"]


def test_reused_link_gets_a_kind_message(cast, newcomer, django_capture_on_commit_callbacks):
    issued = invite(cast, newcomer)
    accept_and_finish(HttpClient(), token_of(issued), django_capture_on_commit_callbacks)
    again = HttpClient().get(reverse("clients:welcome", args=[token_of(issued)]))
    assert again.status_code == 410
    assert "already been used" in again.text
    assert User.objects.filter(role="client", email="casey@example.test").count() == 1


def test_expired_link_gets_a_kind_message(cast, newcomer):
    issued = invite(cast, newcomer)
    Invitation.objects.update(expires_at=timezone.now() - dt.timedelta(minutes=1))
    response = HttpClient().get(reverse("clients:welcome", args=[token_of(issued)]))
    assert response.status_code == 410
    assert "new one whenever you like" in response.text


def test_link_that_expires_while_the_form_is_open_creates_nothing(cast, newcomer):
    issued = invite(cast, newcomer)
    http = HttpClient()
    http.get(reverse("clients:welcome", args=[token_of(issued)]))
    Invitation.objects.update(expires_at=timezone.now() - dt.timedelta(minutes=1))
    response = choose_password(http)
    assert response.status_code == 410
    assert not User.objects.filter(email="casey@example.test").exists()


def test_unknown_link_gets_a_kind_message(db):
    response = HttpClient().get(reverse("clients:welcome", args=["made-up"]))
    assert response.status_code == 404
    assert "could not find this link" in response.text


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ({"password2": "something else 42"}, "password2", "not the same"),
        ({"password1": "password", "password2": "password"}, "password1", "Many people use"),
        ({"password1": "short1", "password2": "short1"}, "password1", "shorter than 8"),
        ({"email": "not an email"}, "email", "whole email address"),
    ],
)
def test_bad_password_form_names_the_field_and_creates_nothing(
    cast, newcomer, form, field, message
):
    issued = invite(cast, newcomer)
    response = accept(HttpClient(), token_of(issued), **form)
    assert response.status_code == 400
    assert message in response.text
    assert f'id="id_{field}_error"' in response.text
    newcomer.refresh_from_db()
    assert newcomer.portal_user is None
    invitation = Invitation.objects.get()
    assert invitation.used_at is None and invitation.chosen_email == ""
    assert invitation.accept_tries == 0


def test_all_digit_passwords_are_allowed_when_long_enough(cast, newcomer):
    # No composition rules: length and the common-password list do the work.
    issued = invite(cast, newcomer)
    response = accept(
        HttpClient(), token_of(issued), password1="40917263518", password2="40917263518"
    )
    assert response.status_code == 302 and response["Location"] == reverse("clients:welcome_sent")


def test_invitation_form_without_csrf_is_refused(cast, newcomer):
    issued = invite(cast, newcomer)
    http = HttpClient(enforce_csrf_checks=True)
    response = accept(http, token_of(issued))
    assert response.status_code == 403
    newcomer.refresh_from_db()
    assert newcomer.portal_user is None


# 01:30 in London on 5 March is still the evening of 4 March in Los Angeles:
# the link made then stops working on the evening of 11 March there.
LATE_NIGHT_IN_LONDON = dt.datetime(2030, 3, 5, 1, 30, tzinfo=dt.UTC)


def test_the_invitation_email_names_the_last_day_on_the_clients_own_calendar(
    cast, newcomer, monkeypatch, django_capture_on_commit_callbacks
):
    newcomer.timezone = "America/Los_Angeles"
    newcomer.save()
    monkeypatch.setattr(timezone, "now", lambda: LATE_NIGHT_IN_LONDON)
    with django_capture_on_commit_callbacks(execute=True):
        invite(cast, newcomer, send_email=True)
    [message] = mail.outbox
    assert isinstance(message, EmailMultiAlternatives)
    assert "until 11 March" in message.body
    assert "until 11 March" in str(message.alternatives[0][0])


@pytest.mark.parametrize(
    ("moment", "works"),
    [
        # 23:30 on 11 March in Los Angeles: the last day named, still open.
        (dt.datetime(2030, 3, 12, 6, 30, tzinfo=dt.UTC), True),
        # 00:30 on 12 March there: the day after it.
        (dt.datetime(2030, 3, 12, 7, 30, tzinfo=dt.UTC), False),
    ],
)
def test_the_link_works_to_the_end_of_the_last_day_it_names(
    cast, newcomer, monkeypatch, moment, works
):
    """'Until 11 March' is read as all of 11 March: the link made at 18:30
    there stopped working at 18:30 on the day it named as its last."""
    newcomer.timezone = "America/Los_Angeles"
    newcomer.save()
    monkeypatch.setattr(timezone, "now", lambda: LATE_NIGHT_IN_LONDON)
    token = token_of(invite(cast, newcomer))
    monkeypatch.setattr(timezone, "now", lambda: moment)
    page = HttpClient().get(reverse("clients:welcome", args=[token]))
    assert page.status_code == (302 if works else 410)


def test_the_welcome_page_names_the_last_day_on_the_clients_own_calendar(cast, newcomer):
    newcomer.timezone = "America/Los_Angeles"
    newcomer.save()
    issued = invite(cast, newcomer)
    Invitation.objects.filter(pk=issued.invitation.pk).update(
        expires_at=dt.datetime(2030, 3, 12, 1, 30, tzinfo=dt.UTC)
    )
    http = HttpClient()
    page = http.get(http.get(issued.url)["Location"])
    assert "until 11 March" in page.text


def test_the_admin_names_the_same_last_day_as_the_client_is_told(cast, newcomer, monkeypatch):
    """The therapist passes the link on, often by word of mouth: the admin
    must name the day the client reads ("until 11 March"), not the practice's
    date of that moment (8 a.m. on 12 March in London), marked as theirs."""
    newcomer.timezone = "America/Los_Angeles"
    newcomer.save()
    monkeypatch.setattr(timezone, "now", lambda: LATE_NIGHT_IN_LONDON)
    http = login(cast.tara)
    invite_url = reverse("admin:clients_client_invite", args=[newcomer.pk])
    made = http.post(invite_url, follow=True).text
    assert "until 11 March 2030, 23:59 (their time)" in made
    assert "12 March" not in made
    again = http.get(invite_url).text
    assert "works until 11 March (their time)" in again


# -- the link is shown once, and a page reloaded makes nothing --------------------------


def link_on(page_text: str) -> str | None:
    found = re.search(r'value="(http[^"]+/welcome/[^"]+)"', page_text)
    return found.group(1) if found else None


def test_making_the_link_leads_to_a_page_that_shows_it_once(
    cast, newcomer, django_capture_on_commit_callbacks
):
    """Post, then redirect: reloading the page that shows the link must not
    post again (a second link, the copied one dead, a second email to an
    inbox someone else may read)."""
    http = login(cast.tara)
    invite_url = reverse("admin:clients_client_invite", args=[newcomer.pk])
    with django_capture_on_commit_callbacks(execute=True):
        made = http.post(invite_url, {"send_email": "1"})
    assert made.status_code == 302
    assert made["Location"] == invite_url  # the token is never in an address
    shown = http.get(invite_url)
    assert "no-store" in shown["Cache-Control"]
    link = link_on(shown.text)
    assert link is not None
    assert "It is shown only now" in shown.text
    assert f"It was also emailed to {newcomer.contact_email}" in shown.text
    [invitation] = Invitation.objects.filter(client=newcomer)
    assert invitation.token_hash == services.invitation_token_hash(
        link.rstrip("/").rsplit("/", 1)[1]
    )
    # Reloaded: the link is not shown again, the page says why and how to get
    # one, and nothing new was made or sent.
    again = http.get(invite_url)
    assert link_on(again.text) is None
    assert link.rsplit("/", 2)[1] not in again.text
    assert "was shown once, when it was made" in again.text
    assert "Make the link" in again.text
    assert Invitation.objects.filter(client=newcomer).count() == 1
    assert len(mail.outbox) == 1


def test_the_form_sent_twice_makes_one_link_and_one_email(
    cast, newcomer, django_capture_on_commit_callbacks
):
    """A double click or a form sent again after a slow reply is the first
    request twice: the link the therapist sees is the one the email carries."""
    http = login(cast.tara)
    invite_url = reverse("admin:clients_client_invite", args=[newcomer.pk])
    with django_capture_on_commit_callbacks(execute=True):
        http.post(invite_url, {"send_email": "1"})
        http.post(invite_url, {"send_email": "1"})
    assert Invitation.objects.filter(client=newcomer).count() == 1
    [message] = mail.outbox
    link = link_on(http.get(invite_url).text)
    assert link is not None and link in message.body


def test_a_new_link_asked_for_after_the_window_is_a_new_link(cast, newcomer, monkeypatch):
    first = invite(cast, newcomer, send_email=True)
    a_while_later(monkeypatch)
    second = invite(cast, newcomer, send_email=True)
    assert second.url != first.url
    assert Invitation.objects.filter(client=newcomer, revoked_at=None).get() == second.invitation


def test_a_link_then_the_same_link_emailed_is_a_new_request(cast, newcomer):
    """Copied first, then asked to be emailed too: not the same form sent twice."""
    first = invite(cast, newcomer)
    second = invite(cast, newcomer, send_email=True)
    assert second.url != first.url
    assert second.invitation.email_asked_at is not None


def test_the_link_is_not_shown_to_another_therapist_or_for_another_client(cast, newcomer):
    other = ClientFactory.create(therapist=cast.tara, portal_user=None, display_name="Dana")
    http = login(cast.tara)
    http.post(reverse("admin:clients_client_invite", args=[newcomer.pk]))
    assert link_on(http.get(reverse("admin:clients_client_invite", args=[other.pk])).text) is None
    # Still there for its own client's page, once.
    assert link_on(http.get(reverse("admin:clients_client_invite", args=[newcomer.pk])).text)


def test_the_client_page_shows_an_invitation_in_progress(
    cast, newcomer, django_capture_on_commit_callbacks
):
    page_url = reverse("admin:clients_client_change", args=[newcomer.pk])
    http = login(cast.tara)
    assert "Not set up yet: invite them to the portal" in http.get(page_url).text
    with django_capture_on_commit_callbacks(execute=True):
        issued = invite(cast, newcomer, send_email=True)
    made = issued.invitation.created_at.astimezone(timezone.get_current_timezone())
    page = http.get(page_url).text
    assert "Not set up yet: invite them" not in page
    assert f"Invited on {made.day} {made:%B}" in page
    assert "and emailed" in page
    assert "the link works until" in page
    assert reverse("admin:clients_client_invite", args=[newcomer.pk]) in page  # a new link


def test_the_client_page_says_when_the_link_was_not_emailed_or_has_run_out(cast, newcomer):
    issued = invite(cast, newcomer)
    http = login(cast.tara)
    page_url = reverse("admin:clients_client_change", args=[newcomer.pk])
    page = http.get(page_url).text
    assert "Invited on" in page and "not emailed" in page
    Invitation.objects.filter(pk=issued.invitation.pk).update(
        expires_at=timezone.now() - dt.timedelta(days=1)
    )
    assert "stopped working on" in http.get(page_url).text
