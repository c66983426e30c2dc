"""Moving the test database to a migration and back, for the tests that
check what a data migration does to rows written before it."""

from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(target: list[tuple[str, str]]) -> Apps:
    """Migrate to `target` and return the models as they stood there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def migrate_to_latest() -> None:
    """Put every app back at its newest migration, for the tests after this one."""
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
