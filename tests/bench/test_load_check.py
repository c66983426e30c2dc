"""The load test's zero-loss check (bench.load_check) finds a save that is
not in the database: a check that cannot fail would prove nothing."""

import uuid

import pytest

from bench.load_check import Ack, Stored, check, stored_entries
from homework.models import Entry
from tests.factories import EntryFactory

KEY, OTHER = str(uuid.uuid4()), str(uuid.uuid4())
TYPED = [Ack(KEY, 1, "he took", False), Ack(KEY, 2, "he took the keys", False)]


def test_saves_kept_as_their_entrys_last_words_pass() -> None:
    verdict = check(TYPED, {KEY: Stored(version=2, text="he took the keys", sent=False)})
    assert (verdict.acknowledged, verdict.entries, verdict.found, verdict.lost) == (2, 1, 1, [])


@pytest.mark.parametrize(
    ("log", "stored", "says"),
    [
        (TYPED, {}, "no such entry"),
        (TYPED, {KEY: Stored(1, "he took", False)}, "last acknowledged version 2"),
        (TYPED, {KEY: Stored(2, "he took", False)}, "other words"),
        (
            [*TYPED, Ack(KEY, 2, "he took the", False)],
            {KEY: Stored(2, "he took the", False)},
            "two saves",
        ),
        (
            [*TYPED, Ack(KEY, None, "he took the keys", True)],
            {KEY: Stored(2, "he took the keys", False)},
            "a draft in the database",
        ),
        (TYPED, {KEY: Stored(3, "he took the keys", True)}, "no send was acknowledged"),
    ],
    ids=[
        "entry missing",
        "older version",
        "other words",
        "one version twice",
        "send not stored",
        "sent unasked",
    ],
)
def test_a_save_not_in_the_database_is_counted_lost(
    log: list[Ack], stored: dict[str, Stored], says: str
) -> None:
    verdict = check(log, stored)
    assert verdict.found == 0
    assert any(says in problem for problem in verdict.lost), verdict.lost


@pytest.mark.django_db
def test_the_stored_side_is_read_decrypted_from_the_database() -> None:
    entry = EntryFactory.create(
        status=Entry.Status.DRAFT, submitted_at=None, response={"what_happened": "he took the keys"}
    )
    log = [*TYPED[:1], Ack(str(entry.key), entry.version, "he took the keys", False)]
    verdict = check(log, stored_entries([KEY, str(entry.key)]))
    assert (verdict.entries, verdict.found) == (2, 1)
    assert verdict.lost == [f"{KEY}: 1 acknowledged write(s), and no such entry in the database"]
