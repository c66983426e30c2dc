"""A "felt unsafe" entry sent before the last session and not read by then
is carried into the next summary's "Felt unsafe" list, within the look-back
the admin home's banner uses (homework.selectors.UNSAFE_FLAG_WINDOW): the
banner said "not read yet" while the summary for the next session, which
starts at the last one, left it out."""

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from homework.models import Entry
from homework.selectors import UNSAFE_FLAG_WINDOW, staff_home
from homework.selectors.period import PeriodQuery
from homework.summary import render, selectors, services
from tests.conftest import login
from tests.factories import SessionFactory
from tests.helpers import day_pattern

from .conftest import add, pdf_text

pytestmark = pytest.mark.django_db

CARRIED = "sent before the last session, not read by then"
LAST_SESSION_DAYS_AGO = 5


@pytest.fixture
def sessions(cast):
    """The last session five days ago, the next one tomorrow."""
    now = timezone.now()
    last = SessionFactory.create(
        client=cast.alice, starts_at=now - dt.timedelta(days=LAST_SESSION_DAYS_AGO)
    )
    SessionFactory.create(client=cast.alice, starts_at=now + dt.timedelta(days=1))
    return last


def regular_data(cast, *, user=None, now=None):
    now = now or timezone.now()
    user = user or cast.tara
    period = selectors.resolve_period(user=user, client=cast.alice, query=PeriodQuery(), now=now)
    return selectors.summary_data(
        user=user, client=cast.alice, period=period, full_detail=False, now=now
    )


def regular_text(cast) -> str:
    summary = services.summary_pdf(user=cast.tara, client=cast.alice, query=PeriodQuery())
    return pdf_text(summary.content)


def felt_unsafe_part(text: str) -> str:
    upper = text.upper()
    start = upper.index("FELT UNSAFE")
    return text[start : upper.index("ASSIGNED WORK")]


@pytest.mark.clock
def test_an_unread_unsafe_entry_from_before_the_last_session_is_carried_forward(cast, sessions):
    earlier = add(
        cast.alice_assignment,
        days_ago=8,
        what_happened="He waited outside my work again.",
        felt_unsafe=True,
    )
    text = regular_text(cast)
    flags = felt_unsafe_part(text)
    assert "He waited outside my work again." in flags
    happened = timezone.localtime(earlier.submitted_at) - dt.timedelta(hours=1)
    assert re.search(f"{day_pattern(happened, 'D j M')} · {re.escape(CARRIED)} · ", flags)


def test_a_carried_entry_is_not_counted_or_listed_as_the_periods(cast, sessions):
    """It is listed under "Felt unsafe" only: the kinds' sections and the
    tally of what came back are the period's."""
    cast.alice_entry.delete()
    add(cast.alice_assignment, days_ago=8, what_happened="Before the session.", felt_unsafe=True)
    add(cast.alice_assignment, days_ago=2, what_happened="Since the session.")
    data = regular_data(cast)
    assert [e.response["what_happened"] for e in data.entries] == ["Since the session."]
    (section,) = [section for section in data.sections if section.entries]
    assert [e.response["what_happened"] for e in section.entries] == ["Since the session."]
    assert [e.response["what_happened"] for e in data.unsafe_before] == ["Before the session."]
    text = regular_text(cast)
    assert "1 entry shared" in text
    assert text.count("Before the session.") == 1  # in the flags, not the section


def test_an_unsafe_entry_read_before_the_last_session_is_not_carried(cast, sessions):
    read = add(cast.alice_assignment, days_ago=8, what_happened="Read in time.", felt_unsafe=True)
    Entry.objects.filter(pk=read.pk).update(
        seen_at=timezone.now() - dt.timedelta(days=LAST_SESSION_DAYS_AGO + 1)
    )
    assert regular_data(cast).unsafe_before == []
    assert "Read in time." not in regular_text(cast)


def test_only_felt_unsafe_is_carried_not_talk_about_or_plain_entries(cast, sessions):
    add(cast.alice_assignment, days_ago=8, what_happened="To talk about.", discuss_in_session=True)
    add(cast.alice_assignment, days_ago=8, what_happened="Just a record.")
    assert regular_data(cast).unsafe_before == []


def test_the_look_back_is_the_admin_homes_own(cast, sessions):
    """What the banner lists and nobody has read is in the summary; what has
    left the banner has left the summary too."""
    now = timezone.now()
    inside = now - UNSAFE_FLAG_WINDOW + dt.timedelta(hours=1)
    outside = now - UNSAFE_FLAG_WINDOW - dt.timedelta(hours=1)
    kept = add(
        cast.alice_assignment,
        days_ago=(now - inside).total_seconds() / 86400,
        what_happened="Inside the look-back.",
        felt_unsafe=True,
    )
    add(
        cast.alice_assignment,
        days_ago=(now - outside).total_seconds() / 86400,
        what_happened="Outside the look-back.",
        felt_unsafe=True,
    )
    banner = staff_home(user=cast.tara, previous_visit=None, now=now).unsafe
    assert banner == [kept]
    assert regular_data(cast, now=now).unsafe_before == [kept]


def test_never_a_private_entry_nor_another_clients(cast, sessions):
    add(
        cast.alice_assignment,
        days_ago=8,
        what_happened="Kept private.",
        felt_unsafe=True,
        private=True,
    )
    SessionFactory.create(
        client=cast.bob, starts_at=timezone.now() - dt.timedelta(days=LAST_SESSION_DAYS_AGO)
    )
    add(cast.bob_assignment, days_ago=8, what_happened="Bob's words.", felt_unsafe=True)
    assert regular_data(cast).unsafe_before == []
    assert regular_data(cast, user=cast.morgan).unsafe_before == []
    text = regular_text(cast)
    assert "Kept private." not in text and "Bob's words." not in text


def test_chosen_dates_carry_nothing_forward(cast, sessions):
    """Chosen dates hold what was shared on those days, as the form says."""
    add(cast.alice_assignment, days_ago=8, what_happened="Before the dates.", felt_unsafe=True)
    today = timezone.localdate()
    summary = services.summary_pdf(
        user=cast.tara,
        client=cast.alice,
        query=PeriodQuery(since=today - dt.timedelta(days=3), until=today),
    )
    assert summary.data.unsafe_before == []
    assert "Before the dates." not in pdf_text(summary.content)


def test_a_past_sessions_summary_carries_what_was_unread_at_its_own_start(cast, sessions):
    """The row of the session five days ago prints the summary it had: an
    entry sent before the session before it, unread then, is carried there."""
    now = timezone.now()
    SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=9))
    add(cast.alice_assignment, days_ago=11, what_happened="Two sessions back.", felt_unsafe=True)
    period = selectors.period_for_session(
        user=cast.tara, client=cast.alice, target=sessions, now=now
    )
    data = selectors.summary_data(
        user=cast.tara, client=cast.alice, period=period, full_detail=False, now=now
    )
    assert [e.response["what_happened"] for e in data.unsafe_before] == ["Two sessions back."]


def test_printing_reads_nothing_and_printing_again_still_lists_a_carried_entry(cast, sessions):
    """Printing is a look, never a read (only "Mark as read" is): the entry
    stays unread, and a second copy lists it as the first did."""
    earlier = add(
        cast.alice_assignment, days_ago=8, what_happened="Outside my door.", felt_unsafe=True
    )
    url = reverse("admin:clients_client_summary", args=[cast.alice.pk])
    http = login(cast.tara)
    first = http.get(url)
    earlier.refresh_from_db()
    assert earlier.seen_at is None
    second = http.get(url)
    for response in (first, second):
        assert "Outside my door." in felt_unsafe_part(pdf_text(response.content))


def test_the_document_stays_the_same_once_a_carried_entry_is_read(cast, sessions):
    """A stored summary is served again while nothing it shows changed."""
    earlier = add(cast.alice_assignment, days_ago=8, felt_unsafe=True)
    before = render.summary_document(regular_data(cast)).fingerprint
    Entry.objects.filter(pk=earlier.pk).update(seen_at=timezone.now())
    assert render.summary_document(regular_data(cast)).fingerprint == before


def count_queries(cast) -> int:
    with CaptureQueriesContext(connection) as queries:
        regular_data(cast)
    return len(queries)


def test_carrying_forward_costs_no_query(cast, sessions):
    count_queries(cast)  # the practice settings are cached from here on
    without = count_queries(cast)
    for days_ago in (8, 9, 10):
        add(cast.alice_assignment, days_ago=days_ago, felt_unsafe=True)
    add(cast.alice_assignment, days_ago=2)
    assert count_queries(cast) == without
