"""Migrations 0016-0018 move each entry's notification bookkeeping to its
notice in the outbox, and back again, losing nothing."""

import datetime as dt

import pytest
from django.utils import timezone

from clients.models import Client
from tests.helpers_migrations import assignment_in, migrate, migrate_to_latest

BEFORE = [("homework", "0015_entry_sent_when_opened")]
AFTER = [("homework", "0018_entry_notify_fields_removed")]
NOW = timezone.now().replace(microsecond=0)
SENT_AT = NOW - dt.timedelta(days=3)
GIVEN_UP_AT = NOW - dt.timedelta(days=1)


@pytest.fixture
def before_the_outbox(transactional_db):
    yield migrate(BEFORE)
    migrate_to_latest()


def entries_as_they_were(apps) -> dict[str, int]:
    """One entry for each way its notice can stand, by name."""
    assignment = assignment_in(apps, starts_on=NOW.date())
    Entry = apps.get_model("homework", "Entry")

    def entry(*, status="submitted", private=False, **fields):
        sent = status == "submitted"
        return Entry.objects.create(
            assignment=assignment,
            schema_version=1,
            status=status,
            private=private,
            submitted_at=NOW - dt.timedelta(days=4) if sent else None,
            shared_at=NOW - dt.timedelta(days=4) if sent and not private else None,
            **fields,
        ).pk

    return {
        "notified": entry(therapist_notified_at=SENT_AT, notify_attempts=1),
        "given up": entry(notify_given_up_at=GIVEN_UP_AT, notify_attempts=3),
        "failing": entry(notify_attempts=2),
        "waiting": entry(),
        "private": entry(private=True),
        "private after a try": entry(private=True, notify_attempts=1),
        "draft": entry(status="draft"),
    }


def notices(apps) -> dict[int, tuple[str, int, dt.datetime | None, dt.datetime | None]]:
    OutboxMessage = apps.get_model("homework", "OutboxMessage")
    return {
        m.entry_id: (m.state, m.attempts, m.sent_at, m.last_tried_at)
        for m in OutboxMessage.objects.filter(kind="entry-notice")
    }


def bookkeeping(apps) -> dict[int, tuple[dt.datetime | None, int, dt.datetime | None]]:
    Entry = apps.get_model("homework", "Entry")
    return {
        pk: (notified, attempts, given_up)
        for pk, notified, attempts, given_up in Entry.objects.values_list(
            "pk", "therapist_notified_at", "notify_attempts", "notify_given_up_at"
        )
    }


def test_each_entrys_notification_state_becomes_its_notice(before_the_outbox):
    entry = entries_as_they_were(before_the_outbox)
    after = migrate(AFTER)
    assert notices(after) == {
        entry["notified"]: ("sent", 1, SENT_AT, SENT_AT),
        entry["given up"]: ("given-up", 3, None, GIVEN_UP_AT),
        entry["failing"]: ("pending", 2, None, None),
        entry["waiting"]: ("pending", 0, None, None),
        entry["private after a try"]: ("pending", 1, None, None),
    }
    OutboxMessage = after.get_model("homework", "OutboxMessage")
    [alice] = Client.objects.all()
    assert set(OutboxMessage.objects.values_list("recipient_id", flat=True)) == {alice.therapist_id}
    assert set(OutboxMessage.objects.values_list("client_id", flat=True)) == {alice.pk}
    waiting = OutboxMessage.objects.get(entry_id=entry["waiting"])
    assert waiting.created_at == NOW - dt.timedelta(days=4)  # asked for when it was shared


def test_back_again_the_entries_hold_what_they_held(before_the_outbox):
    entries_as_they_were(before_the_outbox)
    held = bookkeeping(before_the_outbox)
    migrate(AFTER)
    assert bookkeeping(migrate(BEFORE)) == held
