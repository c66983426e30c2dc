"""The API's two busiest lists against a twin that returns the same rows with
``.values()`` and ``JsonResponse``: same process, same middleware, same run.

- ``GET /api/v1/assignments/`` as a client with 100 assignments;
- ``GET /api/v1/clients/{id}/entries/`` as their therapist, 100 entries.

Both ask with a token (knox) and ask for one page of 100. The twins live
only here, on a bench-only URLconf (the product's routes plus theirs): they
authenticate the same token, read through the same scoped selectors, and
build the rows with ``.values()``. The product does what the twin does not
by rule: the serializers, pagination, throttles, and for the entries the
access log's line and the therapist's read. That last cost is printed on
its own (the same service call, timed alone), so the figure can be read with
and without it. Rounds alternate the two; the figure is the median of the
paired throughput ratios (API / twin) in wall time, with a floor of 0.7
(issue 27); the ratio in CPU time is printed beside it, steadier on a
shared machine.
"""

import statistics
import sys
import tempfile
from functools import partial
from pathlib import Path
from typing import Any

from bench.figures import Figure
from bench.summary import median, paired_ratio, setup_django, timed

ROWS = 100
REQUESTS_PER_ROUND = 20
ROUNDS = 7
GOAL = 0.7


def _twin_urlpatterns() -> list[Any]:
    """The product's routes, and the two twins beside them."""
    from django.http import HttpRequest, JsonResponse
    from django.urls import include, path
    from knox.auth import TokenAuthentication

    from homework import selectors
    from homework.api.serializers import AssignmentOut
    from practice.urls import urlpatterns as product

    def who(request: HttpRequest) -> Any:
        token = request.headers["Authorization"].split()[1]
        user, _token = TokenAuthentication().authenticate_credentials(token.encode())
        return user

    def assignments(request: HttpRequest) -> JsonResponse:
        rows = selectors.assignments_for_client_api(user=who(request))
        # The same columns the API's list reads (one list, AssignmentOut.COLUMNS).
        page = list(rows.values(*AssignmentOut.COLUMNS)[:ROWS])
        return JsonResponse({"count": rows.count(), "results": page})

    def entries(request: HttpRequest, client_id: int) -> JsonResponse:
        user = who(request)
        client = selectors.staff_client(user=user, client_id=client_id)
        rows = selectors.flags_first(
            selectors.entries_for_user(user=user).filter(assignment__client=client)
        )
        page = list(
            rows.values(
                "key",
                "assignment_id",
                "assignment__exercise__kind",
                "private",
                "submitted_at",
                "seen_at",
                "response",
                "discuss_in_session",
                "felt_unsafe",
                "needs_review",
                "changed_at",
            )[:ROWS]
        )
        return JsonResponse({"count": rows.count(), "results": page})

    return [
        path("twin/assignments/", assignments),
        path("twin/clients/<int:client_id>/entries/", entries),
        path("", include(list(product))),
    ]


urlpatterns: list[Any] = []  # filled by run_on_database, once Django is set up


def _practice() -> tuple[Any, Any, Any]:
    """A client with ROWS assignments, ROWS entries sent on one of them; their therapist."""
    import datetime as dt
    import uuid

    from django.utils import timezone

    from clients.models import Client
    from homework.models import Assignment, Entry, Exercise
    from practice.models import User

    therapist = User.objects.create_user(
        email="api-therapist@bench.test", name="Robin", role="therapist", is_staff=True
    )
    person = User.objects.create_user(email="api-client@bench.test", role="client")
    client = Client.objects.create(therapist=therapist, display_name="Sam", portal_user=person)
    record = Exercise.objects.create(kind="written_record", title="Record", instructions="Note.")
    today = timezone.localdate()
    assignments = Assignment.objects.bulk_create(
        Assignment(
            client=client,
            exercise=record,
            starts_on=today - dt.timedelta(days=number % 20),
            due_on=today + dt.timedelta(days=number % 9),
            created_by=therapist,
        )
        for number in range(ROWS)
    )
    now = timezone.now()
    Entry.objects.bulk_create(
        Entry(
            key=uuid.uuid4(),
            assignment=assignments[0],
            schema_version=1,
            status=Entry.Status.SUBMITTED,
            submitted_at=now - dt.timedelta(hours=number),
            shared_at=now - dt.timedelta(hours=number),
            felt_unsafe=number % 17 == 0,
            response={
                "what_happened": "An evening that went quiet, then loud. " * 4,
                "body_distress": number % 11,
                "told_myself": "That it was my fault, again.",
            },
        )
        for number in range(ROWS)
    )
    return therapist, person, client


def run_on_database() -> list[Figure]:
    from django.test import Client as HttpClient
    from django.test.utils import override_settings
    from knox.models import AuthToken
    from rest_framework.throttling import SimpleRateThrottle

    urlpatterns[:] = _twin_urlpatterns()
    therapist, person, client = _practice()
    # Hundreds of requests a minute from one person: the throttles would answer 429.
    SimpleRateThrottle.allow_request = lambda self, request, view: True  # type: ignore[method-assign]

    def caller(user: Any) -> HttpClient:
        _instance, token = AuthToken.objects.create(user)
        return HttpClient(headers={"Authorization": f"Token {token}"})

    pairs = {
        "GET /api/v1/assignments/ (client, 100 rows)": (
            caller(person),
            f"/api/v1/assignments/?page_size={ROWS}",
            "/twin/assignments/",
        ),
        "GET /api/v1/clients/{id}/entries/ (therapist, 100 rows)": (
            caller(therapist),
            f"/api/v1/clients/{client.pk}/entries/?page_size={ROWS}",
            f"/twin/clients/{client.pk}/entries/",
        ),
    }
    figures = []
    with override_settings(ROOT_URLCONF=__name__):
        for name, (http, api_url, twin_url) in pairs.items():

            def burst(url: str, http: HttpClient = http) -> None:
                for _ in range(REQUESTS_PER_ROUND):
                    response = http.get(url)
                    assert response.status_code == 200, (url, response.content[:300])
                    assert len(response.json()["results"]) == ROWS

            burst(api_url)  # warm: first reads, the therapist's first read of the entries
            burst(twin_url)
            apis, twins = [], []
            for _ in range(ROUNDS):
                apis.append(timed(partial(burst, api_url)))
                twins.append(timed(partial(burst, twin_url)))
            # Throughput API / twin = time twin / time API.
            ratio = paired_ratio(twins, apis, 0)
            api_rps = REQUESTS_PER_ROUND / median(apis, 0)
            twin_rps = REQUESTS_PER_ROUND / median(twins, 0)
            print(
                f"{name}: API {api_rps:6.0f} req/s, twin {twin_rps:6.0f} req/s, "
                f"ratio {ratio:.2f} (CPU time: {paired_ratio(twins, apis, 1):.2f}; "
                f"goal: at least {GOAL})"
            )
            figures.append(
                Figure(
                    name=f"{name} / .values() + JsonResponse twin, requests per second",
                    ratio=ratio,
                    goal=GOAL,
                    at_least=True,
                )
            )
    _print_log_cost(therapist, client, per_request=median(apis, 0) / REQUESTS_PER_ROUND)
    return figures


def _print_log_cost(therapist: Any, client: Any, per_request: float) -> None:
    """What the entries list's access-log line costs a request, as the bench's rounds meet it."""
    from clients.models import AccessEvent
    from homework import services
    from homework.api.staff import ENTRIES_READ

    def log() -> None:
        for _ in range(REQUESTS_PER_ROUND):
            services.records_record_view(
                actor=therapist,
                client=client,
                action=AccessEvent.Action.VIEWED,
                what=ENTRIES_READ,
            )

    cost = statistics.median(timed(log)[0] for _ in range(ROUNDS)) / REQUESTS_PER_ROUND
    print(
        f"  of which the access log: {cost * 1000:.1f} ms of "
        f"{per_request * 1000:.1f} ms a request (the twin writes no log)"
    )


# Each call makes its own practice and times interleaved rounds (medians).
REPEATS_ITSELF = True


def figures() -> list[Figure]:
    return run_on_database()


def run() -> int:
    with tempfile.TemporaryDirectory(prefix="api-bench-") as tmp:
        setup_django(Path(tmp))
        figures = run_on_database()
    return 0 if all(figure.passed is not False for figure in figures) else 1


if __name__ == "__main__":
    sys.exit(run())
