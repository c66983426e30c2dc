"""The sweep that emails therapists about new entries gives up on what
cannot go, and gives every waiting email its turn."""

import datetime as dt
from smtplib import SMTPRecipientsRefused, SMTPServerDisconnected

import pytest
from django.core import mail
from django.utils import timezone

from homework import selectors, tasks
from homework.models import Entry, OutboxMessage
from homework.services import NotificationNotSent
from practice import delivery
from tests.factories import EntryFactory
from tests.notices import mark_every_notice_sent, notice_of


@pytest.fixture
def unnotified(cast) -> Entry:
    return EntryFactory.create(assignment=cast.alice_assignment)


def refuse_with(monkeypatch, failure: Exception) -> None:
    def send(self, *args, **kwargs):
        raise failure

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", send)


def test_a_therapist_address_refused_for_good_is_given_up_at_once(unnotified, monkeypatch):
    refuse_with(monkeypatch, SMTPRecipientsRefused({"tara@example.test": (550, b"No such user")}))
    ran = tasks.notify_therapist_of_submission.apply(args=(unnotified.pk,))
    assert ran.successful() and ran.get() is False  # nothing to retry
    notice = notice_of(unnotified)
    assert notice.attempts == 1 and notice.state == OutboxMessage.State.GIVEN_UP
    assert notice.last_error == "SMTPRecipientsRefused 550"  # what failed, never the message
    assert unnotified.pk not in selectors.pending_notification_ids()


def test_a_mail_outage_is_counted_and_retried(unnotified, monkeypatch):
    refuse_with(monkeypatch, SMTPServerDisconnected("the mail server went away"))
    with pytest.raises(NotificationNotSent):  # for the retry
        tasks.notify_therapist_of_submission.apply(args=(unnotified.pk,))
    notice = notice_of(unnotified)
    assert notice.attempts == 1 and notice.state == OutboxMessage.State.PENDING
    assert unnotified.pk in selectors.pending_notification_ids()


def test_a_failing_notification_stops_after_the_bounded_tries(unnotified, monkeypatch):
    OutboxMessage.objects.filter(entry=unnotified).update(
        attempts=delivery.GIVE_UP_AFTER_ATTEMPTS - 1
    )
    refuse_with(monkeypatch, SMTPServerDisconnected("the mail server went away"))
    assert tasks.notify_therapist_of_submission.apply(args=(unnotified.pk,)).get() is False
    assert notice_of(unnotified).state == OutboxMessage.State.GIVEN_UP
    assert unnotified.pk not in selectors.pending_notification_ids()


def test_a_notification_failing_days_later_is_given_up(unnotified, monkeypatch):
    Entry.objects.filter(pk=unnotified.pk).update(
        submitted_at=timezone.now() - delivery.GIVE_UP_AFTER - dt.timedelta(minutes=1)
    )
    refuse_with(monkeypatch, SMTPServerDisconnected("the mail server went away"))
    assert tasks.notify_therapist_of_submission.apply(args=(unnotified.pk,)).get() is False
    assert notice_of(unnotified).state == OutboxMessage.State.GIVEN_UP


def test_old_failing_notifications_cannot_keep_a_new_one_waiting(cast):
    mark_every_notice_sent()
    long_ago = timezone.now() - dt.timedelta(hours=1)
    for _ in range(3):
        EntryFactory.create(
            assignment=cast.alice_assignment,
            submitted_at=long_ago,
            therapist_notice__attempts=5,
        )
    new = EntryFactory.create(assignment=cast.alice_assignment)
    assert selectors.pending_notification_ids(limit=1) == [new.pk]


def test_the_sweep_sends_what_is_waiting_once(unnotified):
    OutboxMessage.objects.exclude(entry=unnotified).update(
        state=OutboxMessage.State.SENT, sent_at=timezone.now()
    )
    assert tasks.notify_pending_submissions() == 1
    assert [message.to for message in mail.outbox] == [
        [unnotified.assignment.client.therapist.email]
    ]
    assert tasks.notify_pending_submissions() == 0
