"""A client's measures as FHIR (issue 37): a year of weekly PHQ-9, GAD-7 and PCL-5 for one
client, the export against serialising the same rows as plain JSON.

The export is the route's own view (its queries, decrypting each response, building the
resources, checking the Bundle against fhir.resources' R4B models, rendering); the floor reads
the same rows (the same decryption) and hands their responses and scores, as plain dicts, to
json.dumps. Rounds alternate the two (bench.summary.paired_timings), and the figure is the median of their CPU-time ratios:
the goal is at most 3x. The floor lives here, not in the app: it is a yardstick, not a second
way to export."""

import functools
import json

from bench.figures import Figure
from bench.summary import median, paired_ratio, paired_timings, print_figures_on_sqlite

WEEKS = 52
ROUNDS = 9
GOAL = 3.0
CPU = 1  # timed() gives (wall, cpu): the machine is shared


def _pcl5_shaped():
    """The library's PCL-5 where the branch has it; else one of the same shape (20 items scored
    0 to 4, four subscales), so the export does the same work."""
    from homework.models import Exercise

    found = Exercise.objects.filter(title="PCL-5", kind="worksheet").first()
    if found is not None:
        return found
    choices = ["Not at all", "A little bit", "Moderately", "Quite a bit", "Extremely"]
    clusters = {"b": range(1, 6), "c": range(6, 8), "d": range(8, 15), "e": range(15, 21)}
    return Exercise.objects.create(
        kind="worksheet",
        title="PCL-5",
        instructions="In the past month, how much were you bothered by:",
        options={
            "questions": [
                {
                    "key": f"pcl5_{n}",
                    "type": "single_choice",
                    "text": f"Item {n}",
                    "required": True,
                    "choices": choices,
                    "points": [0, 1, 2, 3, 4],
                    "scored": True,
                }
                for n in range(1, 21)
            ],
            "score": {
                "method": "sum",
                "better": "lower",
                "label": "PCL-5 total",
                "bands": [{"from": 0, "to": 80, "label": "Any"}],
                "subscales": [
                    {"key": k, "label": f"Cluster {k.upper()}", "items": [f"pcl5_{n}" for n in r]}
                    for k, r in clusters.items()
                ],
            },
        },
    )


def _a_year_of_measures():
    """A therapist and their client with a year of the three measures, weekly, sent and shared."""
    import datetime as dt
    import uuid

    from django.utils import timezone

    from clients.models import Client
    from homework.kinds import get_kind
    from homework.models import Assignment, Entry, Exercise
    from practice.models import User

    therapist = User.objects.create_user(
        email="fhir-therapist@bench.test", name="Robin Hale", role="therapist", is_staff=True
    )
    client = Client.objects.create(therapist=therapist, display_name="Sam")
    measures = [
        Exercise.objects.get(title="PHQ-9", owner=None),
        Exercise.objects.get(title="GAD-7", owner=None),
        _pcl5_shaped(),
    ]
    start = timezone.now() - dt.timedelta(weeks=WEEKS)
    entries = []
    for exercise in measures:
        assignment = Assignment.objects.create(
            client=client,
            exercise=exercise,
            starts_on=start.date(),
            schedule="weekly",
            ends_on=timezone.localdate(),
            created_by=therapist,
        )
        scored = [q for q in exercise.options["questions"] if q.get("scored")]
        kind = get_kind(exercise.kind)
        for week in range(WEEKS):
            at = start + dt.timedelta(weeks=week)
            response = {
                q["key"]: q["choices"][(week + n) % len(q["choices"])] for n, q in enumerate(scored)
            }
            plain = kind.plain_columns(response, exercise=exercise)
            entries.append(
                Entry(
                    key=uuid.uuid4(),
                    assignment=assignment,
                    schema_version=1,
                    status=Entry.Status.SUBMITTED,
                    occurrence_on=at.date(),
                    submitted_at=at,
                    shared_at=at,
                    response=response,
                    score=plain["score"],
                    needs_review=plain["needs_review"],
                )
            )
    Entry.objects.bulk_create(entries)
    return therapist, client


@functools.cache
def _people():
    return _a_year_of_measures()


def figures() -> list[Figure]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIRequestFactory, force_authenticate

    from homework.api.fhir import ClientFhirBundle
    from homework.models import Entry

    therapist, client = _people()
    view = ClientFhirBundle.as_view()
    therapist.is_verified = lambda: True  # as django-otp marks a therapist past the second step

    def export() -> bytes:
        request = APIRequestFactory().get(f"/api/v1/clients/{client.pk}/fhir/")
        force_authenticate(request, user=therapist)
        response = view(request, client_id=client.pk)
        response.render()
        assert response.status_code == 200, response.content
        return bytes(response.content)

    def plain_json() -> bytes:
        rows = Entry.objects.filter(
            assignment__client=client, status=Entry.Status.SUBMITTED, private=False
        ).select_related("assignment__exercise")
        return json.dumps(
            [
                {
                    "key": str(entry.key),
                    "measure": entry.assignment.exercise.title,
                    "submitted_at": entry.submitted_at.isoformat() if entry.submitted_at else None,
                    "score": entry.score,
                    "response": entry.response,
                }
                for entry in rows
            ]
        ).encode()

    body = export()
    resources = len(json.loads(body)["entry"])
    with CaptureQueriesContext(connection) as captured:
        export()
    exports, floors = paired_timings(export, plain_json, ROUNDS)
    return [
        Figure(
            "FHIR export, a year of weekly PHQ-9, GAD-7, PCL-5 / the same rows as plain JSON",
            paired_ratio(exports, floors, CPU),
            GOAL,
            note=(
                f"{resources} resources, {len(body) // 1024} KiB, "
                f"{median(exports, CPU) * 1000:.0f} ms CPU against "
                f"{median(floors, CPU) * 1000:.0f} ms, {len(captured.captured_queries)} queries"
            ),
        )
    ]


if __name__ == "__main__":
    print_figures_on_sqlite(figures, "fhir-bench-")
