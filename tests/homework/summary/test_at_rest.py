"""Stored session summaries are encrypted at rest with the field keys: no
word of the client in any file under the folder, none of them a PDF; they
still open after the keys rotate, and erasure leaves no folder behind."""

import io
import subprocess
from pathlib import Path

import pytest
from cryptography.fernet import Fernet
from django.core.files.base import ContentFile
from django.core.files.storage import InMemoryStorage
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse

from homework.selectors.period import PeriodQuery
from homework.services.stored_summaries import summary_forget, summary_storage
from homework.summary import services
from practice.encrypted_files import (
    encrypted_file_read,
    encrypted_files_rotate,
    plain_files_encrypt,
)
from tests.conftest import TEST_FIELD_KEY, login

from .conftest import add, pdf_text

CANARY = "zqcanary5e1b77"
NEWER_KEY = Fernet.generate_key().decode()


def files_under(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*") if path.is_file())


def print_summary(cast) -> services.SummaryPdf:
    return services.summary_pdf(user=cast.tara, client=cast.alice, query=PeriodQuery())


def test_a_stored_summary_holds_no_word_of_the_client_and_is_no_pdf(cast, summaries_storage):
    add(cast.alice_assignment, what_happened=f"Said {CANARY} at the door.")
    first = print_summary(cast)
    assert not first.from_storage and CANARY in pdf_text(first.content)

    [stored] = files_under(summaries_storage)
    raw = stored.read_bytes()
    assert CANARY.encode() not in raw and not raw.startswith(b"%PDF")
    read = subprocess.run(["pdftotext", "-", "-"], input=raw, capture_output=True, check=False)
    assert read.returncode != 0 and CANARY.encode() not in read.stdout

    again = print_summary(cast)
    assert again.from_storage and again.content.startswith(b"%PDF")
    assert CANARY in pdf_text(again.content)


def test_after_rotation_with_the_old_key_dropped_a_stored_summary_still_opens(
    cast, summaries_storage, settings
):
    add(cast.alice_assignment, what_happened=f"Said {CANARY} at the door.")
    print_summary(cast)
    [stored] = files_under(summaries_storage)
    before, modified = stored.read_bytes(), stored.stat().st_mtime_ns
    settings.FIELD_ENCRYPTION_KEYS = [NEWER_KEY, TEST_FIELD_KEY]

    out = io.StringIO()
    call_command("rotate_field_keys", stdout=out)

    assert "storage summaries: 1 file(s) re-encrypted" in out.getvalue()
    assert stored.read_bytes() != before
    assert stored.stat().st_mtime_ns == modified  # the purge still counts from its making
    settings.FIELD_ENCRYPTION_KEYS = [NEWER_KEY]  # the old key dropped
    again = print_summary(cast)
    assert again.from_storage and CANARY in pdf_text(again.content)


def test_rotation_refuses_and_changes_nothing_when_a_stored_file_opens_with_no_key(
    cast, summaries_storage, settings
):
    summary_storage().save("9/2025-01-01_2025-01-08/old.pdf", ContentFile(b"%PDF old"))
    with connection.cursor() as cursor:
        cursor.execute("SELECT response FROM homework_entry WHERE id = %s", [cast.alice_entry.pk])
        [before] = cursor.fetchone()
    settings.FIELD_ENCRYPTION_KEYS = [NEWER_KEY, TEST_FIELD_KEY]

    with pytest.raises(CommandError, match=r"Nothing was changed.*storage summaries: 1 file"):
        call_command("rotate_field_keys")

    with connection.cursor() as cursor:
        cursor.execute("SELECT response FROM homework_entry WHERE id = %s", [cast.alice_entry.pk])
        assert cursor.fetchone()[0] == before
    assert (summaries_storage / "9/2025-01-01_2025-01-08/old.pdf").read_bytes() == b"%PDF old"


def test_a_stored_summary_no_key_opens_is_rendered_again_in_its_place(cast, summaries_storage):
    add(cast.alice_assignment, what_happened=f"Said {CANARY} at the door.")
    print_summary(cast)
    [stored] = files_under(summaries_storage)
    stored.write_bytes(b"half-written")

    again = print_summary(cast)

    assert not again.from_storage and CANARY in pdf_text(again.content)
    [replaced] = files_under(summaries_storage)
    name = str(replaced.relative_to(summaries_storage))
    assert encrypted_file_read(storage=summary_storage(), name=name) == again.content


def test_forgetting_a_clients_summaries_removes_their_folders(cast, summaries_storage):
    add(cast.alice_assignment)
    print_summary(cast)
    add(cast.bob_assignment)
    services.summary_pdf(user=cast.theo, client=cast.bob, query=PeriodQuery())
    assert (summaries_storage / str(cast.alice.pk)).is_dir()

    assert summary_forget(client_id=cast.alice.pk) == 1

    assert not (summaries_storage / str(cast.alice.pk)).exists()
    assert len(files_under(summaries_storage / str(cast.bob.pk))) == 1


def test_summaries_stored_before_encryption_are_encrypted_in_place_once(summaries_storage):
    storage = summary_storage()
    storage.save("3/2025-01-01_2025-01-08/plain.pdf", ContentFile(f"%PDF {CANARY}".encode()))
    path = summaries_storage / "3/2025-01-01_2025-01-08/plain.pdf"
    modified = path.stat().st_mtime_ns

    assert plain_files_encrypt(storage) == 1
    assert plain_files_encrypt(storage) == 0  # safe to run again

    assert CANARY.encode() not in path.read_bytes() and path.stat().st_mtime_ns == modified
    stored = encrypted_file_read(storage=storage, name="3/2025-01-01_2025-01-08/plain.pdf")
    assert stored == f"%PDF {CANARY}".encode()


def test_the_therapists_print_serves_the_stored_summary_decrypted(cast, summaries_storage):
    add(cast.alice_assignment, what_happened=f"Said {CANARY} at the door.")
    http = login(cast.tara)
    url = reverse("admin:clients_client_summary", args=[cast.alice.pk])
    first = http.get(url)
    assert len(files_under(summaries_storage)) == 1

    again = http.get(url)

    assert again.status_code == 200 and again["Content-Type"] == "application/pdf"
    assert again.content == first.content
    assert CANARY in pdf_text(again.content)


def test_a_storage_without_local_files_is_rewritten_through_its_api_alone(settings):
    """An object store (here Django's in-memory storage) has no path to write in place."""
    storage = InMemoryStorage()
    storage.save("3/old.pdf", ContentFile(f"%PDF {CANARY}".encode()))

    assert plain_files_encrypt(storage) == 1
    settings.FIELD_ENCRYPTION_KEYS = [NEWER_KEY, TEST_FIELD_KEY]
    assert encrypted_files_rotate(storage) == 1

    settings.FIELD_ENCRYPTION_KEYS = [NEWER_KEY]
    assert storage.listdir("3") == ([], ["old.pdf"])
    assert encrypted_file_read(storage=storage, name="3/old.pdf") == f"%PDF {CANARY}".encode()
