"""Migration 0005 keeps addresses in lower case, and stops with names rather
than break the unique rule when two accounts differ only in capitals."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("practice", "0004_user_session_salt_exit_note")]
AFTER = [("practice", "0005_email_kept_in_lower_case")]


@pytest.fixture
def before_lower_case(transactional_db):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    yield apps
    apps.get_model("practice", "User").objects.all().delete()  # the test's own accounts
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def add_user(apps, email: str) -> None:
    apps.get_model("practice", "User").objects.create(email=email, password="!")


def test_addresses_with_capitals_are_lower_cased(before_lower_case):
    add_user(before_lower_case, "Tara@Example.test")
    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    User = executor.loader.project_state(AFTER).apps.get_model("practice", "User")
    assert list(User.objects.values_list("email", flat=True)) == ["tara@example.test"]


def test_two_accounts_differing_only_in_capitals_are_named(before_lower_case):
    add_user(before_lower_case, "Tara@example.test")
    add_user(before_lower_case, "tara@example.test")
    with pytest.raises(RuntimeError, match=r"tara@example\.test"):
        MigrationExecutor(connection).migrate(AFTER)
