"""What a summary's sections know from before their period: the last contact
logged earlier, and the support map before. One query for all kinds."""

import datetime as dt
import re

import pytest
from django.utils import timezone

from homework.kinds.values import SummaryScope
from homework.selectors.period import PeriodQuery, period_for_dates
from homework.summary import render, selectors
from tests.factories import (
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    SessionFactory,
    daily_urge_log,
    support_network,
    urge_log,
)
from tests.helpers import day_pattern

pytestmark = pytest.mark.django_db


def logged(assignment, days_ago: int, *, contact: bool = False, private: bool = False):
    at = timezone.localtime() - dt.timedelta(days=days_ago)
    return EntryFactory.create(
        assignment=assignment,
        submitted_at=at,
        private=private,
        response=urge_log(
            at=at.strftime("%Y-%m-%dT%H:%M"),
            contact_happened=contact,
            contact_initiated_by="them" if contact else "none",
        ),
    )


@pytest.fixture
def log(cast):
    """Thirty days of no contact asked for; the last session a week ago."""
    now = timezone.now()
    SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=7))
    SessionFactory.create(client=cast.alice, starts_at=now + dt.timedelta(days=1))
    return AssignmentFactory.create(
        client=cast.alice,
        exercise=ExerciseFactory.create(kind="urge_log", title="No contact"),
        no_contact_since=timezone.localdate() - dt.timedelta(days=30),
    )


def summary_html(cast, query: PeriodQuery | None = None) -> str:
    now = timezone.now()
    period = (
        period_for_dates(since=query.since, until=query.until, session=None)
        if query is not None and query.since is not None and query.until is not None
        else selectors.resolve_period(
            user=cast.tara, client=cast.alice, query=PeriodQuery(), now=now
        )
    )
    data = selectors.summary_data(
        user=cast.tara, client=cast.alice, period=period, full_detail=False, now=now
    )
    return render.summary_document(data).html


@pytest.mark.clock
def test_days_without_contact_count_from_a_contact_logged_before_the_period(cast, log):
    logged(log, 10, contact=True)
    for days_ago in (5, 3, 1):
        logged(log, days_ago)
    contact_day = timezone.localdate() - dt.timedelta(days=10)
    assert re.search(
        f"no contact for 10 days; last contact {day_pattern(contact_day, 'j M')} "
        r"\(the other person reached out\)\.",
        summary_html(cast),
    )


@pytest.mark.clock
def test_a_private_contact_before_the_period_is_not_counted(cast, log):
    logged(log, 10, contact=True, private=True)
    logged(log, 2)
    since = timezone.localdate() - dt.timedelta(days=30)
    assert re.search(
        rf"no contact for 30 days \(since {day_pattern(since, 'j M')}\)\.", summary_html(cast)
    )


def test_a_summary_of_past_dates_counts_no_contact_to_its_own_last_day(cast, log):
    today = timezone.localdate()
    logged(log, 25, contact=True)
    logged(log, 12)
    logged(log, 2, contact=True)  # after the chosen dates: not theirs to know
    html = summary_html(
        cast,
        PeriodQuery(since=today - dt.timedelta(days=20), until=today - dt.timedelta(days=5)),
    )
    assert "no contact for 20 days; last contact" in html


def test_the_support_map_says_what_changed_since_the_map_before_the_period(cast):
    now = timezone.now()
    SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=7))
    corner = AssignmentFactory.create(
        client=cast.alice, exercise=ExerciseFactory.create(kind="support_network")
    )
    EntryFactory.create(
        assignment=corner, submitted_at=now - dt.timedelta(days=10), response=support_network()
    )
    closer = support_network()
    closer["people"][1]["circle"] = "inner"  # Mum, from the middle ring
    closer["people"].append({"name": "Sam", "circle": "outer", "roles": [], "steadying": True})
    EntryFactory.create(assignment=corner, submitted_at=now - dt.timedelta(days=2), response=closer)
    assert "Since the map before: Mum moved closer; Sam added" in summary_html(cast)


def test_an_old_contact_shared_late_does_not_hide_a_later_one(cast, log):
    """The contact 10 days ago was shared at once; one from 20 days ago was
    kept private and shared today, so it is in this period's entries. The
    later contact still counts."""
    from homework import services

    logged(log, 10, contact=True)
    old = logged(log, 20, contact=True, private=True)
    services.entry_set_private(user=cast.alice.portal_user, key=old.key, private=False)
    contact_day = timezone.localdate() - dt.timedelta(days=10)
    assert f"no contact for 10 days; last contact {contact_day:%-d %b}" in summary_html(cast)


def test_what_changed_compares_with_the_map_sent_just_before_not_one_shared_late(cast):
    from homework import services

    now = timezone.now()
    SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=7))
    corner = AssignmentFactory.create(
        client=cast.alice, exercise=ExerciseFactory.create(kind="support_network")
    )
    with_sam = support_network()
    with_sam["people"].append({"name": "Sam", "circle": "outer", "roles": [], "steadying": True})
    EntryFactory.create(
        assignment=corner, submitted_at=now - dt.timedelta(days=10), response=with_sam
    )
    # A map from long ago, kept private, shared today: older than both.
    old = EntryFactory.create(
        assignment=corner,
        submitted_at=now - dt.timedelta(days=30),
        private=True,
        response=support_network(),
    )
    services.entry_set_private(user=cast.alice.portal_user, key=old.key, private=False)
    latest = support_network()
    latest["people"].append({"name": "Sam", "circle": "inner", "roles": [], "steadying": True})
    EntryFactory.create(assignment=corner, submitted_at=now - dt.timedelta(days=2), response=latest)
    assert "Since the map before: Sam moved closer" in summary_html(cast)


def test_the_urge_curve_runs_since_no_contact_began_not_only_since_the_last_session(cast):
    """A daily log begun three weeks ago, a session every week: the chart is
    drawn from the day no contact began, so its days before the last session
    are the client's logged days, not gaps ("a day not logged"), and three
    weeks are enough to say whether the pull is easing."""
    now = timezone.now()
    today = timezone.localdate()
    SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=7))
    SessionFactory.create(client=cast.alice, starts_at=now + dt.timedelta(days=1))
    daily_urge_log(
        cast.alice, start=today - dt.timedelta(days=20), days=21, intensity=lambda day: 9 - day // 3
    )
    period = selectors.resolve_period(
        user=cast.tara, client=cast.alice, query=PeriodQuery(), now=now
    )
    data = selectors.summary_data(
        user=cast.tara, client=cast.alice, period=period, full_detail=False, now=now
    )
    (section,) = [s for s in data.sections if s.kind.slug == "urge_log"]
    context = section.kind.summary_context(
        section.entries, SummaryScope(earlier=section.earlier, as_of=period.as_of(now))
    )
    (shown,) = context["sections"]
    assert len(shown["curve"]["days"]) == 21  # every day logged, before the period too
    assert shown["count"] == len(section.entries)
    html = render.summary_document(data).html
    assert f"{len(section.entries)} urges shared in this period" in html
    assert "Urges easing: mean 8.3 in the first week logged, 3.7 in the last." in html


def test_the_urge_curve_before_the_period_leaves_out_private_urges(cast, log):
    """Urges kept private before the period stay out of the curve."""
    for days_ago in (20, 19, 18, 17, 16, 15, 14):
        logged(log, days_ago, private=True)
    logged(log, 2)
    now = timezone.now()
    period = selectors.resolve_period(
        user=cast.tara, client=cast.alice, query=PeriodQuery(), now=now
    )
    data = selectors.summary_data(
        user=cast.tara, client=cast.alice, period=period, full_detail=False, now=now
    )
    (section,) = [s for s in data.sections if s.kind.slug == "urge_log"]
    context = section.kind.summary_context(section.entries, SummaryScope(earlier=section.earlier))
    assert len(context["sections"][0]["curve"]["days"]) == 1
