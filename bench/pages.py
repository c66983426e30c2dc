"""Every staff and portal page at the largest client of the large practice,
each against an empty signed-in request of the same person, in the same run.

A page is a real request through Django's test client: the whole middleware
stack (sessions, authentication, the second factor, CSRF, the session
clocks, the access log, the security headers), the view, its queries and its
template, as a signed-in person asks for it. The empty request goes through
the same stack and sign-in, and does nothing else: for the client
``/account/token/`` (the portal's sign-in check, which finds the client, then
one token as JSON); for their therapist ``/admin/jsi18n/`` (the admin's
sign-in check with the second factor, then a script with no translations in
it). Those are the emptiest routes each can open: nothing there reads a
client's records or renders a template of ours, so a page's ratio is what
the page itself adds to being signed in at all, which is what a person waits
for. (``/health/`` is not one: it is anonymous, and writes to storage.)

The largest client is the active client with a portal account who sent the
most entries; the staff pages are asked by their therapist (the lists show
that therapist's whole caseload). Each round times, page by page, the empty
request then the page; a page's ratio is the median of its paired ratios.
The figure is the slowest page's ratio, named (goal 10x); the median page's
is for information. A figure that falls short carries that page's profile.

Runs on a database already seeded (``python -m bench.large_practice N``) and
leaves it as it found it: the whole run is one transaction, rolled back
(every staff look at a client's words writes the access log).

``figures()`` is what ``make bench`` calls; ``python -m bench.pages [page ...]``
runs it on the database DATABASE_URL names (seeded), and ``--profile "To do"``
prints where one page's time goes (pyinstrument, a development dependency).
"""

import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.figures import Figure
from bench.page_requests import getter, opening, paired, profiled, signed_in, sql_time
from bench.page_requests import where_time_goes as profile_line
from bench.summary import median, paired_ratio

ROUNDS = 9
GOAL = 10.0
# Each call takes the median of its own interleaved rounds; the runner's three
# repeats would triple the time for no steadier figure.
REPEATS_ITSELF = True


@dataclass(frozen=True)
class Largest:
    """The largest client, and what their pages need."""

    client_id: int
    entries: int
    client_user: Any
    therapist: Any
    entry_id: int  # their latest sent entry
    entry_key: str
    session_id: int  # their latest session
    exercise_id: int  # of their busiest work
    work: list[int]  # active work, most entries first
    work_by_kind: dict[str, list[int]] = field(default_factory=dict)


@dataclass(frozen=True)
class Page:
    name: str
    staff: bool  # asked by the client's therapist; otherwise by the client
    urls: list[str]  # the first that opens (answers 200) is measured


def pages(who: Largest) -> list[Page]:
    """Every page a therapist or the client reads, at the largest client. The
    summary itself is a PDF, measured in bench.summary; as a page it is
    "since last session"."""
    from django.urls import reverse

    def staff(name: str, route: str, *args: int, query: str = "") -> Page:
        return Page(name, True, [reverse(route, args=args) + query])

    def portal(name: str, route: str, *args: Any) -> Page:
        return Page(name, False, [reverse(route, args=args)])

    client = who.client_id
    return [
        staff("Admin home", "admin:index"),
        staff("Caseload", "admin:caseload"),
        staff("Clients list", "admin:clients_client_changelist"),
        staff("Client", "admin:clients_client_change", client),
        staff("Since last session", "admin:clients_client_since_last_session", client),
        staff("Client's contact", "admin:clients_client_contact", client),
        staff("Sessions list", "admin:clients_session_changelist"),
        staff("A session", "admin:clients_client_session_change", client, who.session_id),
        staff("Entries list", "admin:homework_entry_changelist"),
        staff("An entry (staff)", "admin:homework_entry_change", who.entry_id),
        staff("Work set list", "admin:homework_assignment_changelist"),
        staff("Work set", "admin:homework_assignment_change", who.work[0]),
        staff("Assign form", "admin:homework_assignment_add", query=f"?client={client}"),
        staff("Exercise library", "admin:homework_exercise_changelist"),
        staff("An exercise (staff)", "admin:homework_exercise_change", who.exercise_id),
        portal("To do", "homework:dashboard"),
        portal("History", "homework:history"),
        portal("An entry", "homework:entry", who.entry_key),
        portal("Progress", "homework:progress"),
        portal("Account", "clients:account"),
        portal("Contact", "clients:contact"),
        portal("Who looked", "clients:who_looked"),
        portal("Help now", "crisis"),
        # A one-off already done opens what was sent instead (a redirect):
        # each kind's busiest work whose page opens.
        *(
            Page(f"Do: {kind}", False, [reverse("homework:do", args=[pk]) for pk in work])
            for kind, work in sorted(who.work_by_kind.items())
        ),
    ]


def pages_named(who: Largest, names: set[str] | None) -> list[Page]:
    """The pages ``names`` names (all for None); a name no page has is refused."""
    every = pages(who)
    unknown = sorted((names or set()) - {page.name for page in every})
    if unknown:
        raise SystemExit(f"No page is named {unknown}: {[page.name for page in every]}")
    return [page for page in every if names is None or page.name in names]


def empty_requests() -> dict[bool, str]:
    """The emptiest signed-in route of each side (by ``Page.staff``)."""
    from django.urls import reverse

    return {False: reverse("clients:form_token"), True: reverse("admin:jsi18n")}


def largest_client() -> Largest:
    """The active client with a portal account and sessions who sent the most entries (the other
    benchmarks' clients, made in the same database, have no sessions)."""
    from django.db.models import Count, Exists, OuterRef

    from clients.models import Client, Session
    from homework.models import Assignment, Entry

    found = (
        Client.objects.filter(status=Client.Status.ACTIVE, portal_user__isnull=False)
        .filter(Exists(Session.objects.filter(client=OuterRef("pk"))))
        .annotate(sent=Count("assignments__entries"))
        .filter(sent__gt=0)
        .order_by("-sent", "pk")
        .values_list("pk", "sent")
        .first()
    )
    if found is None:
        raise SystemExit(
            "No client with entries: seed the database first (python -m bench.large_practice N)."
        )
    client = Client.objects.select_related("therapist", "portal_user").get(pk=found[0])
    work = list(
        Assignment.objects.filter(client=client, status=Assignment.Status.ACTIVE)
        .annotate(sent=Count("entries"))
        .order_by("-sent", "pk")
        .values_list("pk", "exercise_id", "exercise__kind")
    )
    by_kind: dict[str, list[int]] = {}
    for pk, _exercise, kind in work:
        by_kind.setdefault(kind, []).append(pk)
    entry = (
        Entry.objects.filter(assignment__client=client, status=Entry.Status.SUBMITTED)
        .order_by("-submitted_at")
        .values_list("pk", "key")
        .first()
    )
    session = Session.objects.filter(client=client).values_list("pk", flat=True).first()
    if entry is None or session is None or not work:
        raise SystemExit("The largest client has no sent entry, session or work set.")
    return Largest(
        client_id=client.pk,
        entries=found[1],
        client_user=client.portal_user,
        therapist=client.therapist,
        entry_id=entry[0],
        entry_key=str(entry[1]),
        session_id=session,
        exercise_id=work[0][1],
        work=[pk for pk, _exercise, _kind in work],
        work_by_kind=by_kind,
    )


@dataclass(frozen=True)
class Measured:
    page: Page
    url: str
    ratio: float  # the page / the same person's empty request
    page_ms: float
    empty_ms: float
    queries: int
    sql_ms: float
    request: Callable[[], object]

    def said(self) -> str:
        who = "the therapist's" if self.page.staff else "the client's"
        return (
            f"{self.page.name} ({self.url}): {self.page_ms:.0f} ms, {self.queries} queries"
            f" ({self.sql_ms:.0f} ms in SQL), against {self.empty_ms:.1f} ms for {who}"
            " empty request"
        )


def measure_all(who: Largest, only: set[str] | None, rounds: int = ROUNDS) -> list[Measured]:
    """Every page (or those named in ``only``), each paired with its side's
    empty request in every round."""
    http = {
        False: signed_in(who.client_user, staff=False),
        True: signed_in(who.therapist, staff=True),
    }
    empty = {staff: getter(http[staff], url) for staff, url in empty_requests().items()}
    chosen = pages_named(who, only)
    urls = {page.name: opening(http[page.staff], page.urls) for page in chosen}
    requests = {page.name: getter(http[page.staff], urls[page.name]) for page in chosen}
    variants = {page.name: (empty[page.staff], requests[page.name]) for page in chosen}
    for floor, request in variants.values():  # warm: anything a first look writes
        floor()
        request()
    samples = paired(variants, rounds)
    measured = []
    for page in chosen:
        floors, timings = samples[page.name]
        queries, sql = sql_time(requests[page.name])
        measured.append(
            Measured(
                page=page,
                url=urls[page.name],
                ratio=paired_ratio(timings, floors, 0),
                page_ms=median(timings, 0) * 1000,
                empty_ms=median(floors, 0) * 1000,
                queries=queries,
                sql_ms=sql * 1000,
                request=requests[page.name],
            )
        )
    return measured


def figures_of(measured: list[Measured], who: Largest) -> list[Figure]:
    worst = max(measured, key=lambda m: m.ratio)
    note = f"slowest: {worst.said()}"
    if worst.ratio > GOAL:
        note += f"; {profile_line(worst.request)}"
    ratios = [m.ratio for m in measured]
    return [
        Figure(
            f"Pages: the slowest of {len(measured)} staff and portal pages at the largest"
            " client / an empty signed-in request",
            worst.ratio,
            GOAL,
            note=f"{note}; the largest client has {who.entries} entries",
        ),
        Figure(
            "  the median page / an empty signed-in request",
            statistics.median(ratios),
            None,
            note=f"{sum(r > GOAL for r in ratios)} of {len(ratios)} pages over {GOAL:g}x",
        ),
    ]


def run_on_database(only: set[str] | None = None) -> list[Figure]:
    """The page figures, on the database Django is set up on (seeded);
    ``only`` names the pages to measure (all by default)."""
    from django.db import transaction

    with transaction.atomic():
        who = largest_client()
        print(
            f"Pages at the largest client ({who.entries} entries), each against the same"
            f" person's empty signed-in request ({ROUNDS} paired rounds, medians; wall clock)"
        )
        measured = measure_all(who, only)
        for m in sorted(measured, key=lambda m: -m.ratio):
            print(f"  {m.ratio:6.2f}x  {m.said()}")
        figures = figures_of(measured, who)
        transaction.set_rollback(True)
    return figures


def figures() -> list[Figure]:
    """The slowest page's ratio and the median page's."""
    return run_on_database()


def setup_django_on_environment() -> None:
    """Django on the database DATABASE_URL names (the runner's), without
    DEBUG's per-query bookkeeping."""
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "practice.settings")
    os.environ.setdefault("DEBUG", "0")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()


def profile(name: str, calls: int = 30) -> None:
    """Where one page's time goes at the largest client: pyinstrument over
    ``calls`` requests, printed."""
    from django.db import transaction

    with transaction.atomic():
        who = largest_client()
        (page,) = pages_named(who, {name})
        http = signed_in(who.therapist if page.staff else who.client_user, staff=page.staff)
        request = getter(http, opening(http, page.urls))
        request()
        print(profiled(request, calls).output_text(unicode=True, show_all=False))
        transaction.set_rollback(True)


def run() -> int:
    """``python -m bench.pages [page name ...]`` on an already seeded database;
    ``--profile "page name"`` prints where that page's time goes instead."""
    setup_django_on_environment()
    if sys.argv[1:2] == ["--profile"]:
        profile(sys.argv[2])
        return 0
    found = run_on_database(set(sys.argv[1:]) or None)
    for figure in found:
        verdict = {True: "pass", False: "SHORT", None: "info"}[figure.passed]
        print(f"{figure.name}: {figure.ratio:.2f}x {figure.goal_text} {verdict}\n    {figure.note}")
    return 0 if all(figure.passed is not False for figure in found) else 1


if __name__ == "__main__":
    sys.exit(run())
