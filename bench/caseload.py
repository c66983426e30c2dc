"""The caseload page at 200 clients, against its own template given the same
rows from memory.

Each client has what a busy caseload holds: a daily urge log kept for two
months, daily written work, a one-off exercise, flagged entries, a session
booked and a contact profile checked. The page is the view itself (its
queries, its counting, its template); the floor is the same template
rendered from the rows the view computed, kept in memory. Rounds alternate
the two, and the figure is the median of their ratios: the goal is at
most 3x (issue 26's figures).

The Measures column (issue 37): every client has also sent a year of weekly
PHQ-9 and GAD-7, and the page is timed against itself with the column
switched off in this benchmark only (its selector patched to find nothing
and its heading taken out; the row's empty cell stays, a few characters). Of
the two baselines the issue offers this is the honest one: a caseload with
no measure entries at all would also drop the two weekly assignments a client
has, which the Done columns count, and charge their cost to the column; the
patch changes nothing in the app, which has one path. Goal: at most 1.2x.
"""

import functools
from unittest import mock

from bench.figures import Figure
from bench.summary import median, paired_ratio, paired_timings, print_figures_on_sqlite

CLIENTS = 200
ROUNDS = 9
GOAL = 3.0
MEASURES_GOAL = 1.2
WEEKS = 52


def _caseload_of(clients: int):
    """A therapist with ``clients`` active clients; the therapist."""
    import datetime as dt
    import uuid

    from django.utils import timezone

    from clients.contact.models import ContactProfile
    from clients.models import Client, Session
    from homework.models import Assignment, Entry, Exercise
    from practice.models import User

    therapist = User.objects.create_user(
        email="caseload@bench.test", name="Robin Hale", role="therapist", is_staff=True
    )
    urge = Exercise.objects.create(kind="urge_log", title="Urges", instructions="Log it.")
    record = Exercise.objects.create(kind="written_record", title="Record", instructions="Note.")
    now = timezone.now()
    today = timezone.localdate()
    entries: list[Entry] = []
    for number in range(clients):
        client = Client.objects.create(therapist=therapist, display_name=f"Client {number:03d}")
        Session.objects.create(client=client, starts_at=now + dt.timedelta(days=1 + number % 9))
        ContactProfile.objects.create(client=client, checked_on=today - dt.timedelta(days=number))
        log, daily, once = (
            Assignment.objects.create(
                client=client,
                exercise=exercise,
                starts_on=today - dt.timedelta(days=60),
                schedule=schedule,
                ends_on=today + dt.timedelta(days=30) if schedule == "daily" else None,
                due_on=today - dt.timedelta(days=2) if schedule == "once" else None,
                created_by=therapist,
            )
            for exercise, schedule in ((urge, "daily"), (record, "daily"), (record, "once"))
        )
        for day in range(60):
            at = now - dt.timedelta(days=day, hours=2)
            shared = {"submitted_at": at, "shared_at": at, "status": Entry.Status.SUBMITTED}
            entries.append(
                Entry(
                    key=uuid.uuid4(),
                    assignment=log,
                    schema_version=1,
                    occurrence_on=timezone.localdate(at),
                    felt_unsafe=day == number % 30,
                    # The pull kept plain, as the services do (UrgeLog.score).
                    score=float(max(0, 9 - day // 8 + number % 3)),
                    response={
                        "at": at.isoformat(),
                        "intensity": max(0, 9 - day // 8 + number % 3),
                        "trigger": "memory",
                        "did_instead": "Went for a walk.",
                        "contact_happened": False,
                        "contact_initiated_by": "none",
                    },
                    **shared,
                )
            )
            if day % 2:
                entries.append(
                    Entry(
                        key=uuid.uuid4(),
                        assignment=daily,
                        schema_version=1,
                        occurrence_on=timezone.localdate(at),
                        discuss_in_session=day == 3,
                        response={"what_happened": "A quiet evening."},
                        **shared,
                    )
                )
        del once  # nothing sent: past due
    Entry.objects.bulk_create(entries, batch_size=1000)
    return therapist


def _analyze() -> None:
    """Planner statistics for the rows just inserted, as autovacuum keeps
    them on a running server: without them PostgreSQL guesses one row per
    table and plans the caseload's subqueries as nested scans (1.4 s, not 0.15)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def _measures_for(therapist) -> int:
    """A year of weekly PHQ-9 and GAD-7 for each of the therapist's clients, sent complete, the
    totals drifting down as a course of therapy might; the number of entries."""
    import datetime as dt
    import uuid

    from django.utils import timezone

    from clients.models import Client
    from homework.kinds import get_kind
    from homework.models import Assignment, Entry, Exercise

    answers = ["Not at all", "Several days", "More than half the days", "Nearly every day"]
    now = timezone.now()
    today = timezone.localdate()
    entries = []
    for title, prefix, items in (("PHQ-9", "phq9", 9), ("GAD-7", "gad7", 7)):
        exercise = Exercise.objects.get(title=title, owner__isnull=True)
        kind = get_kind(exercise.kind)
        for number, client in enumerate(Client.objects.filter(therapist=therapist)):
            assignment = Assignment.objects.create(
                client=client,
                exercise=exercise,
                starts_on=today - dt.timedelta(weeks=WEEKS),
                schedule="weekly",
                weekdays=[0],
                ends_on=today + dt.timedelta(weeks=4),
                created_by=therapist,
            )
            for week in range(WEEKS):
                at = now - dt.timedelta(weeks=week, hours=3)
                level = min(3, (week + number % 5) // 13)  # higher further back
                response = {f"{prefix}_{n}": answers[level] for n in range(1, items + 1)}
                entries.append(
                    Entry(
                        key=uuid.uuid4(),
                        assignment=assignment,
                        schema_version=1,
                        occurrence_on=timezone.localdate(at),
                        status=Entry.Status.SUBMITTED,
                        submitted_at=at,
                        shared_at=at,
                        response=response,
                        score=kind.score(response, exercise=exercise),
                    )
                )
    Entry.objects.bulk_create(entries, batch_size=1000)
    return len(entries)


@functools.cache
def _therapist():
    therapist = _caseload_of(CLIENTS)
    _measures_for(therapist)
    _analyze()
    return therapist


def figures() -> list[Figure]:
    from django.contrib import admin
    from django.db import connection
    from django.template.response import SimpleTemplateResponse, TemplateResponse
    from django.test import RequestFactory
    from django.test.utils import CaptureQueriesContext

    from homework.selectors import caseload as caseload_selectors
    from homework.workspace import caseload as caseload_page
    from homework.workspace.caseload import caseload_view

    site = admin.site

    def request(therapist):
        made = RequestFactory().get("/admin/caseload/")
        made.user = therapist
        # What django-otp's middleware says of a therapist who has passed the second step.
        therapist.is_verified = lambda: True
        return made

    def page_of(therapist) -> SimpleTemplateResponse:
        response = caseload_view(request(therapist), site=site)
        assert isinstance(response, TemplateResponse)
        return response.render()

    therapist = _therapist()

    def page() -> SimpleTemplateResponse:
        return page_of(therapist)

    first = page()
    context = first.context_data or {}
    rows = context["rows"]
    assert len(rows) == CLIENTS, len(rows)
    # Every client's column reads both measures, so the figure times the real work.
    assert all(len(row.measures) == 2 for row in rows), "measures missing"

    def from_memory() -> SimpleTemplateResponse:
        return TemplateResponse(request(therapist), first.template_name, context).render()

    def without_the_column() -> SimpleTemplateResponse:
        with (
            mock.patch.object(caseload_selectors, "measure_changes", return_value={}),
            mock.patch.object(
                caseload_page,
                "COLUMNS",
                [column for column in caseload_page.COLUMNS if column[0] != "measures"],
            ),
        ):
            return page()

    with CaptureQueriesContext(connection) as captured:
        page()
    with CaptureQueriesContext(connection) as without_queries:
        without_the_column()
    pages, floors = paired_timings(page, from_memory, ROUNDS)
    measured, plain = paired_timings(page, without_the_column, ROUNDS)
    return [
        Figure(
            f"Caseload at {CLIENTS} clients / its template from memory",
            paired_ratio(pages, floors, 0),
            GOAL,
            note=f"{median(pages, 0) * 1000:.0f} ms, {len(captured.captured_queries)} queries",
        ),
        Figure(
            f"Caseload at {CLIENTS} clients, a year of weekly PHQ-9 and GAD-7 each, "
            "with its Measures column / without it",
            paired_ratio(measured, plain, 0),
            MEASURES_GOAL,
            note=(
                f"{median(measured, 0) * 1000:.0f} ms against {median(plain, 0) * 1000:.0f} ms "
                f"(this process's CPU alone {paired_ratio(measured, plain, 1):.2f}x), "
                f"{len(captured.captured_queries)} queries against "
                f"{len(without_queries.captured_queries)}"
            ),
        ),
    ]


if __name__ == "__main__":
    print_figures_on_sqlite(figures, "caseload-bench-")
