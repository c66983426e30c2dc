"""The therapists' weekly digest (counts and a link, nothing else), and the
removal of done messages after the practice's keep period."""

import datetime as dt
import zoneinfo

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import TestCase
from django.utils import timezone

from clients.models import Client
from homework.models import Entry, Exercise, OutboxMessage
from homework.services.digest import digest_send, digests_scan
from homework.services.retention import outbox_purge_done
from homework.tasks import scan_digests
from practice.models import PracticeSettings
from practice.selectors import forget_practice_settings
from tests.factories import EntryFactory
from tests.helpers_discreet import assert_discreet, readable_parts

pytestmark = pytest.mark.django_db

LONDON = zoneinfo.ZoneInfo("Europe/London")
MONDAY_MORNING = dt.datetime(2026, 6, 8, 9, 0, tzinfo=LONDON)
CANARIES = ("Canary-Name", "Canary-Title", "They went quiet", "felt unsafe")


def digests() -> list[OutboxMessage]:
    return list(OutboxMessage.objects.filter(kind=OutboxMessage.Kind.DIGEST).order_by("pk"))


def test_one_digest_per_therapist_and_week_however_often_it_scans(cast):
    sunday = MONDAY_MORNING - dt.timedelta(days=1)
    assert digests_scan(now=sunday) == [] and digests_scan(now=MONDAY_MORNING.replace(hour=7)) == []
    digests_scan(now=MONDAY_MORNING)
    digests_scan(now=MONDAY_MORNING + dt.timedelta(hours=5))
    assert sorted(row.recipient_id for row in digests()) == sorted([cast.tara.pk, cast.theo.pk])
    digests_scan(now=MONDAY_MORNING + dt.timedelta(days=7))
    assert len(digests()) == 4  # next week's


def test_the_digest_counts_and_links_and_names_nothing(cast, time_machine):
    time_machine.move_to(MONDAY_MORNING)
    Client.objects.filter(pk=cast.alice.pk).update(display_name=CANARIES[0])
    Exercise.objects.filter(pk=cast.alice_assignment.exercise_id).update(title=CANARIES[1])
    EntryFactory.create(assignment=cast.alice_assignment, felt_unsafe=True)
    EntryFactory.create(assignment=cast.alice_assignment, private=True)  # never counted
    with TestCase.captureOnCommitCallbacks(execute=True):
        scan_digests.apply()
    tara_mail = [email for email in mail.outbox if email.to == ["tara@example.test"]]
    [email] = tara_mail
    assert_discreet(*readable_parts(email), canaries=CANARIES)
    assert "2 new entries" in email.body and "1 marked to read" in email.body
    assert "/admin/" in email.body
    assert {row.state for row in digests()} == {OutboxMessage.State.SENT}


def test_a_practice_that_turns_the_digest_off_gets_none(cast):
    PracticeSettings.objects.filter(pk=1).update(weekly_digest=False)
    forget_practice_settings()
    assert digests_scan(now=MONDAY_MORNING) == []
    assert digests() == []


def test_a_digest_sent_twice_goes_once(cast):
    first, _second = digests_scan(now=MONDAY_MORNING)
    assert digest_send(message_id=first, now=MONDAY_MORNING) == "sent"
    assert digest_send(message_id=first, now=MONDAY_MORNING) == "skipped"
    assert len(mail.outbox) == 1


def test_the_command_sends_the_digests_too(cast, capsys, time_machine):
    time_machine.move_to(MONDAY_MORNING)
    call_command("send_reminders")
    out = capsys.readouterr().out
    assert out.count(": sent") == 2 and "@" not in out


def _done(cast, *, days_ago: int, state: str = OutboxMessage.State.SENT) -> OutboxMessage:
    at = timezone.now() - dt.timedelta(days=days_ago)
    entry: Entry = EntryFactory.create(assignment=cast.alice_assignment)
    OutboxMessage.objects.filter(entry=entry).delete()
    return OutboxMessage.objects.create(
        kind=OutboxMessage.Kind.ENTRY_NOTICE,
        entry=entry,
        client=cast.alice,
        recipient=cast.tara,
        state=state,
        sent_at=at if state == OutboxMessage.State.SENT else None,
        last_tried_at=at,
        created_at=at,
    )


def test_done_messages_past_the_keep_period_go_in_batches_and_the_rest_stay(cast):
    OutboxMessage.objects.all().delete()
    old = [_done(cast, days_ago=91) for _ in range(3)]
    old.append(_done(cast, days_ago=200, state=OutboxMessage.State.GIVEN_UP))
    recent = _done(cast, days_ago=10)
    waiting = _done(cast, days_ago=400, state=OutboxMessage.State.PENDING)
    assert outbox_purge_done(now=timezone.now(), batch=2) == 4
    assert set(OutboxMessage.objects.values_list("pk", flat=True)) == {recent.pk, waiting.pk}
    PracticeSettings.objects.filter(pk=1).update(message_keep_days=30)
    forget_practice_settings()
    assert outbox_purge_done(now=timezone.now() + dt.timedelta(days=25)) == 1
    assert list(OutboxMessage.objects.values_list("pk", flat=True)) == [waiting.pk]
