"""Whether every save the load test saw acknowledged is in the database.

The load test keeps its own log of what the server acknowledged: each
autosave answered 200 (the entry's key, the version the answer gave, the
words sent) and each send answered with the way to the entry sent. A
draft holds only its latest words, so an acknowledged save is kept when the
entry now holds exactly those words at that version, or when a later
acknowledged save or send of the same entry replaced them (the client's own
next words). Anything else is a lost save: the entry is missing, holds other
words or another version, or was sent when the log says it was not (and the
other way round). Versions acknowledged twice for one entry are lost saves
too: two saves answered as the same version means one overwrote the other.

The stored side is read from the database through the models, so the words
are decrypted as the app reads them (Entry.response is encrypted).
"""

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

ANSWER_FIELD = "what_happened"  # the field the simulated clients type into


@dataclass(frozen=True)
class Ack:
    """One acknowledged write: a save (``version`` from its answer) or a send."""

    key: str
    version: int | None  # None for a send, whose answer is a redirect
    text: str
    sent: bool

    @classmethod
    def from_json(cls, row: Mapping[str, Any]) -> "Ack":
        return cls(str(row["key"]), row["version"], str(row["text"]), bool(row["sent"]))


@dataclass(frozen=True)
class Stored:
    """An entry as the database holds it."""

    version: int
    text: str
    sent: bool


@dataclass(frozen=True)
class Verdict:
    acknowledged: int  # saves and sends acknowledged to the clients
    entries: int  # entries those were made on
    found: int  # entries found in the database as the log says they must be
    lost: list[str]  # one line for each acknowledged write not in the database


def check(acks: Iterable[Ack], stored: Mapping[str, Stored]) -> Verdict:
    """Every acknowledged write in ``acks`` against ``stored`` (by entry key)."""
    by_key: dict[str, list[Ack]] = defaultdict(list)
    count = 0
    for ack in acks:
        by_key[ack.key].append(ack)
        count += 1
    lost: list[str] = []
    found = 0
    for key, writes in by_key.items():
        problems = _problems(writes, stored.get(key))
        lost.extend(f"{key}: {problem}" for problem in problems)
        found += not problems
    return Verdict(acknowledged=count, entries=len(by_key), found=found, lost=lost)


def _problems(writes: list[Ack], entry: Stored | None) -> list[str]:
    saves = [write for write in writes if not write.sent]
    sends = [write for write in writes if write.sent]
    if entry is None:
        return [f"{len(writes)} acknowledged write(s), and no such entry in the database"]
    problems = []
    versions = [save.version for save in saves]
    if len(set(versions)) != len(versions):
        problems.append(f"one version acknowledged to two saves: {sorted(map(str, versions))}")
    last_save = max(saves, key=lambda save: save.version or 0, default=None)
    last = sends[-1] if sends else last_save
    if sends and not entry.sent:
        problems.append("acknowledged as sent, and a draft in the database")
    if sends and last_save is not None and entry.version <= (last_save.version or 0):
        problems.append(f"sent after version {last_save.version}, and at version {entry.version}")
    if not sends and entry.sent:
        problems.append("sent in the database, and no send was acknowledged")
    if not sends and last_save is not None and entry.version != last_save.version:
        problems.append(
            f"last acknowledged version {last_save.version}, the database holds {entry.version}"
        )
    if last is not None and entry.text != last.text:
        problems.append(
            f"the database holds other words than the last acknowledged ({len(last.text)} characters)"
        )
    return problems


def stored_entries(keys: Iterable[str]) -> dict[str, Stored]:
    """The entries with these keys, read (and decrypted) through the model."""
    from homework.models import Entry

    wanted = list(keys)
    stored: dict[str, Stored] = {}
    for start in range(0, len(wanted), 500):
        for entry in Entry.objects.filter(key__in=wanted[start : start + 500]).only(
            "key", "version", "response", "status"
        ):
            stored[str(entry.key)] = Stored(
                version=entry.version,
                text=str(entry.response.get(ANSWER_FIELD, "")),
                sent=entry.is_submitted,
            )
    return stored
