"""The caseload page: one row per active client, what each row says, the
sort, who may open whose, and its queries held whatever the clients and
however long they have been logging."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clients.contact.models import ContactProfile
from clients.models import Client
from homework.kinds import get_kind
from homework.models import Assignment, Entry
from homework.selectors.caseload import TOO_FEW, caseload
from homework.services import programs
from tests.conftest import Cast, login
from tests.factories import (
    AssignmentFactory,
    ClientFactory,
    EntryFactory,
    ExerciseFactory,
    SessionFactory,
    daily_assignment,
    urge_log,
)
from tests.helpers_measures import assigned, measure, sent_total
from tests.helpers_program_pages import on_program
from tests.helpers_worksheets import watching_safety

URL = reverse("admin:caseload")


def row_of(cast: Cast, client: Client):
    rows = caseload(user=cast.tara, therapist=cast.tara, now=timezone.now())
    return next(row for row in rows if row.client == client)


def days_ago(days: int, hours: int = 1) -> dt.datetime:
    return timezone.now() - dt.timedelta(days=days, hours=hours)


def daily(client: Client, *, kind: str = "written_record", days: int = 40) -> Assignment:
    today = timezone.localdate()
    return daily_assignment(
        client,
        exercise=ExerciseFactory.create(kind=kind),
        starts_on=today - dt.timedelta(days=days),
        ends_on=today + dt.timedelta(days=30),
    )


def sent_for(assignment: Assignment, day: int, **fields: object) -> Entry:
    return EntryFactory.create(
        assignment=assignment,
        occurrence_on=timezone.localdate() - dt.timedelta(days=day),
        submitted_at=days_ago(0, hours=1),
        **fields,
    )


def urges(assignment: Assignment, intensities: list[int], *, private: bool = False) -> None:
    """One urge a day, the last of ``intensities`` yesterday."""
    for back, intensity in enumerate(reversed(intensities), start=1):
        at = days_ago(back, hours=0)
        response = urge_log(at=at.isoformat(), intensity=intensity)
        EntryFactory.create(
            assignment=assignment,
            occurrence_on=timezone.localdate(at),
            submitted_at=at,
            private=private,
            response=response,
            # The pull, as the services keep it (the kind's score hook).
            score=get_kind("urge_log").score(response, exercise=assignment.exercise),
        )


def test_flags_not_read_count_only_shared_sent_unread_ones(cast: Cast) -> None:
    assignment = cast.alice_assignment
    EntryFactory.create(assignment=assignment, felt_unsafe=True)
    EntryFactory.create(assignment=assignment, discuss_in_session=True)
    EntryFactory.create(assignment=assignment, felt_unsafe=True, seen_at=timezone.now())
    EntryFactory.create(assignment=assignment, felt_unsafe=True, private=True)
    EntryFactory.create(
        assignment=assignment,
        felt_unsafe=True,
        status=Entry.Status.DRAFT,
        submitted_at=None,
        shared_at=None,
    )
    row = row_of(cast, cast.alice)
    assert (row.unread_flags, row.unread_unsafe) == (2, 1)


def test_private_flags_never_show(cast: Cast) -> None:
    EntryFactory.create(assignment=cast.alice_assignment, felt_unsafe=True, private=True)
    page = login(cast.tara).get(URL).content.decode()
    assert "felt unsafe" not in page
    assert row_of(cast, cast.alice).unread_flags == 0


def test_work_done_counts_slots_by_the_done_rule(cast: Cast) -> None:
    work = daily(cast.alice)
    for day in (1, 2, 3, 10):
        sent_for(work, day)
    sent_for(work, 4, private=True)  # a summary never counts these, nor does the caseload
    EntryFactory.create(
        assignment=work,
        occurrence_on=timezone.localdate() - dt.timedelta(days=5),
        status=Entry.Status.DRAFT,
        submitted_at=None,
        shared_at=None,
    )
    row = row_of(cast, cast.alice)
    # Today's slot is open, not missed, until the day is over: 6 days due of
    # the last 7, 27 of the last 28; the cast's one-off work is done (1 of 1).
    assert row.week == (3 + 1, 6 + 1)
    assert row.month == (4 + 1, 27 + 1)


def test_one_off_work_past_due_with_nothing_sent_is_due_not_done(cast: Cast) -> None:
    AssignmentFactory.create(client=cast.alice, due_on=timezone.localdate() - dt.timedelta(days=2))
    AssignmentFactory.create(client=cast.alice)  # due next week: not due yet
    assert row_of(cast, cast.alice).week == (1, 2)


@pytest.mark.parametrize(
    ("intensities", "trend"),
    [
        ([9, 9, 8, 9, 8, 9, 8, 6, 5, 5, 4, 3, 3, 2, 2, 2], "easing"),
        ([3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 3, 3, 3, 3, 3], "steady"),
        ([2, 2, 2, 2, 2, 2, 2, 5, 6, 7, 8, 8, 8, 8, 8, 8], "stronger"),
        ([5, 6, 7], TOO_FEW),
    ],
)
def test_urges_say_the_urge_logs_own_trend(cast: Cast, intensities: list[int], trend: str) -> None:
    urges(daily(cast.alice, kind="urge_log"), intensities)
    assert row_of(cast, cast.alice).urges == trend


def test_urges_read_the_last_four_weeks_only(cast: Cast) -> None:
    # Strong at first, months ago; about the same over the last four weeks.
    urges(daily(cast.alice, kind="urge_log", days=120), [10] * 60 + [3] * 28)
    assert row_of(cast, cast.alice).urges == "steady"


def test_private_urges_say_nothing(cast: Cast) -> None:
    urges(daily(cast.alice, kind="urge_log"), [9] * 8 + [1] * 8, private=True)
    assert row_of(cast, cast.alice).urges is None


def test_next_session_and_clients_with_none_booked_are_listed(cast: Cast) -> None:
    SessionFactory.create(client=cast.alice, starts_at=timezone.now() - dt.timedelta(days=3))
    soon = SessionFactory.create(client=cast.alice, starts_at=timezone.now() + dt.timedelta(days=2))
    SessionFactory.create(client=cast.alice, starts_at=timezone.now() + dt.timedelta(days=9))
    nobody_booked = ClientFactory.create(therapist=cast.tara, display_name="Cleo")
    ClientFactory.create(therapist=cast.tara, status=Client.Status.ARCHIVED)
    rows = caseload(user=cast.tara, therapist=cast.tara, now=timezone.now())
    assert [row.client for row in rows] == [cast.alice, nobody_booked]
    assert rows[0].next_session_at == soon.starts_at
    assert rows[1].next_session_at is None
    assert "none booked" in login(cast.tara).get(URL).content.decode()


def test_last_entry_and_safe_contact_check(cast: Cast) -> None:
    today = timezone.localdate()
    ContactProfile.objects.create(client=cast.alice, checked_on=today - dt.timedelta(weeks=20))
    row = row_of(cast, cast.alice)
    assert row.last_entry_at == cast.alice_entry.submitted_at
    assert row.contact.checked_on == today - dt.timedelta(weeks=20)
    assert row.contact.due
    nobody_checked = ClientFactory.create(therapist=cast.tara)
    assert row_of(cast, nobody_checked).contact.checked_on is None
    assert row_of(cast, nobody_checked).last_entry_at is None


def test_the_program_column_says_the_running_step_or_paused(cast: Cast) -> None:
    on_program(cast)
    mia = ClientFactory.create(therapist=cast.tara, display_name="Mia")
    paused = on_program(cast, client=mia, title="Mia's path")
    programs.client_program_pause(actor=cast.tara, client_program_id=paused.pk)
    zed = ClientFactory.create(therapist=cast.tara, display_name="Zed")
    stopped = on_program(cast, client=zed, title="Zed's path")
    programs.client_program_stop(actor=cast.tara, client_program_id=stopped.pk)
    alice = row_of(cast, cast.alice).program
    assert alice is not None and (alice.step, alice.steps, alice.is_paused) == (1, 3, False)
    mias = row_of(cast, mia).program
    assert mias is not None and mias.is_paused
    assert row_of(cast, zed).program is None  # an ended program is not the caseload's
    page = login(cast.tara).get(URL, {"o": "-program"}).content.decode()
    cells = page.split('class="caseload-program">')[1:]
    assert "Step 1 of 3" in cells[0] and "Understanding the pull" in cells[0]
    assert "Paused" in cells[1] and "Mia&#x27;s path" in cells[1]
    assert "—" in cells[2] and "path" not in cells[2].split("</td>")[0]


def names_in_order(page: str, names: list[str]) -> list[str]:
    return sorted(names, key=page.index)


def test_sorts_by_the_column_asked_for_and_calmly_by_default(cast: Cast) -> None:
    ClientFactory.create(therapist=cast.tara, display_name="Zed")
    flagged = ClientFactory.create(therapist=cast.tara, display_name="Mia")
    EntryFactory.create(assignment__client=flagged, felt_unsafe=True)
    http = login(cast.tara)
    by_name = http.get(URL, {"o": "name"}).content.decode()
    assert names_in_order(by_name, ["Zed", "Mia", "Alice"]) == ["Alice", "Mia", "Zed"]
    assert 'aria-sort="ascending"><a href="?o=-name"' in by_name
    backwards = http.get(URL, {"o": "-name"}).content.decode()
    assert names_in_order(backwards, ["Zed", "Mia", "Alice"]) == ["Zed", "Mia", "Alice"]
    for bad in ("password", "-", "name;drop", "x" * 5000):
        response = http.get(URL, {"o": bad})
        assert response.status_code == 200
        page = response.content.decode()
        assert names_in_order(page, ["Zed", "Mia", "Alice"])[0] == "Mia"  # flags first
        assert 'aria-sort="descending"><a href="?o=flags"' in page


def test_a_therapist_sees_only_their_own_caseload(cast: Cast) -> None:
    http = login(cast.tara)
    assert "Bob" not in http.get(URL).content.decode()
    assert http.get(URL, {"therapist": cast.theo.pk}).status_code == 404
    assert http.get(URL, {"therapist": cast.tara.pk}).status_code == 200


def test_a_manager_chooses_whose_caseload(cast: Cast) -> None:
    http = login(cast.morgan)
    page = http.get(URL, {"therapist": cast.theo.pk}).content.decode()
    assert "Bob" in page and "Alice" not in page
    for bad in ("abc", str(cast.morgan.pk), str(cast.alice.portal_user_id), "9" * 30):
        assert http.get(URL, {"therapist": bad}).status_code == 404


def test_the_home_page_leads_to_the_caseload(cast: Cast) -> None:
    assert URL in login(cast.tara).get(reverse("admin:index")).content.decode()


# The session, user and second factor; the clients with their counts; their work, the days done,
# the urges, the answers to review; the look in the access log (four, in a savepoint): 12 before
# the Program column, which adds two: the running programs, and their steps; the Measures column
# adds two: the practice's measures, then each client's first and latest total of each, in one pass.
CASELOAD_QUERIES = 12 + 2 + 2


def count_queries(cast: Cast) -> int:
    http = login(cast.tara)
    http.get(URL)  # the practice's settings cached, as after any first page
    with CaptureQueriesContext(connection) as captured:
        response = http.get(URL)
    assert response.status_code == 200
    return len(captured.captured_queries)


def a_full_client(cast: Cast, *, log_days: int = 7) -> None:
    client = ClientFactory.create(therapist=cast.tara, portal_user=None)
    SessionFactory.create(client=client)
    ContactProfile.objects.create(client=client, checked_on=timezone.localdate())
    urges(daily(client, kind="urge_log", days=log_days + 1), [5] * log_days)
    sent_for(daily(client), 1, felt_unsafe=True)
    EntryFactory.create(assignment__client=client, discuss_in_session=True)
    # Answers to review, each named on the row (the newest few, in one query).
    check_in = AssignmentFactory.create(client=client, exercise=watching_safety())
    for _ in range(4):
        EntryFactory.create(assignment=check_in, response={"safe": 1})
    on_program(cast, client=client)
    # The Measures column reads a measure sent twice.
    scored = assigned(client, measure(reliable_change=4, cutoff=10))
    sent_total(scored, 12, days_ago=20)
    sent_total(scored, 6, days_ago=2)


# 50 full clients, as test_admin_queries' pages at 50 rows: a query per row shows at
# any number, and the caseload has no pages, batches or chunks that only 200 would reach.
def test_queries_the_same_at_1_and_50_clients(cast: Cast) -> None:
    a_full_client(cast)
    one = count_queries(cast)
    assert one == CASELOAD_QUERIES
    for _ in range(49):
        a_full_client(cast)
    assert count_queries(cast) == one


def test_queries_the_same_for_a_year_of_daily_entries_as_a_week(cast: Cast) -> None:
    a_full_client(cast, log_days=7)
    week = count_queries(cast)
    a_full_client(cast, log_days=365)
    assert count_queries(cast) == week
