"""An urge's pull is kept plain as its entry's score (UrgeLog.score), as it
is sent or changed, and migration 0025 fills it for urges sent before."""

import datetime as dt
import uuid

import pytest
from django.utils import timezone

from homework import services
from homework.kinds import get_kind
from homework.services import Flags
from tests.conftest import Cast
from tests.factories import AssignmentFactory, ExerciseFactory, options_for, urge_log
from tests.helpers_migrations import assignment_in, migrate, migrate_to_latest


def sent_urge(cast: Cast, **answers: object):
    assert cast.alice.portal_user is not None
    assignment = AssignmentFactory.create(
        client=cast.alice,
        exercise=ExerciseFactory.create(kind="urge_log", options=options_for("urge_log")),
    )
    return services.entry_submit(
        user=cast.alice.portal_user,
        assignment_id=assignment.pk,
        key=uuid.uuid4(),
        base_version=0,
        data=urge_log(**answers),
        flags=Flags(),
    )


def test_a_sent_urge_keeps_its_pull_and_a_change_updates_it(cast: Cast) -> None:
    entry = sent_urge(cast, intensity=7)
    assert cast.alice.portal_user is not None
    assert entry.score == 7.0
    changed = services.entry_edit(
        user=cast.alice.portal_user,
        key=entry.key,
        base_version=entry.version,
        data={**urge_log(), "intensity": 0},
        flags=Flags(),
    )
    changed.refresh_from_db()
    assert changed.score == 0.0


def test_a_pull_not_given_is_no_score_not_a_zero() -> None:
    # The form asks for it today; an older entry may hold none.
    kind = get_kind("urge_log")
    exercise = ExerciseFactory.build(kind="urge_log")
    assert kind.score({**urge_log(), "intensity": None}, exercise=exercise) is None
    assert kind.score({"at": "2026-01-02T10:00"}, exercise=exercise) is None


BEFORE = [("homework", "0024_flag_notices_and_digests")]
AFTER = [("homework", "0025_urge_pull_as_score")]


@pytest.fixture
def before_urge_scores(transactional_db):
    yield migrate(BEFORE)
    migrate_to_latest()


def test_migration_fills_urge_scores_and_going_back_clears_them(before_urge_scores) -> None:
    apps = before_urge_scores
    Entry = apps.get_model("homework", "Entry")
    Exercise = apps.get_model("homework", "Exercise")
    record = assignment_in(apps, starts_on=dt.date(2026, 1, 1))
    urges = apps.get_model("homework", "Assignment").objects.create(
        client_id=record.client_id,
        exercise=Exercise.objects.create(kind="urge_log", title="Urges", instructions="Log."),
        starts_on=dt.date(2026, 1, 1),
        created_by_id=record.created_by_id,
    )

    def entry(assignment, response, score=None):
        return Entry.objects.create(
            assignment=assignment,
            schema_version=1,
            status="submitted",
            submitted_at=timezone.now(),
            shared_at=timezone.now(),
            response=response,
            score=score,
        ).pk

    pulled = entry(urges, {"intensity": 6, "at": "2026-01-02T10:00"})
    blank = entry(urges, {"intensity": None, "at": "2026-01-02T11:00"})
    calm = entry(urges, {"intensity": 0})
    total = entry(record, {"intensity": 9}, score=3.5)  # a worksheet's total stays its own

    def scores(apps) -> dict[int, float | None]:
        return dict(apps.get_model("homework", "Entry").objects.values_list("pk", "score"))

    after = scores(migrate(AFTER))
    assert after == {pulled: 6.0, blank: None, calm: 0.0, total: 3.5}
    back = scores(migrate(BEFORE))
    assert back == {pulled: None, blank: None, calm: None, total: 3.5}
