"""The client's page as the therapist's workspace (what matters now, the
actions grouped) and since-last-session agreeing with the session summary."""

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clients.models import AccessEvent
from clients.selectors import session_window
from homework.models import Entry
from homework.selectors.period import period_for_window
from homework.summary.render import summary_context
from homework.summary.selectors import summary_data
from tests.conftest import Cast, login
from tests.factories import (
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    SessionFactory,
    daily_assignment,
    options_for,
    urge_log,
)


def page(cast: Cast) -> str:
    response = login(cast.tara).get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
    assert response.status_code == 200
    return response.content.decode()


def now_block(html: str) -> str:
    start = html.index('id="now-heading"')
    return html[start : html.index('class="ws-edit-heading"')]


def daily_urges(cast: Cast, *, days: int) -> None:
    """A daily urge log with one urge a day at noon for ``days`` days to today."""
    today = timezone.localdate()
    start = today - dt.timedelta(days=days - 1)
    assignment = daily_assignment(
        cast.alice,
        exercise=ExerciseFactory.create(kind="urge_log", options=options_for("urge_log")),
        starts_on=start,
        ends_on=today + dt.timedelta(days=30),
        no_contact_since=start,
    )
    for day in range(days):
        at = timezone.make_aware(dt.datetime.combine(start + dt.timedelta(days=day), dt.time(12)))
        at = min(at, timezone.now() - dt.timedelta(minutes=5))
        EntryFactory.create(
            assignment=assignment,
            submitted_at=at,
            response={**urge_log(), "at": at.isoformat(), "intensity": 4},
        )


def test_what_matters_now_lists_unread_flags_only_never_private_or_drafts(cast):
    unread = EntryFactory.create(assignment=cast.alice_assignment, felt_unsafe=True)
    EntryFactory.create(
        assignment=cast.alice_assignment, felt_unsafe=True, seen_at=timezone.now()
    )  # read already
    private = EntryFactory.create(assignment=cast.alice_assignment, felt_unsafe=True, private=True)
    draft = EntryFactory.create(
        assignment=cast.alice_assignment,
        felt_unsafe=True,
        status=Entry.Status.DRAFT,
        submitted_at=None,
    )
    block = now_block(page(cast))
    flags = block[block.index('id="now-flags"') : block.index('id="now-session"')]
    links = re.findall(r"/admin/homework/entry/(\d+)/change/", flags)
    assert links == [str(unread.pk)]
    assert str(private.pk) not in links and str(draft.pk) not in links
    assert "felt unsafe" in flags


def test_what_matters_now_shows_the_next_session_with_its_print_link(cast):
    session = SessionFactory.create(
        client=cast.alice, starts_at=timezone.now() + dt.timedelta(days=2)
    )
    block = now_block(page(cast))
    summary = reverse("admin:clients_client_summary", args=[cast.alice.pk])
    assert f'href="{summary}?session={session.pk}"' in block
    assert "Print its summary" in block


def test_no_session_booked_says_so(cast):
    assert "No session is booked" in now_block(page(cast))


def test_work_done_of_due_counts_by_the_summarys_rule(cast):
    # Ten days of a daily log, each day sent (today's too, so counted), and the
    # cast's one-off record, sent: 7 + 1 in the last 7 days, 10 + 1 in 28.
    daily_urges(cast, days=10)
    block = now_block(page(cast))
    assert "Last 7 days: 8 of 8 done" in block
    assert "Last 28 days: 11 of 11 done" in block


def open_block(cast: Cast) -> str:
    block = now_block(page(cast))
    return block[block.index('id="now-open"') : block.index('id="now-recent"')]


def test_open_assignments_are_listed_with_their_schedule(cast):
    waiting = AssignmentFactory.create(client=cast.alice)
    opened = open_block(cast)
    assert reverse("admin:homework_assignment_change", args=[waiting.pk]) in opened
    assert waiting.exercise.title in opened
    assert "—" in opened  # its schedule beside it
    assert "Overdue" not in opened


def test_an_exercise_already_sent_is_not_listed_as_open(cast):
    """The cast's one-off record is sent and not yet due: done, by the same
    rule as the progress column and the summary (selectors.completion)."""
    opened = open_block(cast)
    assert (
        reverse("admin:homework_assignment_change", args=[cast.alice_assignment.pk]) not in opened
    )
    assert "No work is open." in opened


@pytest.mark.parametrize(("sent", "listed"), [(False, True), (True, False)])
def test_past_its_due_date_work_is_overdue_unless_it_was_sent(cast, sent, listed):
    late = AssignmentFactory.create(
        client=cast.alice,
        starts_on=timezone.localdate() - dt.timedelta(days=10),
        due_on=timezone.localdate() - dt.timedelta(days=2),
    )
    if sent:
        EntryFactory.create(assignment=late)
    opened = open_block(cast)
    assert (reverse("admin:homework_assignment_change", args=[late.pk]) in opened) is listed
    assert ("Overdue" in opened) is listed


def test_last_entries_are_each_kinds_digest_with_a_count_linking_to_them(cast):
    daily_urges(cast, days=7)
    block = now_block(page(cast))
    recent = block[block.index('id="now-recent"') :]
    assert "urges shared in this period" in recent  # the urge log's own summary words
    # One link a kind, not one an entry: a week of logs repeated one title seven times.
    assert not re.findall(r"/admin/homework/entry/\d+/change/", recent)
    entries = reverse("admin:homework_entry_changelist")
    links = re.findall(rf'href="{entries}\?client={cast.alice.pk}&amp;([^"]+)">([^<]+)</a>', recent)
    assert ("assignment__exercise__kind=urge_log", "7 entries: read each in full") in links
    assert ("assignment__exercise__kind=written_record", "1 entry: read it in full") in links
    listed = login(cast.tara).get(f"{entries}?client={cast.alice.pk}&{links[0][0]}")
    assert len(listed.context["cl"].result_list) == 7


def test_actions_are_grouped_read_assign_rare(cast):
    html = page(cast)
    start = html.index('class="ws-tools"')
    tools = html[start : html.index("</nav>", start)]
    groups = re.findall(
        r'<ul class="object-tools ws-tools__group([^"]*)" aria-label="([^"]+)"', tools
    )
    assert [label for _, label in groups] == ["Read and print", "Assign", "Rarely needed"]
    read, assign, rare = re.split(r"<ul class=\"object-tools", tools)[1:]
    assert "Print session summary" in read and "Since last session" in read
    assert "Assign exercise" in assign
    assert "Archive" in rare and "ws-rare-link" in rare and "--rare" in groups[2][0]
    assert "Archive" not in read + assign
    # The form below has a heading of its own.
    assert (
        html.index(">Details</h2>")
        > html.index('id="sessions-heading"')
        > html.index('id="now-heading"')
    )


def test_since_last_session_shows_what_the_summary_shows(cast):
    """Same entries (an unread felt-unsafe one carried from before the
    period included), same counts, same words."""
    now = timezone.now()
    SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=3))
    before = EntryFactory.create(
        assignment=cast.alice_assignment,
        felt_unsafe=True,
        submitted_at=now - dt.timedelta(days=5),
    )
    daily_urges(cast, days=3)
    http = login(cast.tara)
    response = http.get(reverse("admin:clients_client_since_last_session", args=[cast.alice.pk]))
    html = response.content.decode()
    window = session_window(client=cast.alice, now=now)
    data = summary_data(
        user=cast.tara,
        client=cast.alice,
        period=period_for_window(window),
        full_detail=False,
        now=now,
    )
    drawn = summary_context(data)
    shown = {e.pk for e in response.context["shared_entries"]}
    assert shown == {e.pk for e in data.entries}
    assert before.pk in {e.pk for e in data.unsafe_before}
    assert f"/admin/homework/entry/{before.pk}/change/" in html  # carried, one click away
    assert "sent before the last session, not read by then" in html
    tally = f"{drawn['entry_count']} entries shared"
    assert tally in html
    for line in drawn["glance"]:
        for words in line["lines"]:
            assert str(words) in html.replace("&#x27;", "'")


def test_since_last_session_shows_repeated_logs_as_the_digest(cast):
    daily_urges(cast, days=7)
    http = login(cast.tara)
    response = http.get(reverse("admin:clients_client_since_last_session", args=[cast.alice.pk]))
    html = response.content.decode()
    assert html.count("urges shared in this period") == 1
    assert 'class="entry-card' not in html  # no card per urge
    urges = [
        e for e in response.context["shared_entries"] if e.assignment.exercise.kind == "urge_log"
    ]
    for entry in urges:
        assert f"/admin/homework/entry/{entry.pk}/change/" in html


def _queries(http, url: str) -> int:
    AccessEvent.objects.all().delete()
    Entry.objects.update(seen_at=None)
    with CaptureQueriesContext(connection) as captured:
        response = http.get(url)
    assert response.status_code == 200
    return len(captured.captured_queries)


@pytest.mark.parametrize(
    "name", ["admin:clients_client_change", "admin:clients_client_since_last_session"]
)
def test_a_year_of_daily_entries_costs_what_a_week_does(cast, name):
    SessionFactory.create(client=cast.alice, starts_at=timezone.now() - dt.timedelta(days=400))
    SessionFactory.create(client=cast.alice, starts_at=timezone.now() + dt.timedelta(days=2))
    http = login(cast.tara)
    url = reverse(name, args=[cast.alice.pk])
    daily_urges(cast, days=7)
    http.get(url)  # warm
    week = _queries(http, url)
    Entry.objects.filter(assignment__exercise__kind="urge_log").delete()
    daily_urges(cast, days=365)
    assert _queries(http, url) == week
