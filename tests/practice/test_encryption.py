"""What clients write is encrypted at rest (practice.encryption): the
database holds only tokens, a wrong or missing key fails loudly, and
rotate_field_keys moves every value to the newest key or changes nothing."""

import io
import json
import uuid
from unittest import mock

import pytest
from cryptography.fernet import Fernet
from django.apps import apps
from django.core.exceptions import FieldError, ImproperlyConfigured
from django.core.management import CommandError, call_command
from django.db import connection

from homework import services
from homework.models import Entry, EntryComment, EntryNote
from homework.services import Flags
from practice import env
from practice.encryption import UnreadableValue, codec, encrypted_columns
from tests.conftest import TEST_FIELD_KEY
from tests.factories import EntryFactory, written_record
from tests.helpers_entries import read_by_therapist
from tests.practice.test_settings import PRODUCTION_ENV, settings_alone

CANARY = "canary-7f3a-the-door-was-locked"
OTHER_KEY = Fernet.generate_key().decode()


def raw_cells() -> list[object]:
    """Every value in every table, read as the database holds it."""
    cells: list[object] = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")  # noqa: S608
            for row in cursor.fetchall():
                cells.extend(row)
    return cells


def shows(cells: list[object], words: str) -> bool:
    return any(
        words in (cell.decode("utf-8", "replace") if isinstance(cell, bytes) else str(cell))
        for cell in cells
        if cell is not None
    )


def stored(table: str, column: str, pk: int) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {column} FROM {table} WHERE id = %s", [pk])  # noqa: S608
        return str(cursor.fetchone()[0])


def test_a_raw_read_of_every_table_shows_no_word_the_client_or_therapist_wrote(cast):
    user = cast.alice.portal_user
    key = uuid.uuid4()
    common = {"user": user, "assignment_id": cast.alice_assignment.pk, "key": key}
    services.entry_save_draft(
        **common, base_version=0, data={"what_happened": f"draft {CANARY}"}, flags=Flags()
    )
    assert shows(raw_cells(), "draft") and not shows(raw_cells(), CANARY)
    entry = services.entry_submit(
        **common,
        base_version=1,
        data=written_record(what_happened=f"sent {CANARY}"),
        flags=Flags(felt_unsafe=True),
    )
    read_by_therapist(entry)
    services.entry_add_note(user=user, key=key, text=f"note {CANARY}")
    services.entry_keep_note_draft(user=user, key=key, text=f"unsent {CANARY}")
    services.entry_comment_add(actor=cast.tara, entry=entry, text=f"comment {CANARY}")

    assert not shows(raw_cells(), CANARY)
    # ...while the application reads every one of them back, and the flag
    # SQL filters on stayed plain.
    entry.refresh_from_db()
    assert CANARY in entry.response["what_happened"] and CANARY in entry.note_draft
    assert CANARY in EntryNote.objects.get(entry=entry).text
    assert CANARY in EntryComment.objects.get(entry=entry).text
    assert Entry.objects.filter(pk=entry.pk, felt_unsafe=True).exists()


@pytest.mark.parametrize(
    "response",
    [
        {},
        {"what_happened": "Он молчал весь вечер 🌧️ — هو لم يتكلم", "body_distress": 7},
        {"people": [{"name": "Zoë", "circle": "inner", "steadying": True}] * 50, "n": 1.5},
        {"what_happened": "long " * 40_000, "nothing": None, "empty": ""},
    ],
    ids=["empty", "unicode", "nested", "large"],
)
def test_a_response_reads_back_exactly_as_it_was_written(db, response):
    entry = EntryFactory.create(response=response, note_draft="Zoë — ünsent\n")
    assert stored("homework_entry", "response", entry.pk).startswith("gAAAA")  # a Fernet token
    fresh = Entry.objects.get(pk=entry.pk)
    assert fresh.response == response and fresh.note_draft == "Zoë — ünsent\n"
    assert Entry.objects.filter(pk=entry.pk).values_list("response", flat=True)[0] == response
    entry.refresh_from_db(fields=["response"])
    assert entry.response == response


def test_an_empty_text_is_sealed_too_so_the_database_cannot_tell_it_apart(db):
    entry = EntryFactory.create(note_draft="")
    assert stored("homework_entry", "note_draft", entry.pk) not in {"", "null"}
    assert Entry.objects.get(pk=entry.pk).note_draft == ""


@pytest.mark.parametrize(
    "lookup",
    [
        {"response__icontains": "door"},
        {"response__what_happened": "x"},
        {"response": {}},
        {"note_draft": ""},
        {"notes__text__startswith": "I"},
    ],
)
def test_a_filter_on_encrypted_words_fails_loudly_rather_than_matching_nothing(db, lookup):
    with pytest.raises(FieldError, match="stored encrypted"):
        list(Entry.objects.filter(**lookup))


def test_isnull_is_still_allowed_on_encrypted_words(db):
    EntryFactory.create()
    assert Entry.objects.filter(response__isnull=False).count() == 1


def test_a_value_written_with_a_key_no_longer_listed_fails_at_read_naming_the_column(db, settings):
    entry = EntryFactory.create()
    settings.FIELD_ENCRYPTION_KEYS = [OTHER_KEY]
    with pytest.raises(UnreadableValue, match=r"homework_entry\.response.*FIELD_ENCRYPTION_KEYS"):
        Entry.objects.get(pk=entry.pk)


def test_a_plain_value_left_in_an_encrypted_column_fails_at_read(db):
    entry = EntryFactory.create()
    Entry.objects.filter(pk=entry.pk).update(note_draft="x")  # sealed on the way in
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE homework_entry SET note_draft = 'plain words' WHERE id = %s", [entry.pk]
        )
    with pytest.raises(UnreadableValue, match=r"homework_entry\.note_draft"):
        Entry.objects.get(pk=entry.pk)


def test_production_refuses_to_start_without_field_keys():
    result = settings_alone(**{**PRODUCTION_ENV, "FIELD_ENCRYPTION_KEYS": ""})
    assert result.returncode != 0
    assert "FIELD_ENCRYPTION_KEYS is required" in result.stderr.splitlines()[-1]


def test_a_malformed_field_key_stops_the_start_without_showing_it():
    cut_short = Fernet.generate_key().decode()[:30]
    result = settings_alone(
        **{**PRODUCTION_ENV, "FIELD_ENCRYPTION_KEYS": f"{TEST_FIELD_KEY},{cut_short}"}
    )
    assert result.returncode != 0
    assert "key 2 of 2 is not a Fernet key" in result.stderr.splitlines()[-1]
    assert cut_short not in result.stderr and TEST_FIELD_KEY not in result.stderr


def test_field_keys_are_read_newest_first_and_a_repeated_key_is_refused(monkeypatch):
    monkeypatch.setenv("FIELD_ENCRYPTION_KEYS", f" {OTHER_KEY} , {TEST_FIELD_KEY} ")
    assert env.env_fernet_keys("FIELD_ENCRYPTION_KEYS") == [OTHER_KEY, TEST_FIELD_KEY]
    monkeypatch.setenv("FIELD_ENCRYPTION_KEYS", f"{OTHER_KEY},{OTHER_KEY}")
    with pytest.raises(ImproperlyConfigured, match="same key twice"):
        env.env_fernet_keys("FIELD_ENCRYPTION_KEYS")


def test_the_development_field_key_is_generated_once_and_kept(tmp_path):
    path = tmp_path / "field_encryption_key"
    first = env.development_field_key(path)
    Fernet(first)
    assert env.development_field_key(path) == first
    assert oct(path.stat().st_mode)[-3:] == "600"


def test_every_encrypted_column_is_found_for_rotation():
    assert set(encrypted_columns(apps)) == {
        ("homework_entry", "response"),
        ("homework_entry", "note_draft"),
        ("homework_entrynote", "text"),
        ("homework_entrycomment", "text"),
        # An alert's answer as its flag names it, and the note of what was done about it.
        ("homework_alert", "answer"),
        ("homework_alert", "note"),
        # A client's prepared PDF download, kept until fetched.
        ("homework_prepareddownload", "sealed_file"),
        # A replayed POST's stored answer can quote what a client wrote.
        ("practice_idempotentrequest", "response_body"),
    }


def test_rotation_moves_every_value_to_the_newest_key(cast, settings):
    entry = cast.alice_entry
    EntryNote.objects.create(entry=entry, text="a note")
    EntryComment.objects.create(entry=entry, author=cast.tara, text="a comment")
    before = stored("homework_entry", "response", entry.pk)
    settings.FIELD_ENCRYPTION_KEYS = [OTHER_KEY, TEST_FIELD_KEY]

    out = io.StringIO()
    call_command("rotate_field_keys", stdout=out)

    assert "homework_entry.response: 2 value(s)" in out.getvalue()
    assert stored("homework_entry", "response", entry.pk) != before
    settings.FIELD_ENCRYPTION_KEYS = [OTHER_KEY]  # the old key dropped
    assert Entry.objects.get(pk=entry.pk).response == cast.alice_entry.response
    assert EntryNote.objects.get().text == "a note"
    assert EntryComment.objects.get().text == "a comment"


def test_rotation_refuses_and_changes_nothing_when_a_key_is_missing(cast, settings):
    before = stored("homework_entry", "response", cast.alice_entry.pk)
    settings.FIELD_ENCRYPTION_KEYS = [OTHER_KEY]  # the key they were written with is gone
    with pytest.raises(CommandError, match=r"Nothing was changed.*homework_entry\.response: 2 row"):
        call_command("rotate_field_keys")
    assert stored("homework_entry", "response", cast.alice_entry.pk) == before


def test_rotation_keeps_a_save_that_lands_between_its_read_and_its_write(cast, settings):
    """The site runs during a rotation: an autosave committed after the
    batch was read must not be overwritten with the older text."""
    entry = cast.alice_entry
    read = stored("homework_entry", "response", entry.pk)
    newer = {"what_happened": "saved while the keys turned"}
    settings.FIELD_ENCRYPTION_KEYS = [OTHER_KEY, TEST_FIELD_KEY]
    real = codec()

    class SaveInBetween:
        def rotate(self, token: bytes) -> bytes:
            if token.decode() == read:  # this row was read: the client saves now
                written = Fernet(TEST_FIELD_KEY.encode()).encrypt(json.dumps(newer).encode())
                with connection.cursor() as cursor:
                    cursor.execute(
                        "UPDATE homework_entry SET response = %s WHERE id = %s",
                        [written.decode(), entry.pk],
                    )
            return real.rotate(token)

    with mock.patch("practice.management.commands.rotate_field_keys.codec", SaveInBetween):
        call_command("rotate_field_keys", stdout=io.StringIO())

    settings.FIELD_ENCRYPTION_KEYS = [OTHER_KEY]  # only the newest key: it must open
    assert Entry.objects.get(pk=entry.pk).response == newer
