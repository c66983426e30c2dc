"""An urge keeps its time and whether it says there was contact in plain
columns (beside its pull, test_urge_scores), set as it is sent or changed
and filled by migration 0027 for urges sent before; a picture drawn over
every urge opens only those with contact, for who reached out."""

import datetime as dt
import uuid

import pytest
from django.utils import timezone

from homework import services
from homework.models import Entry
from homework.selectors.listing import charted, opened_for_charts
from homework.services import Flags
from tests.conftest import Cast
from tests.factories import (
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    options_for,
    urge_log,
)
from tests.helpers_migrations import assignment_in, migrate, migrate_to_latest


def urge_work(cast: Cast):
    return AssignmentFactory.create(
        client=cast.alice,
        exercise=ExerciseFactory.create(kind="urge_log", options=options_for("urge_log")),
    )


def test_a_sent_urge_keeps_its_time_and_contact_plain_and_a_change_updates_them(cast: Cast):
    assert cast.alice.portal_user is not None
    at = timezone.localtime().replace(second=0, microsecond=0) - dt.timedelta(hours=3)
    entry = services.entry_submit(
        user=cast.alice.portal_user,
        assignment_id=urge_work(cast).pk,
        key=uuid.uuid4(),
        base_version=0,
        data=urge_log(at=at.strftime("%Y-%m-%dT%H:%M")),
        flags=Flags(),
    )
    entry.refresh_from_db()
    assert (entry.happened_at, entry.contact_happened) == (at, False)
    changed = services.entry_edit(
        user=cast.alice.portal_user,
        key=entry.key,
        base_version=entry.version,
        data=urge_log(
            at=(at - dt.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"),
            contact_happened="on",
            contact_initiated_by="them",
        ),
        flags=Flags(),
    )
    changed.refresh_from_db()
    assert (changed.happened_at, changed.contact_happened) == (at - dt.timedelta(hours=1), True)


def test_a_chart_opens_only_the_urges_with_contact(cast: Cast):
    work = urge_work(cast)
    calm = EntryFactory.create(assignment=work, response=urge_log())
    contact = EntryFactory.create(
        assignment=work, response=urge_log(contact_happened=True, contact_initiated_by="me")
    )
    record = EntryFactory.create(assignment=cast.alice_assignment)
    read = {
        entry.pk: entry
        for entry in charted(
            Entry.objects.all(), opened=opened_for_charts([work, cast.alice_assignment])
        )
    }
    assert "response" in read[calm.pk].get_deferred_fields()
    assert read[calm.pk].contact_happened is False
    assert read[contact.pk].response["contact_initiated_by"] == "me"
    assert read[record.pk].response == record.response  # other kinds: every one opened


BEFORE = [("homework", "0026_prepared_download")]
AFTER = [("homework", "0027_entry_plain_urge_columns")]


@pytest.fixture
def before_plain_urges(transactional_db):
    yield migrate(BEFORE)
    migrate_to_latest()


def test_migration_fills_sent_urges_time_and_contact(before_plain_urges) -> None:
    apps = before_plain_urges
    Entry = apps.get_model("homework", "Entry")
    Exercise = apps.get_model("homework", "Exercise")
    record = assignment_in(apps, starts_on=dt.date(2026, 1, 1))
    client = record.client
    client.timezone = "America/New_York"
    client.save()
    urges = apps.get_model("homework", "Assignment").objects.create(
        client_id=record.client_id,
        exercise=Exercise.objects.create(kind="urge_log", title="Urges", instructions="Log."),
        starts_on=dt.date(2026, 1, 1),
        created_by_id=record.created_by_id,
    )

    def entry(assignment, response, status="submitted"):
        sent = timezone.now() if status == "submitted" else None
        return Entry.objects.create(
            assignment=assignment,
            schema_version=1,
            status=status,
            submitted_at=sent,
            shared_at=sent,
            response=response,
        ).pk

    them = entry(
        urges,
        {
            "at": "2026-01-02T10:00:00+00:00",
            "contact_happened": True,
            "contact_initiated_by": "them",
        },
    )
    none = entry(urges, {"at": "2026-01-03T21:30", "contact_initiated_by": "none"})  # their clock
    silent = entry(urges, {"intensity": 4})  # no time, nothing said of contact
    draft = entry(urges, {"at": "2026-01-04T10:00:00+00:00", "contact_happened": True}, "draft")
    other = entry(record, {"occurred_at": "2026-01-02T10:00:00+00:00"})

    Entry = migrate(AFTER).get_model("homework", "Entry")
    kept = {
        pk: (happened, contact)
        for pk, happened, contact in Entry.objects.values_list(
            "pk", "happened_at", "contact_happened"
        )
    }
    new_york = dt.timezone(dt.timedelta(hours=-5))
    assert kept == {
        them: (dt.datetime(2026, 1, 2, 10, tzinfo=dt.UTC), True),
        none: (dt.datetime(2026, 1, 3, 21, 30, tzinfo=new_york), False),
        silent: (None, None),
        draft: (None, None),
        other: (None, None),
    }
