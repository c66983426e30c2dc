"""Where the client's download (homework.export) breaks its pages: a label
never ends a page whose words open the next, and an entry's "When" goes
over with what happened."""

import datetime as dt

import pytest
from django.utils import timezone

from homework.models import Entry, EntryNote
from tests.factories import EntryFactory, written_record
from tests.helpers_pdf import downloads_pushed_down

pytestmark = pytest.mark.django_db

# The labels of a written record as the download prints them (its portal display).
LABELS = {
    "When",
    "What happened",
    "What was said or done",
    "Distress in the body",
    "What I told myself afterwards",
    "To remember when I miss them",
    "Notes I added later",
}


def long_records(cast, *, lines: int) -> Entry:
    """Three of Alice's records of ``lines`` lines each, every answer and a
    note given, after a first one (returned) to push them down the page.
    Its own note is in the smaller type of notes: pushed a line at a time,
    the page's foot then falls at more places than whole lines of text do."""
    Entry.objects.filter(assignment__client=cast.alice).delete()
    now = timezone.localtime()
    first = EntryFactory.create(
        assignment=cast.alice_assignment,
        response={**written_record(), "occurred_at": (now - dt.timedelta(days=9)).isoformat()},
    )
    EntryNote.objects.create(entry=first, text="A note that pushes a little.")
    for n in range(1, 4):
        entry = EntryFactory.create(
            assignment=cast.alice_assignment,
            response={
                **written_record(
                    what_happened="\n".join(f"Record {n}, line {i}." for i in range(1, lines + 1)),
                    what_was_said_or_done=f"Said in record {n}.",
                    what_i_told_myself=f"Afterwards in record {n}.",
                    remember_when_i_miss_them=f"To remember from record {n}.",
                ),
                "body_distress": 5,
                "occurred_at": (now - dt.timedelta(days=8 - n)).isoformat(),
            },
        )
        EntryNote.objects.create(entry=entry, text=f"A note on record {n}.")
    return first


def test_no_page_of_the_download_ends_on_a_label_or_an_entry_cut_off_after_when(cast):
    """The records pushed down a line at a time, by more than a whole record's
    height, so a page's foot falls at every place in one: each label keeps
    its first line on its page, and each "When" has what happened after it
    (a page that ended on an entry's date, its "When" and nothing of what
    happened read as an entry left empty)."""
    first = long_records(cast, lines=8)
    went_over_whole = False
    for pushed, pages in downloads_pushed_down(cast, first, pushes=44):
        assert len(pages) > 1
        for number, lines in enumerate(pages, start=1):
            where = f"pushed {pushed} lines, page {number}"
            assert lines[-1] not in LABELS, f"{where} ends on {lines[-1]!r}"
            for at, line in enumerate(lines):
                if line == "When":  # its date, then what happened and its first line
                    after = lines[at + 2 : at + 4]
                    assert len(after) == 2 and after[0] == "What happened", (
                        f"{where} ends {lines[at:]}"
                    )
        went_over_whole |= any(
            lines[2:3] == ["When"] and lines[4:5] == ["What happened"] for lines in pages[1:]
        )
    # At some push a record's head went over to open a page, whole.
    assert went_over_whole
