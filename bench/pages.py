"""The portal's and the admin's pages on the large practice, each against the
same template rendered from the same data held in memory, and each at the
largest client against the smallest.

The page is a real request through Django's test client: the whole
middleware stack (sessions, authentication, the second factor, CSRF, the
portal's and staff's session clocks, the security headers), the view, its
queries and its template, as a signed-in person asks for it. The floor is the
template the page rendered, given the very context the view built (captured
as the page rendered it, its querysets already read), through the same
backend and context processors: only ``render`` is timed.

"Largest" and "smallest" are by entries: the clients with the most and the
fewest (at least one) for a client's own pages (the portal, the client page,
since last session); their therapists, by the entries of their whole
caseload, for the pages across a caseload (home, caseload, the clients and
entries lists).

Rounds interleave the page at the largest, its floor, and the page at the
smallest; each figure is the median of the paired ratios. Runs on a database
already seeded (``python -m bench.large_practice N``) and leaves it as it found it: the
whole run is one transaction, rolled back (opening "since last session"
marks entries read, and every look at a client's records writes the access log).

``figures()`` is what ``make bench`` calls; ``python -m bench.pages [page ...]``
runs it on the database DATABASE_URL names (seeded), and ``--profile "To do"``
prints where one page's time goes (pyinstrument, a development dependency).
"""

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench.figures import Figure
from bench.page_requests import (
    Sample,
    interleaved,
    opening,
    page_and_floor,
    signed_in,
    sql_time,
)
from bench.summary import median, paired_ratio

ROUNDS = 9
GOAL_AGAINST_TEMPLATE = 2.0
GOAL_LARGEST_AGAINST_SMALLEST = 1.3


@dataclass(frozen=True)
class Who:
    """A client with a portal account, and what their pages need."""

    client_id: int
    entries: int
    client_user: Any
    therapist: Any
    assignment_ids: list[
        int
    ]  # active work, most entries first: "an exercise" is the first that opens


@dataclass(frozen=True)
class Page:
    name: str
    staff: bool  # asked by the client's therapist; otherwise by the client
    across_caseload: bool  # compared by therapist rather than by client
    urls: Callable[[Who], list[str]]  # the first that opens (answers 200) is measured
    profiled: str = ""  # what dominates, from a profile (--profile), said where it falls short


def _pages() -> list[Page]:
    from django.urls import reverse

    def admin(name: str, *, with_client: bool = False) -> Callable[[Who], list[str]]:
        return lambda who: [reverse(name, args=[who.client_id] if with_client else [])]

    def portal(name: str) -> Callable[[Who], list[str]]:
        return lambda who: [reverse(name)]

    return [
        Page(
            "To do",
            False,
            False,
            portal("homework:dashboard"),
            "no one cost: 9 small queries' ORM work ~45%, the template ~30%, middleware"
            " ~10%; the client is looked up twice (decorator, selector)",
        ),
        # A one-off already done opens what was sent instead (a redirect):
        # the exercise is the client's busiest work whose page opens.
        Page(
            "An exercise",
            False,
            False,
            lambda who: [reverse("homework:do", args=[pk]) for pk in who.assignment_ids],
            "the form's first render is ~60% of the view (its widgets built afresh; the"
            " floor re-renders a form already built, so it is cheaper than any real first"
            " look); the rest is three small reads (the assignment, its draft, the last sent)",
        ),
        Page(
            "Progress",
            False,
            False,
            portal("homework:progress"),
            "draws every entry ever sent: building a model instance per entry ~35% of the"
            " view; urges are now drawn from plain columns (time, pull, contact), only"
            " those with contact opened, so decryption fell to ~5% of the page; reading the"
            " urges without contact as .values() rows needs a second query (one query that"
            " empties their other columns costs more to build than it saves): ~33 -> ~21 ms"
            " CPU for the read at the largest; then the template's calendar_day per row",
        ),
        Page(
            "History",
            False,
            False,
            portal("homework:history"),
            "reading the page of entries (its rows decrypted and upgraded) ~40% of the view,"
            " the template ~38%: the page is bounded (paginated), so the largest client's"
            " page differs by the kinds it shows, not by its history",
        ),
        Page(
            "Admin home",
            True,
            True,
            admin("admin:index"),
            "staff_home's reads dominate (new, flagged, overdue, two days of sessions):"
            " SQL ~40% of the page; without the planner's statistics the overdue read took"
            " 0.29 s (the large practice now analyses what it loads)",
        ),
        Page(
            "Caseload",
            True,
            True,
            admin("admin:caseload"),
            "completion_for_periods ~72% of the view: its read of every client's work"
            " ~35%, counting each schedule's slots day by day ~20% (an arithmetic count"
            " per weekday would remove most of it)",
        ),
        Page(
            "Client",
            True,
            False,
            admin("admin:clients_client_change", with_client=True),
            "the sessions table now draws the last ten and those to come (the template"
            " halved at the largest), so the view dominates: the 'now' panel's summary"
            " builds a model instance per earlier urge (summary.selectors._earlier ~20%,"
            " only those with contact opened); the earlier urges as .values() rows would"
            " need a second query in the summary (as on Progress)",
        ),
        Page(
            "Since last session",
            True,
            False,
            admin("admin:clients_client_since_last_session", with_client=True),
            "the work's progress dominates: summary.completion ~22% and the progress"
            " column's query and tallies ~26%; the earlier urges (summary.selectors._earlier)"
            " fell from ~17% to ~9% (plain columns, only contacts opened); each urge curve is"
            " now drawn once for its section and its lines at a glance (~2.7 ms CPU less)",
        ),
        Page(
            "Clients list",
            True,
            True,
            admin("admin:clients_client_changelist"),
            "the open work column ~20%: each assignment's completion counts its schedule's"
            " slots day by day (slot_dates.count_slots; the same arithmetic count as the"
            " caseload's would remove it); then Django's changelist machinery",
        ),
        Page(
            "Entries list",
            True,
            True,
            admin("admin:homework_entry_changelist"),
            "Django's changelist and its cells (flags render a partial a row, excerpts"
            " upgrade each answer); each column's name was made again for every row (~40%"
            " of the rendering, now once a list); largest / smallest compares a full page"
            " of 100 rows with a quiet caseload's few: the page is bounded, not its history",
        ),
    ]


def _who(client_id: int, entries: int) -> Who:
    from django.db.models import Count

    from clients.models import Client
    from homework.models import Assignment

    client = Client.objects.select_related("therapist", "portal_user").get(pk=client_id)
    work = (
        Assignment.objects.filter(client=client, status=Assignment.Status.ACTIVE)
        .annotate(sent=Count("entries"))
        .order_by("-sent", "pk")
        .values_list("pk", flat=True)
    )
    return Who(client.pk, entries, client.portal_user, client.therapist, list(work))


def largest_and_smallest() -> tuple[Who, Who]:
    """The active clients with a portal account holding the most and the
    fewest (at least one) entries."""
    from django.db.models import Count

    from clients.models import Client

    counted = (
        Client.objects.filter(status=Client.Status.ACTIVE, portal_user__isnull=False)
        .annotate(sent=Count("assignments__entries"))
        .filter(sent__gt=0)
        .values_list("pk", "sent")
    )
    largest = counted.order_by("-sent", "pk").first()
    smallest = counted.order_by("sent", "pk").first()
    if largest is None or smallest is None:
        raise SystemExit(
            "No client with entries: seed the database first (python -m bench.large_practice N)."
        )
    return _who(*largest), _who(*smallest)


def busiest_and_quietest_therapists(largest: Who, smallest: Who) -> tuple[Who, Who]:
    """For the caseload-wide pages: clients of the therapists with the most
    and the fewest entries across their active clients."""
    from django.db.models import Count, Q

    from clients.models import Client
    from practice.models import User

    counted = (
        User.objects.filter(clients__status=Client.Status.ACTIVE)
        .annotate(
            sent=Count(
                "clients__assignments__entries",
                filter=Q(clients__status=Client.Status.ACTIVE),
            )
        )
        .values_list("pk", flat=True)
    )
    busiest = counted.order_by("-sent", "pk").first()
    quietest = counted.order_by("sent", "pk").first()

    def one_of(therapist_id: int | None, fallback: Who) -> Who:
        client = (
            Client.objects.filter(
                therapist_id=therapist_id,
                status=Client.Status.ACTIVE,
                portal_user__isnull=False,
            )
            .values_list("pk", flat=True)
            .first()
        )
        return fallback if client is None else _who(client, fallback.entries)

    return one_of(busiest, largest), one_of(quietest, smallest)


@dataclass
class Measured:
    page: str
    against_template: float
    largest_against_smallest: float
    page_ms: float
    floor_ms: float
    small_ms: float
    queries: int
    floor_queries: int
    sql_ms: float


def measure(page: Page, large: Who, small: Who, rounds: int = ROUNDS) -> Measured:
    def user(who: Who) -> Any:
        return who.therapist if page.staff else who.client_user

    large_http = signed_in(user(large), staff=page.staff)
    small_http = signed_in(user(small), staff=page.staff)
    large_page, rendered = page_and_floor(large_http, opening(large_http, page.urls(large)))
    small_page, _ = page_and_floor(small_http, opening(small_http, page.urls(small)))
    large_page()  # warm: anything the first look writes (the access log, "seen")
    queries, sql = sql_time(large_page)
    floor_queries, _ = sql_time(rendered.render)
    samples: dict[str, list[Sample]] = interleaved(
        {"page": large_page, "floor": rendered.render, "small": small_page}, rounds
    )
    return Measured(
        page=page.name,
        against_template=paired_ratio(samples["page"], samples["floor"], 0),
        largest_against_smallest=paired_ratio(samples["page"], samples["small"], 0),
        page_ms=median(samples["page"], 0) * 1000,
        floor_ms=median(samples["floor"], 0) * 1000,
        small_ms=median(samples["small"], 0) * 1000,
        queries=queries,
        floor_queries=floor_queries,
        sql_ms=sql * 1000,
    )


def figures_of(measured: Measured, profiled: str) -> list[Figure]:
    said = (
        f"{measured.page_ms:.0f} ms, {measured.queries} queries ({measured.sql_ms:.0f} ms in SQL);"
        f" template from memory {measured.floor_ms:.0f} ms"
        + (f" ({measured.floor_queries} queries)" if measured.floor_queries else "")
    )
    return [
        Figure(
            f"{measured.page}: the page / same template from memory",
            measured.against_template,
            GOAL_AGAINST_TEMPLATE,
            note=f"{said}; {profiled}"
            if profiled and short(measured.against_template, GOAL_AGAINST_TEMPLATE)
            else said,
        ),
        Figure(
            f"{measured.page}: largest client / smallest",
            measured.largest_against_smallest,
            GOAL_LARGEST_AGAINST_SMALLEST,
            note=f"{measured.page_ms:.0f} ms against {measured.small_ms:.0f} ms"
            + (
                f"; {profiled}"
                if profiled
                and short(measured.largest_against_smallest, GOAL_LARGEST_AGAINST_SMALLEST)
                else ""
            ),
        ),
    ]


def short(ratio: float, goal: float) -> bool:
    return ratio > goal


def run_on_database(only: set[str] | None = None) -> list[Figure]:
    """Every page's figures, on the database Django is set up on (seeded);
    ``only`` names the pages to measure (all by default)."""
    from django.db import transaction

    figures: list[Figure] = []
    with transaction.atomic():
        largest, smallest = largest_and_smallest()
        busiest, quietest = busiest_and_quietest_therapists(largest, smallest)
        print(
            f"Pages: the largest client has {largest.entries} entries, the smallest"
            f" {smallest.entries} ({ROUNDS} interleaved rounds, medians; wall clock)"
        )
        for page in _pages():
            if only and page.name not in only:
                continue
            large, small = (busiest, quietest) if page.across_caseload else (largest, smallest)
            measured = measure(page, large, small)
            print(
                f"  {page.name:<20} {measured.against_template:5.2f}x the template,"
                f" {measured.largest_against_smallest:5.2f}x the smallest;"
                f" {measured.page_ms:6.1f} ms, {measured.queries} queries"
                f" ({measured.sql_ms:.1f} ms SQL), template {measured.floor_ms:.1f} ms"
                f" ({measured.floor_queries} queries), smallest {measured.small_ms:.1f} ms"
            )
            figures.extend(figures_of(measured, page.profiled))
        transaction.set_rollback(True)
    return figures


# Each call already takes the median of 9 interleaved rounds (~2.5 min here at
# the large practice); three repeats would not fit make bench's 15 minutes.
REPEATS_ITSELF = True


def figures() -> list[Figure]:
    """Every page's two figures, each the median of its interleaved rounds."""
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
    ``calls`` requests, printed (a development dependency)."""
    from django.db import transaction
    from pyinstrument import Profiler

    page = next(page for page in _pages() if page.name == name)
    with transaction.atomic():
        largest, smallest = largest_and_smallest()
        if page.across_caseload:
            largest, smallest = busiest_and_quietest_therapists(largest, smallest)
        who = largest.therapist if page.staff else largest.client_user
        http = signed_in(who, staff=page.staff)
        request, _ = page_and_floor(http, opening(http, page.urls(largest)))
        request()
        profiler = Profiler(interval=0.0005)
        with profiler:
            for _ in range(calls):
                request()
        print(profiler.output_text(unicode=True, show_all=False))
        transaction.set_rollback(True)


def run() -> int:
    """``python -m bench.pages [page name ...]`` on an already seeded database;
    ``--profile "page name"`` prints where that page's time goes instead."""
    setup_django_on_environment()
    if sys.argv[1:2] == ["--profile"]:
        profile(sys.argv[2])
        return 0
    figures = run_on_database(set(sys.argv[1:]) or None)
    for figure in figures:
        verdict = "pass" if figure.passed else "SHORT"
        print(f"{figure.name:<55} {figure.ratio:6.2f}x  {figure.goal_text:<8} {verdict}")
        if not figure.passed:
            print(f"    {figure.note}")
    return 0 if all(figure.passed for figure in figures) else 1


if __name__ == "__main__":
    sys.exit(run())
