"""Where the summary's pages break, and what heads the page after a break."""

import itertools
import subprocess

import pytest

from tests.factories import RESPONSES, AssignmentFactory, EntryFactory, ExerciseFactory

from .conftest import page_count
from .test_render import pdf_for

pytestmark = pytest.mark.django_db


def pages_of(pdf: bytes) -> list[list[str]]:
    """Each page's lines of text, footer included."""
    pages = []
    for number in range(1, page_count(pdf) + 1):
        text = subprocess.run(
            ["pdftotext", "-layout", "-f", str(number), "-l", str(number), "-", "-"],
            input=pdf,
            capture_output=True,
            check=True,
        ).stdout.decode()
        pages.append([line.strip() for line in text.splitlines() if line.strip()])
    return pages


def test_a_section_heading_never_ends_a_page_nor_is_called_continued_where_it_starts(cast):
    """The section after a ladder of every length, a line at a time: wherever
    its heading falls, it goes over with the section's first lines, and the
    page it opens has no "…, continued" above it."""
    ladder = AssignmentFactory.create(
        client=cast.alice, exercise=ExerciseFactory.create(kind="boundary_steps")
    )
    step = RESPONSES["boundary_steps"]()["steps"][0]
    entry = EntryFactory.create(assignment=ladder, response={"steps": [step]})
    crossed = False
    for lines in range(24, 44):
        step["what_happened"] = "\n".join(f"Line {n}." for n in range(lines))
        entry.response = {"steps": [step]}
        entry.save(update_fields=["response"])
        pages = pages_of(pdf_for(cast.tara, cast.alice, full_detail=True))
        ends = [page[-2] for page in pages[:-1]]  # page[-1] is the footer
        assert "Written record" not in ends, f"with {lines} lines, page 1 ends on the heading"
        for page in pages[1:]:
            if "Written record" in page[:2]:  # the page opens on the heading
                assert page[0] == "Written record", f"with {lines} lines: {page[:2]}"
        crossed |= ends[:1] == [f"Line {lines - 1}."]
    # At some length the ladder's last line ended page 1: the heading after
    # it was at the foot of the page, and went over.
    assert crossed


def test_a_boundary_step_goes_over_a_page_break_with_what_happened(cast):
    """Twenty steps, each with a line on what happened, pushed down a line
    at a time: a page never ends on a step whose note opens the next page."""
    ladder = AssignmentFactory.create(
        client=cast.alice, exercise=ExerciseFactory.create(kind="boundary_steps")
    )
    steps = [
        {"boundary": f"Boundary {n}.", "status": "held", "what_happened": f"Note {n}."}
        for n in range(1, 21)
    ]
    entry = EntryFactory.create(assignment=ladder, response={"steps": steps})
    broke_inside = False
    for lines in range(0, 12):
        steps[0]["what_happened"] = "\n".join(["Note 1.", *(f"Line {n}." for n in range(lines))])
        entry.response = {"steps": steps}
        entry.save(update_fields=["response"])
        pages = pages_of(pdf_for(cast.tara, cast.alice, full_detail=True))
        for page, after in itertools.pairwise(pages):
            last = page[-2]  # page[-1] is the footer
            assert not last.split(". ", 1)[0].isdigit(), f"with {lines} lines: {last!r}"
            broke_inside |= after[1].split(". ", 1)[0].isdigit()
    # Some page opened inside the ladder, on a step.
    assert broke_inside


def test_a_section_of_one_line_ends_a_page_rather_than_going_over_with_the_next(cast):
    """A safety plan in brief is its heading and one line. With room for
    those at the foot of a page, but not for the support map after them, the
    plan stays on the page: its line keeps with what follows in its own
    section, never with the next section's heading."""
    ladder = AssignmentFactory.create(
        client=cast.alice, exercise=ExerciseFactory.create(kind="boundary_steps")
    )
    # Planned, not held: no timeline on the first page, so the sections fall where
    # the loop below expects them.
    steps = [{"boundary": f"Boundary {n}.", "status": "planned"} for n in range(1, 21)]
    entry = EntryFactory.create(assignment=ladder, response={"steps": steps})
    for kind in ("safety_plan", "support_network"):
        EntryFactory.create(
            assignment=AssignmentFactory.create(
                client=cast.alice, exercise=ExerciseFactory.create(kind=kind)
            ),
            response=RESPONSES[kind](),
        )
    plan_ended_a_page = False
    for noted in range(0, 21):
        for number, step in enumerate(steps, start=1):
            step["what_happened"] = f"Note {number}." if number <= noted else ""
        entry.response = {"steps": steps}
        entry.save(update_fields=["response"])
        pages = pages_of(pdf_for(cast.tara, cast.alice))
        ends = [page[-2] for page in pages[:-1]]  # page[-1] is the footer
        assert "Safety plan" not in ends, f"with {noted} notes, a page ends on the heading"
        plan_ended_a_page |= any("print only with full detail" in end for end in ends)
    assert plan_ended_a_page
