"""Migration 0034: flagged entries shared and not yet read become open alerts, so nothing drops off
the home page; read, private and plain entries raise none, and none counts as overdue yet."""

import datetime as dt

import pytest
from django.utils import timezone

from homework.models import Alert
from tests.helpers_migrations import assignment_in, migrate, migrate_to_latest

BEFORE = [("homework", "0035_alerts")]
AFTER = [("homework", "0036_alerts_for_unread_flags")]
LONG_AGO = timezone.now() - dt.timedelta(days=30)


@pytest.fixture
def before_alerts(transactional_db):
    yield migrate(BEFORE)
    migrate_to_latest()


def test_unread_flagged_entries_become_open_alerts_raised_now(before_alerts):
    apps = before_alerts
    Entry = apps.get_model("homework", "Entry")
    assignment = assignment_in(apps, starts_on=LONG_AGO.date())

    def entry(**fields):
        private = fields.pop("private", False)
        return Entry.objects.create(
            assignment=assignment,
            schema_version=1,
            status="submitted",
            submitted_at=LONG_AGO,
            shared_at=None if private else LONG_AGO,
            private=private,
            **fields,
        ).pk

    unread = entry(felt_unsafe=True)
    read = entry(felt_unsafe=True, seen_at=LONG_AGO)
    private = entry(felt_unsafe=True, private=True)
    plain = entry()
    check_in = apps.get_model("homework", "Exercise").objects.create(
        kind="worksheet",
        title="Safety check",
        options={
            "questions": [
                {
                    "key": "safe",
                    "type": "scale_0_10",
                    "text": "How safe have you felt?",
                    "scored": True,
                    "review_at_or_below": 3,
                }
            ],
            "score": {"method": "mean", "better": "higher", "label": ""},
        },
    )
    watched = Entry.objects.create(
        assignment=apps.get_model("homework", "Assignment").objects.create(
            client_id=assignment.client_id,
            exercise=check_in,
            starts_on=LONG_AGO.date(),
            created_by_id=assignment.created_by_id,
        ),
        schema_version=1,
        status="submitted",
        submitted_at=LONG_AGO,
        shared_at=LONG_AGO,
        needs_review=True,
        response={"safe": 1},
    ).pk
    before = timezone.now()
    migrate(AFTER)
    migrate_to_latest()
    alerts = {alert.entry_id: alert for alert in Alert.objects.all()}
    assert set(alerts) == {unread, watched}
    assert {read, private, plain}.isdisjoint(alerts)
    assert alerts[unread].reason == Alert.Reason.FELT_UNSAFE
    assert (alerts[watched].question_key, alerts[watched].answer) == (
        "safe",
        "How safe have you felt? 1 / 10",
    )
    assert all(alert.raised_at >= before and alert.is_open for alert in alerts.values())
