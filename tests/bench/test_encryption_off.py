"""The encryption benchmark's "off" rounds (bench.encryption.encryption_off):
the same fields store words as written while it lasts, and the real keys
seal them again after."""

import pytest
from django.db import connection

import practice.encryption
from bench.encryption import IDENTITY, encryption_off
from homework.models import Entry
from tests.factories import EntryFactory

pytestmark = pytest.mark.django_db


def stored_response(entry: Entry) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT response FROM homework_entry WHERE id = %s", [entry.pk])
        return str(cursor.fetchone()[0])


def test_encryption_off_stores_words_as_written_and_only_while_it_lasts(cast):
    with encryption_off():
        plain = EntryFactory.create(assignment=cast.alice_assignment)
        assert practice.encryption.codec() is IDENTITY
        assert Entry.objects.get(pk=plain.pk).response == plain.response
    sealed = EntryFactory.create(assignment=cast.alice_assignment)

    assert "They went quiet for the whole evening." in stored_response(plain)
    assert "They went quiet" not in stored_response(sealed)
    assert practice.encryption.is_encrypted(stored_response(sealed))
    assert practice.encryption.codec() is not IDENTITY
