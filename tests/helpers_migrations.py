"""Moving the test database to a migration and back, for the tests that
check what a data migration does to rows written before it."""

import datetime as dt
from typing import Any

from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.factories import ClientFactory


def migrate(target: list[tuple[str, str]]) -> Apps:
    """Migrate to `target` and return the models as they stood there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def migrate_to_latest() -> None:
    """Put every app back at its newest migration, for the tests after this one."""
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def assignment_in(apps: Apps, *, starts_on: dt.date) -> Any:
    """An exercise assigned to a new client, in the homework models as they
    stood at ``apps`` (accounts and clients as they are today)."""
    alice = ClientFactory.create()
    Exercise = apps.get_model("homework", "Exercise")
    Assignment = apps.get_model("homework", "Assignment")
    exercise = Exercise.objects.create(kind="written_record", title="Record", instructions="Write.")
    return Assignment.objects.create(
        client_id=alice.pk,
        exercise=exercise,
        starts_on=starts_on,
        created_by_id=alice.therapist_id,
    )
