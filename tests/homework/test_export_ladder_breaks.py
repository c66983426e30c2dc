"""Where the client's download (homework.export) breaks the pages of a
boundary-steps entry: a step's line goes over with the first lines of what
happened when they tried it, never left at the foot of a page alone."""

import datetime as dt
import re

import pytest
from django.utils import timezone

from homework import export
from homework.models import Entry
from tests.factories import AssignmentFactory, EntryFactory, boundary_steps, written_record
from tests.helpers_pdf import downloads_pushed_down, pages_of

pytestmark = pytest.mark.django_db

STEPS = 4
# A step's line as the download prints it: "Boundary 3.Tried it· planned for
# 5 Jan 2026· felt 6/10". Its list number and the chart's labels (the boundary
# again) come out of the PDF as lines of their own, so they never match.
STEP_LINE = re.compile(r"Boundary (\d+)\..*felt \d+/10")


def ladder_after_a_record(cast, *, note_lines: tuple[int, ...] = (6,) * STEPS) -> Entry:
    """Alice's ladder of steps, each with its ``note_lines`` lines of what
    happened, after a written record (returned) that pushes it down the page."""
    Entry.objects.filter(assignment__client=cast.alice).delete()
    now = timezone.localtime()
    first = EntryFactory.create(
        assignment=cast.alice_assignment,
        response={**written_record(), "occurred_at": (now - dt.timedelta(days=9)).isoformat()},
    )
    ladder = AssignmentFactory.create(client=cast.alice, exercise__kind="boundary_steps")
    steps = [
        {
            "boundary": f"Boundary {n}.",
            "planned_on": "2026-01-05",
            "status": "tried",
            "what_happened": "\n".join(f"Step {n}, line {i}." for i in range(1, lines + 1)),
            "feeling": 6,
        }
        for n, lines in enumerate(note_lines, start=1)
    ]
    EntryFactory.create(assignment=ladder, response=boundary_steps(steps=steps))
    return first


def page_of_each(pages: list[list[str]], pattern: re.Pattern[str]) -> dict[int, int]:
    """The page (from 1) each step's line, or its note's first line, is on."""
    return {
        int(match[1]): number
        for number, lines in enumerate(pages, start=1)
        for line in lines
        if (match := pattern.fullmatch(line))
    }


def test_a_step_of_the_ladder_keeps_with_what_happened_across_a_page(cast):
    """The ladder pushed down a line at a time, by more than a step's height,
    so a page's foot falls at every place in a step: each step's line is on
    the page where its note begins (a page that ended on "Boundary 3. Tried
    it" read as a step with nothing said about it)."""
    first = ladder_after_a_record(cast)
    went_over_whole = False
    for pushed, pages in downloads_pushed_down(cast, first, pushes=9):
        step_pages = page_of_each(pages, STEP_LINE)
        note_pages = page_of_each(pages, re.compile(r"Step (\d+), line 1\."))
        assert sorted(step_pages) == sorted(note_pages) == list(range(1, STEPS + 1))
        for step, page in step_pages.items():
            assert note_pages[step] == page, (
                f"pushed {pushed} lines: step {step} is on page {page}, "
                f"what happened on page {note_pages[step]}"
            )
        went_over_whole |= any(STEP_LINE.fullmatch(lines[0]) for lines in pages[1:])
    # At some push a step went over to open a page, its line and its note.
    assert went_over_whole


def test_a_step_with_a_long_note_runs_on_where_the_page_ends(cast):
    """Kept together by its line and its note's first lines, not moved whole:
    a step with a long note that meets the page's foot starts on that page
    and goes on over the next, as a long record does, rather than leaving
    most of a page blank above it."""
    ladder_after_a_record(cast, note_lines=(30, 6, 6, 6))
    pages = pages_of(export.export_pdf(user=cast.alice.portal_user))
    step_pages = page_of_each(pages, STEP_LINE)
    assert step_pages[1] == page_of_each(pages, re.compile(r"Step (\d+), line 1\."))[1] == 1
    assert page_of_each(pages, re.compile(r"Step (\d+), line 30\."))[1] == 2
