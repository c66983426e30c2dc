"""The cycle on one timeline: what each kind puts on it, who sees what, its
text alternative, where it is shown, and that a year costs what a week does."""

import datetime as dt
import re
import xml.etree.ElementTree as ET
from typing import Any
from zoneinfo import ZoneInfo

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from homework.kinds import charts, get_kind
from homework.kinds.charts import Lane, TimelinePoint
from homework.kinds.timeline import timeline_of
from homework.models import Entry
from homework.selectors.period import period_for_dates
from practice.dates import calendar_day
from tests.conftest import login
from tests.factories import (
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    boundary_steps,
    options_for,
    urge_log,
)
from tests.helpers_summary import summary_document

SVG = "{http://www.w3.org/2000/svg}"
UTC = ZoneInfo("UTC")


def noon(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(12)))


def assignment_of(client, kind: str):
    return AssignmentFactory.create(
        client=client, exercise=ExerciseFactory.create(kind=kind, options=options_for(kind))
    )


def record(
    assignment, day: dt.date, distress: int | None = 6, at: dt.datetime | None = None, **fields
) -> Entry:
    at = at or noon(day)
    response = {
        "occurred_at": at.isoformat(),
        "what_happened": "They went quiet all evening.",
        "body_distress": distress,
    }
    return EntryFactory.create(assignment=assignment, submitted_at=at, response=response, **fields)


def urge(assignment, day: dt.date, at: dt.datetime | None = None, **changes) -> Entry:
    at = at or noon(day)
    response = {**urge_log(), "at": at.isoformat(), "intensity": 7, **changes}
    return EntryFactory.create(
        assignment=assignment, submitted_at=at, occurrence_on=day, response=response
    )


def steps(assignment, day: dt.date, *rows) -> Entry:
    response = boundary_steps(steps=[{"boundary": text, "status": s} for text, s in rows])
    return EntryFactory.create(assignment=assignment, submitted_at=noon(day), response=response)


def points_of(entry: Entry) -> list[TimelinePoint]:
    return get_kind(entry.assignment.exercise.kind).timeline_points(entry, zone=UTC)


# -- what each kind contributes ---------------------------------------------------


def test_each_kind_puts_only_what_its_entry_says_on_the_timeline(cast):
    day = dt.date(2026, 3, 4)
    records = assignment_of(cast.alice, "written_record")
    assert points_of(record(records, day, 8)) == [TimelinePoint(day, Lane.RECORD, 8)]
    # Distress left blank: on the timeline, with no number (never a 0).
    assert points_of(record(records, day, None)) == [TimelinePoint(day, Lane.RECORD, None)]

    urges = assignment_of(cast.alice, "urge_log")
    assert points_of(urge(urges, day, intensity=4)) == [TimelinePoint(day, Lane.URGE, 4)]
    # Contact is on it only where the client said there was, with who reached
    # out as they said it, or unsaid ("") when they did not say.
    for by, mark in (("me", "me"), ("them", "them"), ("", "")):
        entry = urge(urges, day, contact_happened=True, contact_initiated_by=by)
        assert points_of(entry)[1] == TimelinePoint(day, Lane.CONTACT, mark=mark)
    not_answered = urge(urges, day, intensity=None, contact_initiated_by="")
    assert points_of(not_answered) == [TimelinePoint(day, Lane.URGE, None)]

    ladder = assignment_of(cast.alice, "boundary_steps")
    sent = steps(ladder, day, ("No calls after 10", "held"), ("Lunch", "tried"), ("Gym", "planned"))
    assert [(p.lane, p.mark) for p in points_of(sent)] == [
        (Lane.BOUNDARY, "held"),
        (Lane.BOUNDARY, "tried"),
    ]
    # Nothing for kinds with nothing to say on a timeline.
    assert points_of(EntryFactory.create(assignment=assignment_of(cast.alice, "safety_plan"))) == []


def test_a_step_sent_again_in_each_update_is_drawn_once_on_the_day_first_said(cast):
    ladder = assignment_of(cast.alice, "boundary_steps")
    first, later = dt.date(2026, 3, 2), dt.date(2026, 3, 9)
    points = [
        *points_of(steps(ladder, first, ("No calls after 10", "tried"))),
        *points_of(steps(ladder, later, ("No calls after 10", "tried"))),
        *points_of(steps(ladder, later + dt.timedelta(days=1), ("No calls after 10", "held"))),
    ]
    drawn = charts.timeline(
        points, since=first, until=later + dt.timedelta(days=3), for_client=False
    )
    assert drawn is not None
    assert [(p.on, p.mark) for p in drawn.points] == [
        (first, "tried"),
        (later + dt.timedelta(days=1), "held"),
    ]


# -- who sees what ------------------------------------------------------------------


def two_kinds(cast, day: dt.date) -> tuple[Entry, Entry]:
    return (
        record(assignment_of(cast.alice, "written_record"), day, 7),
        urge(
            assignment_of(cast.alice, "urge_log"),
            day,
            contact_happened=True,
            contact_initiated_by="them",
        ),
    )


def test_staff_never_see_drafts_or_private_entries_the_client_sees_their_own(cast):
    day = dt.date(2026, 3, 4)
    records = assignment_of(cast.alice, "written_record")
    urges = assignment_of(cast.alice, "urge_log")
    private = record(records, day, 9, private=True)
    draft = urge(urges, day)
    Entry.objects.filter(pk=draft.pk).update(
        status=Entry.Status.DRAFT, submitted_at=None, shared_at=None
    )
    draft.refresh_from_db()
    shared = urge(urges, day, intensity=3)
    window: dict[str, Any] = {"since": day, "until": day, "zone": UTC}

    # Staff: one kind left (the shared urge), so no timeline at all.
    assert timeline_of([private, draft, shared], for_client=False, **window) is None
    # The client's own: their private record is theirs; a draft is never on it.
    mine = timeline_of([private, draft, shared], for_client=True, **window)
    assert mine is not None
    assert [(p.lane, p.value) for p in mine.points] == [(Lane.RECORD, 9), (Lane.URGE, 3)]


def test_one_kind_alone_or_nothing_in_the_period_draws_no_timeline(cast):
    day = dt.date(2026, 3, 4)
    one = [record(assignment_of(cast.alice, "written_record"), day)]
    assert timeline_of(one, since=day, until=day, zone=UTC, for_client=True) is None
    both = two_kinds(cast, day)
    later = day + dt.timedelta(days=30)
    assert timeline_of(both, since=later, until=later, zone=UTC, for_client=False) is None
    assert charts.timeline([], since=day, until=day, for_client=False) is None


# -- the picture and its text alternative ---------------------------------------------


def test_the_picture_has_a_title_a_description_a_table_and_dates_on_its_axis(cast):
    start = timezone.localdate() - dt.timedelta(days=9)
    entries = [
        *two_kinds(cast, start),
        record(assignment_of(cast.alice, "written_record"), start + dt.timedelta(days=3), None),
    ]
    drawn = timeline_of(
        entries, since=start, until=timezone.localdate(), zone=UTC, for_client=False
    )
    assert drawn is not None
    svg = ET.fromstring(drawn.svg)  # noqa: S314 (our own output, parsed to prove it is well formed)
    assert svg.get("role") == "img"
    title, desc = svg.find(f"{SVG}title"), svg.find(f"{SVG}desc")
    assert title is not None and desc is not None
    assert (title.text or "").startswith("What happened, day by day")
    assert desc.text == "2 written records, 1 urge logged, contact on 1 day."
    labels = [t.text or "" for t in svg.iter(f"{SVG}text")]
    lane_names = [label for label in labels if not label[:1].isdigit()]
    assert lane_names[:3] == ["Written records", "Urges", "Contact"]  # only lanes with something
    assert labels.count("10") == labels.count("0") == 2  # each valued lane's own scale
    assert calendar_day(start, "j M") in labels
    assert calendar_day(timezone.localdate(), "j M") in labels
    assert not any(label.startswith("Day") for label in labels)
    # The table: only days with something, each lane's cell in words; a blank
    # distress is a record with no number, never "0".
    assert drawn.headings == ["Written records", "Urges", "Contact"]
    assert [row.cells for row in drawn.rows] == [
        [
            "1 record, distress up to 7/10",
            "1 urge, pull up to 7/10",
            "the other person reached out",
        ],
        ["1 record", "", ""],
    ]
    assert "| logged, with no number given" in drawn.legend


def test_the_clients_own_timeline_speaks_in_their_voice():
    point = TimelinePoint(dt.date(2026, 3, 4), Lane.CONTACT, mark="me")
    urge_point = TimelinePoint(dt.date(2026, 3, 4), Lane.URGE, 5)
    day = dt.date(2026, 3, 4)
    mine = charts.timeline([point, urge_point], since=day, until=day, for_client=True)
    staff = charts.timeline([point, urge_point], since=day, until=day, for_client=False)
    assert mine is not None and staff is not None
    assert mine.rows[0].cells[1] == "I reached out"
    assert staff.rows[0].cells[1] == "the client reached out"


def test_a_year_is_drawn_with_as_many_elements_as_a_week_and_counted_by_week():
    today = dt.date(2026, 6, 30)

    def drawn(days: int):
        points = [
            point
            for n in range(days)
            for point in (
                TimelinePoint(today - dt.timedelta(days=n), Lane.URGE, n % 11),
                TimelinePoint(today - dt.timedelta(days=n), Lane.RECORD, None if n % 3 else 5),
                TimelinePoint(
                    today - dt.timedelta(days=n), Lane.CONTACT, mark=("me", "them", "")[n % 3]
                ),
            )
        ]
        since = today - dt.timedelta(days=days - 1)
        return charts.timeline(points, since=since, until=today, for_client=False)

    week, year = drawn(7), drawn(365)
    elements = [len(list(ET.fromstring(t.svg).iter())) for t in (week, year)]  # noqa: S314
    assert elements[0] == elements[1]
    assert not week.by_week and len(week.rows) == 7
    assert year.by_week and len(year.rows) <= 54
    assert year.rows[0].label.startswith("Week of ")


# -- where it is shown -----------------------------------------------------------------


def summary_html(cast, since: dt.date, *, full_detail: bool = True) -> str:
    period = period_for_dates(since=since, until=timezone.localdate(), session=None)
    return summary_document(cast, period, full_detail=full_detail).html


def test_the_summary_has_the_timeline_only_with_two_kinds_in_its_period(cast):
    since = timezone.localdate() - dt.timedelta(days=6)
    # The cast's one written record: a single kind.
    assert "On one timeline" not in summary_html(cast, since)
    urge(assignment_of(cast.alice, "urge_log"), timezone.localdate(), intensity=8)
    for full_detail in (True, False):
        html = summary_html(cast, since, full_detail=full_detail)
        assert "On one timeline" in html
        assert "1 written record, 1 urge logged." in html


def test_since_last_session_shows_the_same_timeline_without_private_entries(cast):
    today = timezone.localdate()
    an_hour_ago = timezone.now() - dt.timedelta(hours=1)
    record(cast.alice_assignment, today, 9, at=an_hour_ago, private=True)
    page = login(cast.tara).get(
        reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])
    )
    assert "On one timeline" not in page.text  # one kind shared
    urge(assignment_of(cast.alice, "urge_log"), today, at=an_hour_ago, intensity=8)
    page = login(cast.tara).get(
        reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])
    )
    assert "On one timeline" in page.text
    assert "distress up to 9/10" not in page.text  # the private record stays private


def test_the_progress_page_shows_the_clients_own_timeline_in_constant_queries(cast):
    today = timezone.localdate()
    records = cast.alice_assignment
    urges = assignment_of(cast.alice, "urge_log")
    record(records, today, 9, private=True)
    urge(urges, today, intensity=4, contact_happened=True, contact_initiated_by="me")
    client = login(cast.alice.portal_user)

    client.get(reverse("homework:progress"))  # the sign-in's own first writes, out of the count

    def queries() -> tuple[int, str]:
        with CaptureQueriesContext(connection) as captured:
            page = client.get(reverse("homework:progress"))
        assert page.status_code == 200
        return len(captured), page.text

    week_count, page = queries()
    assert "On one timeline" in page
    assert "distress up to 9/10" in page  # their own private record, theirs to see
    assert "I reached out" in page
    for n in range(1, 365):
        day = today - dt.timedelta(days=n)
        record(records, day, n % 11)
        urge(urges, day, intensity=n % 11)
    year_count, page = queries()
    assert year_count == week_count
    assert re.search(r"<svg[^>]*aria-labelledby", page)


def test_marks_on_one_day_stand_one_above_another_and_the_lane_grows_to_hold_them():
    """Two steps on a day drew one diamond over the other; a step held and one tried, only the
    held. Each is now a mark of its own."""
    day = dt.date(2026, 3, 4)

    def diamonds(*marks: str) -> tuple[list[tuple[str, float]], float]:
        points = [
            TimelinePoint(day, Lane.URGE, 5),
            *(
                TimelinePoint(day, Lane.BOUNDARY, mark=mark, key=(n, mark))
                for n, mark in enumerate(marks)
            ),
        ]
        drawn = charts.timeline(points, since=day, until=day, for_client=False)
        assert drawn is not None
        svg = ET.fromstring(drawn.svg)  # noqa: S314 (our own output)
        found = [
            (path.get("fill", ""), float(top))
            for path in svg.iter(f"{SVG}path")
            if path.get("stroke-width") == "1.5" and path.get("fill") != "none"
            for top in re.findall(r"M[\d.]+ ([\d.]+)l", path.get("d", ""))
        ]
        return found, float(svg.get("height", 0))

    one, one_high = diamonds("held")
    held_and_tried, _height = diamonds("held", "tried")
    two_held, two_high = diamonds("held", "held")
    assert len(one) == 1
    assert sorted(fill for fill, _top in held_and_tried) == ["#2f5f58", "#fff"]
    [(_first, upper), (_second, lower)] = two_held
    assert lower - upper >= 12  # apart, not one over the other
    assert two_high > one_high
