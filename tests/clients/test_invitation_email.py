"""The invitation email: sent once the invitation is saved, retried by the
sweep while the mail server is away, given up (and the therapist told) when
it cannot be delivered."""

from smtplib import SMTPRecipientsRefused, SMTPServerDisconnected

import pytest
from django.core import mail
from django.test import Client as HttpClient
from django.urls import reverse

from clients import selectors, services, tasks
from clients.models import Invitation
from practice import delivery
from tests.conftest import login
from tests.factories import ClientFactory
from tests.helpers import invite_then_fail


def token_of(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[1]


@pytest.fixture
def mail_server_down(monkeypatch):
    def down(self, *args, **kwargs):
        raise SMTPServerDisconnected("the mail server went away")

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", down)
    return monkeypatch


@pytest.fixture
def address_refused(monkeypatch):
    def refused(self, *args, **kwargs):
        raise SMTPRecipientsRefused({"casey@example.test": (550, b"5.1.1 No such user")})

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", refused)
    return monkeypatch


def test_the_invitation_is_emailed_only_once_it_is_saved(
    cast, newcomer, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        issued = services.client_invite(actor=cast.tara, client=newcomer, send_email=True)
        assert mail.outbox == []  # not while the invitation can still be undone
    [message] = mail.outbox
    assert issued.url in message.body  # the link the therapist sees is the one emailed
    assert (
        HttpClient().get(reverse("clients:welcome", args=[token_of(issued.url)])).status_code == 302
    )
    issued.invitation.refresh_from_db()
    assert issued.invitation.emailed_at is not None


def test_an_invitation_undone_by_its_transaction_is_never_emailed(
    cast, newcomer, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        invite_then_fail(cast, newcomer)
    assert mail.outbox == []
    assert not Invitation.objects.filter(client=newcomer).exists()


def test_a_mail_outage_leaves_the_invitation_for_the_sweep_which_sends_the_same_link(
    cast, newcomer, mail_server_down, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        issued = services.client_invite(actor=cast.tara, client=newcomer, send_email=True)
    assert mail.outbox == []
    assert selectors.invitations_awaiting_email() == [issued.invitation.pk]
    mail_server_down.undo()
    assert tasks.email_pending_invitations() == 1
    [message] = mail.outbox
    assert issued.url in message.body
    assert selectors.invitations_awaiting_email() == []
    assert tasks.email_pending_invitations() == 0  # emailed once


def test_a_refused_address_is_given_up_at_once_and_the_therapist_sees_it(
    cast, newcomer, address_refused, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        issued = services.client_invite(actor=cast.tara, client=newcomer, send_email=True)
    invitation = Invitation.objects.get(pk=issued.invitation.pk)
    assert invitation.email_given_up_at is not None and invitation.email_attempts == 1
    assert selectors.invitations_awaiting_email() == []
    http = login(cast.tara)
    page = http.get(reverse("admin:clients_client_invite", args=[newcomer.pk]))
    assert "could not be delivered" in page.text
    assert "Make the link" in page.text  # the way to send again
    client_page = http.get(reverse("admin:clients_client_change", args=[newcomer.pk]))
    assert "could not be delivered" in client_page.text


def test_a_failing_invitation_email_stops_after_the_bounded_tries(
    cast, newcomer, mail_server_down, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        issued = services.client_invite(actor=cast.tara, client=newcomer, send_email=True)
    Invitation.objects.filter(pk=issued.invitation.pk).update(
        email_attempts=delivery.GIVE_UP_AFTER_ATTEMPTS - 1
    )
    tasks.email_pending_invitations()
    invitation = Invitation.objects.get(pk=issued.invitation.pk)
    assert invitation.email_attempts == delivery.GIVE_UP_AFTER_ATTEMPTS
    assert invitation.email_given_up_at is not None
    assert tasks.email_pending_invitations() == 0


def test_old_failing_invitations_cannot_keep_a_new_one_waiting(cast, mail_server_down):
    """Fewer-tried first: a sweep's limit is filled by the new before the old."""
    old = [
        ClientFactory.create(
            therapist=cast.tara, portal_user=None, contact_email=f"o{i}@example.test"
        )
        for i in range(3)
    ]
    for client in old:
        issued = services.client_invite(actor=cast.tara, client=client, send_email=True)
        Invitation.objects.filter(pk=issued.invitation.pk).update(email_attempts=5)
    new = ClientFactory.create(
        therapist=cast.tara, portal_user=None, contact_email="n@example.test"
    )
    fresh = services.client_invite(actor=cast.tara, client=new, send_email=True)
    assert selectors.invitations_awaiting_email(limit=1) == [fresh.invitation.pk]


def test_a_link_replaced_before_its_email_went_is_not_emailed(cast, newcomer, mail_server_down):
    first = services.client_invite(actor=cast.tara, client=newcomer, send_email=True)
    services.client_invite(actor=cast.tara, client=newcomer)  # a new link, copied by hand
    mail_server_down.undo()
    assert services.invitation_send_email(invitation_id=first.invitation.pk) is False
    assert mail.outbox == []
    assert selectors.invitations_awaiting_email() == []


@pytest.mark.django_db(transaction=True)  # the page is made after the invitation commits
def test_the_invite_page_says_when_the_email_is_still_waiting(cast, newcomer, mail_server_down):
    http = login(cast.tara)
    url = reverse("admin:clients_client_invite", args=[newcomer.pk])
    made = http.post(url, {"send_email": "1"}, follow=True)
    assert "could not be sent just now" in made.text
    assert "tried again" in made.text
    assert "not been delivered yet" in http.get(url).text
