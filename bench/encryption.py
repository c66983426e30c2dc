"""What encrypting clients' words at rest costs the pages that read the most of them.

Two copies of the typical client (three weeks, ~40 entries of all six kinds,
with drafts, notes and the therapist's comments), made from the same seed:
one written and read with the real keys, one with encryption off (this
module's identity codec in place of ``practice.encryption.codec`` for a
while): the same code path, the same rows, no cipher. Measured, in rounds that alternate which goes first:

- the session summary, as the therapist prints it (our queries, templates
  and charts, then WeasyPrint), and our part of it alone, where every
  response is opened;
- the client's To do page (drafts, recent entries, comments), over HTTP
  through Django's test client.

Figures are the median of the paired ratios (encrypted / plain) of each
round. Budget: at most 1.1x for the summary and the To do page.
"""

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

from bench.figures import Figure
from bench.summary import median, paired_ratio, print_figures_on_sqlite, timed

ROUNDS = 5  # a repeat; the runner reports the median of 3
BUDGET = 1.1


class IdentityCodec:
    """Stores values as they are: the "encryption off" rounds time the same
    code path without the cipher."""

    def encrypt(self, data: bytes) -> bytes:
        return data

    def decrypt(self, token: bytes) -> bytes:
        return token

    def rotate(self, token: bytes) -> bytes:
        return token


IDENTITY = IdentityCodec()


def identity_codec() -> IdentityCodec:
    return IDENTITY


@contextmanager
def encryption_off() -> Iterator[None]:
    """The encrypted fields seal and open with the identity codec for a while
    (they ask ``practice.encryption.codec()`` for theirs on every value)."""
    import practice.encryption

    # A plain function, not a Mock: a Mock's bookkeeping per value would slow the "off" side.
    with mock.patch.object(practice.encryption, "codec", identity_codec):
        yield


def _client_with_words(name: str, *, seed: int):
    """The typical client's records, plus a draft, notes and comments, and a
    portal account; returns (therapist, client, portal user)."""
    import uuid

    from bench.clients import add_other_kinds, client_with_records
    from homework.models import Entry, EntryComment, EntryNote
    from practice.models import User

    therapist, client = client_with_records(name, days=21, per_day=10 / 21, seed=seed)
    add_other_kinds(client, therapist, days=21, seed=seed + 2)
    client.portal_user = User.objects.create_user(email=f"{name}@bench.test", name=name)
    client.save(update_fields=["portal_user"])
    sent = list(Entry.objects.filter(assignment__client=client, status="submitted")[:6])
    for entry in sent:
        EntryNote.objects.create(entry=entry, text="I remembered more after I sent it. " * 6)
        EntryComment.objects.create(
            entry=entry, author=therapist, text="Thank you for writing this down. " * 4
        )
    assignment = sent[0].assignment
    Entry.objects.create(
        key=uuid.uuid4(),
        assignment=assignment,
        schema_version=1,
        response={"what_happened": "Half written, to finish tonight. " * 10},
        note_draft="A note I could not send yet.",
    )
    return therapist, client, client.portal_user


@functools.cache
def _cases():
    """The same client twice, sealed and plain, made once for every repeat."""
    encrypted = _client_with_words("Sealed", seed=11)
    with encryption_off():
        plain = _client_with_words("Plain", seed=11)
    return encrypted, plain


def figures() -> list[Figure]:
    from django.test import Client as HttpClient
    from django.urls import reverse
    from django.utils import timezone

    from homework.selectors.period import PeriodQuery
    from homework.summary import render, selectors

    encrypted, plain = _cases()

    def our_part(therapist, client) -> render.SummaryDocument:
        now = timezone.now()
        period = selectors.resolve_period(
            user=therapist, client=client, query=PeriodQuery(), now=now
        )
        data = selectors.summary_data(
            user=therapist, client=client, period=period, full_detail=False, now=now
        )
        return render.summary_document(data)

    def whole_summary(therapist, client) -> bytes:
        return render.render_summary_pdf(our_part(therapist, client), generated_at=timezone.now())

    def todo_page(http: HttpClient) -> None:
        page = http.get(reverse("homework:dashboard"))
        assert page.status_code == 200, page.status_code

    def measures(case):
        therapist, client, person = case
        http = HttpClient()
        http.force_login(person)
        return {
            "summary": functools.partial(whole_summary, therapist, client),
            "ours": functools.partial(our_part, therapist, client),
            "todo": functools.partial(todo_page, http),
        }

    on, off = measures(encrypted), measures(plain)
    samples: dict[tuple[str, str], list[tuple[float, float]]] = {
        (which, side): [] for which in on for side in ("on", "off")
    }

    def sample(which: str, side: str) -> None:
        if side == "on":
            samples[which, side].append(timed(on[which]))
        else:
            with encryption_off():
                samples[which, side].append(timed(off[which]))

    for which in on:  # warm every path once
        sample(which, "on")
        sample(which, "off")
    samples = {key: [] for key in samples}
    for round_number in range(ROUNDS):
        order = ("on", "off") if round_number % 2 == 0 else ("off", "on")
        for which in on:
            for side in order:
                sample(which, side)

    def ratio(which: str) -> float:
        return paired_ratio(samples[which, "on"], samples[which, "off"], 0)

    def note(which: str) -> str:
        on_ms, off_ms = (median(samples[which, side], 0) * 1000 for side in ("on", "off"))
        return f"{on_ms:.0f} ms encrypted, {off_ms:.0f} ms plain"

    return [
        Figure("Encryption: summary PDF, encrypted / plain", ratio("summary"), BUDGET,
               note=note("summary")),
        Figure("  its our-part alone, encrypted / plain", ratio("ours"), None, note=note("ours")),
        Figure("Encryption: To do page, encrypted / plain", ratio("todo"), BUDGET,
               note=note("todo")),
    ]  # fmt: skip


if __name__ == "__main__":
    print_figures_on_sqlite(figures, "encryption-bench-", digits=3)
