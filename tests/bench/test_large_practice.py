"""The large practice the benchmarks and the load test run on (bench.large_practice)."""

import pytest
from django.db import models

from bench.large_practice.load import large_practice_load
from clients.models import Client
from homework.models import Entry
from practice.models import User
from tests.test_seed_demo import counts

pytestmark = pytest.mark.django_db


def test_the_large_practice_is_built_once_with_every_kind(db, capsys):
    """At a tiny scale: a year-long client and a three-week one, every kind
    sent, drafts among them, what clients wrote sealed, and a second run
    adding nothing."""
    from django.db import connection

    from homework.kinds import all_kinds
    from homework.models import EntryComment
    from practice.encryption import is_encrypted

    large_practice_load(1, clients_per_therapist=2)
    first = [*counts(), EntryComment.objects.count()]
    large_practice_load(1, clients_per_therapist=2)
    assert [*counts(), EntryComment.objects.count()] == first

    out = capsys.readouterr().out
    assert "client-0001@scale.test" in out and "scale-pass-2026" in out
    client = Client.objects.get(portal_user__email="client-0002@scale.test")
    assert client.portal_user is not None and client.portal_user.check_password("scale-pass-2026")
    assert User.objects.get(email="therapist-01@scale.test").check_password("scale-pass-2026")

    sent = Entry.objects.filter(status="submitted")
    kinds = set(sent.values_list("assignment__exercise__kind", flat=True))
    assert kinds == {kind.slug for kind in all_kinds()}
    assert Entry.objects.filter(status="draft").exists()
    assert sent.filter(private=True).exists() and sent.filter(seen_at__isnull=False).exists()
    first_sent = sent.order_by("submitted_at").first()
    last_sent = sent.order_by("submitted_at").last()
    assert first_sent and last_sent and first_sent.submitted_at and last_sent.submitted_at
    assert (last_sent.submitted_at - first_sent.submitted_at).days > 300
    assert not sent.filter(created_at__gt=models.F("submitted_at")).exists()

    with connection.cursor() as cursor:
        cursor.execute("SELECT response FROM homework_entry")
        stored = [row[0] for row in cursor.fetchall()]
    assert all(is_encrypted(value) for value in stored)
