"""The caseload page at 200 clients, against its own template given the same
rows from memory.

Each client has what a busy caseload holds: a daily urge log kept for two
months, daily written work, a one-off exercise, flagged entries, a session
booked and a contact profile checked. The page is the view itself (its
queries, its counting, its template); the floor is the same template
rendered from the rows the view computed, kept in memory. Rounds alternate
the two, and the figure is the median of their ratios: the goal is at
most 3x (issue 26's figures).
"""

import functools

from bench.figures import Figure
from bench.summary import median, paired_ratio, print_figures_on_sqlite, timed

CLIENTS = 200
ROUNDS = 9
GOAL = 3.0


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


@functools.cache
def _therapist():
    therapist = _caseload_of(CLIENTS)
    _analyze()
    return therapist


def figures() -> list[Figure]:
    from django.contrib import admin
    from django.db import connection
    from django.template.response import SimpleTemplateResponse, TemplateResponse
    from django.test import RequestFactory
    from django.test.utils import CaptureQueriesContext

    from homework.workspace.caseload import caseload_view

    therapist = _therapist()
    site = admin.site

    def request():
        made = RequestFactory().get("/admin/caseload/")
        made.user = therapist
        # What django-otp's middleware says of a therapist who has passed the second step.
        therapist.is_verified = lambda: True
        return made

    def page() -> SimpleTemplateResponse:
        response = caseload_view(request(), site=site)
        assert isinstance(response, TemplateResponse)
        return response.render()

    first = page()
    context = first.context_data or {}
    rows = context["rows"]
    assert len(rows) == CLIENTS, len(rows)

    def from_memory() -> SimpleTemplateResponse:
        return TemplateResponse(request(), first.template_name, context).render()

    with CaptureQueriesContext(connection) as captured:
        page()
    pages, floors = [], []
    for _ in range(ROUNDS):
        pages.append(timed(page))
        floors.append(timed(from_memory))
    return [
        Figure(
            f"Caseload at {CLIENTS} clients / its template from memory",
            paired_ratio(pages, floors, 0),
            GOAL,
            note=f"{median(pages, 0) * 1000:.0f} ms, {len(captured.captured_queries)} queries",
        )
    ]


if __name__ == "__main__":
    print_figures_on_sqlite(figures, "caseload-bench-")
