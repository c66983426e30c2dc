"""Admin pages cost the same number of queries for 1 row and for 50.

Each case grows the rows a page lists from one to fifty and asserts the
count of queries stays put; the since-last-session page is also pinned at
1,000 entries.
"""

import datetime as dt
import itertools
from collections.abc import Callable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clients.models import AccessEvent
from homework.models import Alert, Entry, EntryComment, Release
from homework.services.alerts import alert_acknowledge
from tests.conftest import Cast, login
from tests.factories import (
    AssignmentFactory,
    ClientFactory,
    EntryFactory,
    ExerciseFactory,
    SessionFactory,
    UserFactory,
    daily_assignment,
    daily_urge_log,
)
from tests.helpers_home import a_week_of_daily_logs
from tests.helpers_measures import answers, assigned, measure, pcl5_shaped, sent_total
from tests.helpers_program_pages import on_program
from tests.helpers_programs import build
from tests.helpers_worksheets import watching_safety


def count_queries(http, url: str) -> int:
    # The same state each time: a look already in the access log writes no new
    # line, and entries already read are not marked again.
    AccessEvent.objects.all().delete()
    Entry.objects.update(seen_at=None)
    with CaptureQueriesContext(connection) as captured:
        response = http.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(captured.captured_queries)


def a_client(cast: Cast) -> None:
    client = ClientFactory.create(therapist=cast.tara)
    SessionFactory.create(client=client)
    EntryFactory.create(assignment__client=client)


_minutes = itertools.count(1)


def a_session(cast: Cast) -> None:
    # Each at its own time: a client has one session per slot.
    SessionFactory.create(
        client=cast.alice, starts_at=timezone.now() + dt.timedelta(minutes=next(_minutes))
    )


def daily_work_with_an_entry(cast: Cast) -> None:
    # Counted over the window as the session summary counts it: one query for all.
    today = timezone.localdate()
    work = daily_assignment(
        cast.alice, starts_on=today - dt.timedelta(days=40), ends_on=today + dt.timedelta(days=10)
    )
    EntryFactory.create(assignment=work, submitted_at=timezone.now() - dt.timedelta(days=1))


def an_entry(cast: Cast) -> None:
    entry = EntryFactory.create(assignment=cast.alice_assignment, discuss_in_session=True)
    EntryComment.objects.create(entry=entry, author=cast.tara, text="Noted.")


def an_exercise(cast: Cast) -> None:
    ExerciseFactory.create(owner=cast.tara)


def an_exercise_and_its_spanish_version(cast: Cast) -> None:
    cast.alice.language = "es"
    cast.alice.save(update_fields=["language"])
    english = ExerciseFactory.create(owner=cast.tara)
    ExerciseFactory.create(owner=cast.tara, language="es", translation_of=english)


def an_assignment(cast: Cast) -> None:
    AssignmentFactory.create(client=cast.alice)


def an_overdue_assignment(cast: Cast) -> None:
    today = timezone.localdate()
    AssignmentFactory.create(
        client=cast.alice,
        starts_on=today - dt.timedelta(days=9),
        due_on=today - dt.timedelta(days=2),
    )


def a_program(cast: Cast) -> None:
    build(cast.tara, (Release.RIGHT_AWAY, None), (Release.AFTER_PREVIOUS, None))


def alice_on_a_program(cast: Cast) -> None:
    # Titled apart: a client is on one running copy of each program.
    on_program(cast, title=f"Path {next(_minutes)}")


def a_measure_total(cast: Cast) -> None:
    sent_total(assigned(cast.alice, measure(reliable_change=4, cutoff=10)), 9, days_ago=3)


def subscale_scores(cast: Cast) -> None:
    """A PCL-5 of four clusters, a new one each time: each cluster's series from the same query."""
    pcl5 = pcl5_shaped(title=f"PCL-5 {next(_minutes)}")
    EntryFactory.create(assignment=assigned(cast.alice, pcl5), response=answers(pcl5, [2] * 20))


def a_user(cast: Cast) -> None:
    UserFactory.create()


def an_answer_to_review(cast: Cast) -> None:
    check_in = AssignmentFactory.create(client=cast.alice, exercise=watching_safety())
    EntryFactory.create(assignment=check_in, response={"safe": 0})


def alerts_open_and_acknowledged(cast: Cast) -> None:
    """A felt-unsafe entry and an answer to review for alice, and another client's alert, each
    alert acknowledged but the last: the pages draw who acknowledged and with what note."""
    EntryFactory.create(assignment=cast.alice_assignment, felt_unsafe=True)
    an_answer_to_review(cast)
    EntryFactory.create(assignment__client__therapist=cast.tara, felt_unsafe=True)
    *done, _still_open = Alert.objects.filter(acknowledged_at__isnull=True).order_by("pk")
    for alert in done:
        alert_acknowledge(alert=alert, by=cast.tara, note="called, safe tonight")


def a_flagged_entry_and_session(cast: Cast) -> None:
    EntryFactory.create(assignment=cast.alice_assignment, felt_unsafe=True)
    an_answer_to_review(cast)
    SessionFactory.create(
        client=ClientFactory.create(therapist=cast.tara),
        starts_at=timezone.now() + dt.timedelta(hours=20),
    )
    AssignmentFactory.create(
        client=cast.alice,
        starts_on=timezone.localdate() - dt.timedelta(days=9),
        due_on=timezone.localdate() - dt.timedelta(days=2),
    )
    # Due on the earliest date anywhere: past due for a client far east, so
    # judged row by row on the client's calendar (workspace.staff_home).
    earliest = (timezone.now().astimezone(dt.UTC) - dt.timedelta(hours=12)).date()
    AssignmentFactory.create(
        client=ClientFactory.create(therapist=cast.tara, timezone="Pacific/Kiritimati"),
        starts_on=earliest - dt.timedelta(days=9),
        due_on=earliest,
    )


def a_client_with_new_work(cast: Cast) -> None:
    """A client of tara's with a few days of urges, a written record, a private entry and an
    alert: the home's row for them counts each."""
    client = ClientFactory.create(therapist=cast.tara)
    daily_urge_log(client, start=timezone.localdate() - dt.timedelta(days=2), days=2, intensity=int)
    EntryFactory.create(assignment__client=client, felt_unsafe=True)
    EntryFactory.create(assignment__client=client, private=True)


CASES: dict[str, tuple[str, Callable[[Cast], str], Callable[[Cast], object]]] = {
    "clients": ("tara", lambda c: reverse("admin:clients_client_changelist"), a_client),
    "clients, for the manager": (
        "morgan",
        lambda c: reverse("admin:clients_client_changelist"),
        a_client,
    ),
    "sessions": ("tara", lambda c: reverse("admin:clients_session_changelist"), a_session),
    "exercises": ("tara", lambda c: reverse("admin:homework_exercise_changelist"), an_exercise),
    "programs": ("tara", lambda c: reverse("admin:homework_program_changelist"), a_program),
    "assignments": (
        "tara",
        lambda c: reverse("admin:homework_assignment_changelist"),
        an_assignment,
    ),
    "assignments past due": (
        "tara",
        lambda c: reverse("admin:homework_assignment_changelist") + "?due=past",
        an_overdue_assignment,
    ),
    "entries": ("tara", lambda c: reverse("admin:homework_entry_changelist"), an_entry),
    "entries, answers to review": (
        "tara",
        lambda c: reverse("admin:homework_entry_changelist"),
        an_answer_to_review,
    ),
    "entries new": (
        "tara",
        lambda c: reverse("admin:homework_entry_changelist") + "?new=since_sign_in",
        an_entry,
    ),
    "entries not read yet": (
        "tara",
        lambda c: reverse("admin:homework_entry_changelist") + "?new=unread",
        an_entry,
    ),
    "users": ("morgan", lambda c: reverse("admin:practice_user_changelist"), a_user),
    "client page": (
        "tara",
        lambda c: reverse("admin:clients_client_change", args=[c.alice.pk]),
        a_session,
    ),
    # The Programs panel: its programs and their steps (with_steps), whatever their number.
    "client page, programs": (
        "tara",
        lambda c: reverse("admin:clients_client_change", args=[c.alice.pk]),
        alice_on_a_program,
    ),
    # Measures over time: every total of every measure, in one query.
    "client page, measures": (
        "tara",
        lambda c: reverse("admin:clients_client_change", args=[c.alice.pk]),
        a_measure_total,
    ),
    "client page, subscales": (
        "tara",
        lambda c: reverse("admin:clients_client_change", args=[c.alice.pk]),
        subscale_scores,
    ),
    "since last session": (
        "tara",
        lambda c: reverse("admin:clients_client_since_last_session", args=[c.alice.pk]),
        an_entry,
    ),
    "since last session, daily work": (
        "tara",
        lambda c: reverse("admin:clients_client_since_last_session", args=[c.alice.pk]),
        daily_work_with_an_entry,
    ),
    "entry page": (
        "tara",
        lambda c: reverse("admin:homework_entry_change", args=[c.alice_entry.pk]),
        lambda c: EntryComment.objects.create(entry=c.alice_entry, author=c.tara, text="Hm."),
    ),
    # Its neighbours on Since last session, read as that page reads them, however many.
    "entry page, from since last session": (
        "tara",
        lambda c: reverse("admin:homework_entry_change", args=[c.alice_entry.pk])
        + "?from=since-last-session",
        an_entry,
    ),
    "entry page, from since last session, daily work": (
        "tara",
        lambda c: reverse("admin:homework_entry_change", args=[c.alice_entry.pk])
        + "?from=since-last-session",
        daily_work_with_an_entry,
    ),
    # The library picker's shelves and each item's line come from one query of the library.
    "assign form": (
        "tara",
        lambda c: reverse("admin:homework_assignment_add") + f"?client={c.alice.pk}",
        an_exercise,
    ),
    # For a client reading Spanish: which exercise has a version in it is part of that one query.
    "assign form, spanish reader": (
        "tara",
        lambda c: reverse("admin:homework_assignment_add") + f"?client={c.alice.pk}",
        an_exercise_and_its_spanish_version,
    ),
    "home": ("tara", lambda c: reverse("admin:index"), a_flagged_entry_and_session),
    "home, new work by client": ("tara", lambda c: reverse("admin:index"), a_client_with_new_work),
    "manager's home, new work by client": (
        "morgan",
        lambda c: reverse("admin:index"),
        a_client_with_new_work,
    ),
    "home, alerts": ("tara", lambda c: reverse("admin:index"), alerts_open_and_acknowledged),
    "manager's home, alerts": (
        "morgan",
        lambda c: reverse("admin:index"),
        alerts_open_and_acknowledged,
    ),
    "caseload, alerts": ("tara", lambda c: reverse("admin:caseload"), alerts_open_and_acknowledged),
    "every open alert": ("tara", lambda c: reverse("admin:alerts"), alerts_open_and_acknowledged),
    "every open alert, for the manager": (
        "morgan",
        lambda c: reverse("admin:alerts"),
        alerts_open_and_acknowledged,
    ),
    "client page, alerts": (
        "tara",
        lambda c: reverse("admin:clients_client_change", args=[c.alice.pk]),
        alerts_open_and_acknowledged,
    ),
    "since last session, alerts": (
        "tara",
        lambda c: reverse("admin:clients_client_since_last_session", args=[c.alice.pk]),
        alerts_open_and_acknowledged,
    ),
    "manager's home": ("morgan", lambda c: reverse("admin:index"), a_flagged_entry_and_session),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_queries_do_not_grow_with_rows(cast, case):
    who, url_of, add_row = CASES[case]
    http = login(getattr(cast, who))
    url = url_of(cast)
    add_row(cast)
    http.get(url)  # warm: the session, content types
    with_one = count_queries(http, url)
    for _ in range(49):
        add_row(cast)
    assert count_queries(http, url) == with_one, case


# The page for a client with a thousand entries. The queries, in order: the
# session, user and the second factor's device; the client; the previous and next session; the
# look in the access log (the scope check, the log's check and line, in
# savepoints), never a read; then which entries were sent and the assignments;
# then, with recurring work, the window's days done as the summary counts them;
# then the session summary's own reading of the period (its entries, what kinds
# need from before it, the current safety plan, its work, the practice's
# settings, the client's programs, every measure's totals, its alerts), which the page draws.
SINCE_LAST_SESSION_QUERIES = 26


def test_since_last_session_with_a_thousand_entries_is_pinned(cast):
    now = timezone.now()
    SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=400))
    daily_work_with_an_entry(cast)
    EntryFactory.create_batch(
        998,
        assignment=cast.alice_assignment,
        submitted_at=now - dt.timedelta(hours=1),
    )
    http = login(cast.tara)
    url = reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])
    http.get(reverse("admin:index"))
    with CaptureQueriesContext(connection) as captured:
        response = http.get(url)
    assert len(response.context["shared_entries"]) == 1000
    assert len(captured.captured_queries) == SINCE_LAST_SESSION_QUERIES, "\n".join(
        q["sql"][:160] for q in captured.captured_queries
    )


# The home at a full caseload (25 clients, a week of daily logs each): the session, user and
# second factor; the two days' sessions; work near its due date (judged on each client's
# calendar); the flags; the open alerts; new work counted by client and kind, its clients' open
# alerts and the clients; the overdue work and its count.
HOME_QUERIES = 12


def test_the_home_at_twenty_five_clients_is_pinned(cast):
    a_week_of_daily_logs(cast.tara)
    http = login(cast.tara)
    http.get(reverse("admin:index"))
    with CaptureQueriesContext(connection) as captured:
        response = http.get(reverse("admin:index"))
    assert response.context["home"].new_clients == 26  # and alice
    assert len(captured.captured_queries) == HOME_QUERIES, "\n".join(
        q["sql"][:160] for q in captured.captured_queries
    )
