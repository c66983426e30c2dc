"""Migrations 0019-0020 encrypt in place what clients wrote before, and
undo it, losing nothing (a JSON column becomes text holding a token)."""

import datetime as dt
import json

import pytest
from django.db import connection
from django.utils import timezone

from tests.helpers_migrations import assignment_in, migrate, migrate_to_latest

BEFORE = [("homework", "0018_entry_notify_fields_removed")]
AFTER = [("homework", "0020_client_words_sealed")]
RESPONSE = {"what_happened": "Он молчал — the door was locked 🌧️", "body_distress": 7}


def raw(table: str, column: str, pk: int) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {column} FROM {table} WHERE id = %s", [pk])  # noqa: S608
        return str(cursor.fetchone()[0])


@pytest.fixture
def before_encryption(transactional_db):
    yield migrate(BEFORE)
    migrate_to_latest()


def written_in_plain(apps) -> dict[str, int]:
    assignment = assignment_in(apps, starts_on=timezone.localdate())
    Entry = apps.get_model("homework", "Entry")
    now = timezone.now()
    entry = Entry.objects.create(
        assignment=assignment,
        schema_version=1,
        status="submitted",
        submitted_at=now - dt.timedelta(days=1),
        shared_at=now - dt.timedelta(days=1),
        response=RESPONSE,
        note_draft="not sent yet",
    )
    empty = Entry.objects.create(assignment=assignment, schema_version=1, status="draft")
    note = apps.get_model("homework", "EntryNote").objects.create(entry=entry, text="a note")
    comment = apps.get_model("homework", "EntryComment").objects.create(
        entry=entry, author_id=assignment.created_by_id, text="a comment"
    )
    return {"entry": entry.pk, "empty": empty.pk, "note": note.pk, "comment": comment.pk}


def test_the_migrations_encrypt_what_was_written_and_undo_it(before_encryption):
    ids = written_in_plain(before_encryption)

    sealed = migrate(AFTER)
    assert "door" not in raw("homework_entry", "response", ids["entry"])
    assert raw("homework_entry", "note_draft", ids["entry"]).startswith("gAAAA")
    assert raw("homework_entrynote", "text", ids["note"]).startswith("gAAAA")
    assert raw("homework_entrycomment", "text", ids["comment"]).startswith("gAAAA")
    entry = sealed.get_model("homework", "Entry").objects.get(pk=ids["entry"])
    assert (entry.response, entry.note_draft) == (RESPONSE, "not sent yet")
    empty = sealed.get_model("homework", "Entry").objects.get(pk=ids["empty"])
    assert (empty.response, empty.note_draft) == ({}, "")
    assert sealed.get_model("homework", "EntryNote").objects.get(pk=ids["note"]).text == "a note"
    assert (
        sealed.get_model("homework", "EntryComment").objects.get(pk=ids["comment"]).text
        == "a comment"
    )

    apps = migrate(BEFORE)
    assert json.loads(raw("homework_entry", "response", ids["entry"])) == RESPONSE
    assert raw("homework_entry", "note_draft", ids["entry"]) == "not sent yet"
    assert raw("homework_entrynote", "text", ids["note"]) == "a note"
    OldEntry = apps.get_model("homework", "Entry")
    assert OldEntry.objects.get(pk=ids["entry"]).response == RESPONSE
    assert OldEntry.objects.filter(response__body_distress=7).exists()  # JSON again
