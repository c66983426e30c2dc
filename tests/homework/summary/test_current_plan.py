"""The safety plan is a living document: every summary says whether a
current one exists and when it last changed, whatever its period, and
full detail prints it."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import formats, timezone

from homework.selectors.period import PeriodQuery
from homework.summary import render, selectors
from tests.conftest import login
from tests.factories import RESPONSES, AssignmentFactory, EntryFactory, SessionFactory

from .conftest import pdf_text

pytestmark = pytest.mark.django_db

NONE_SHARED = "No safety plan has been shared"


def plan_for(client, *, sent_at, private=False, **words):
    return EntryFactory.create(
        assignment=AssignmentFactory.create(
            client=client, exercise__kind="safety_plan", exercise__title="My plan"
        ),
        response=RESPONSES["safety_plan"](**words),
        submitted_at=sent_at,
        private=private,
    )


def next_session_html(cast, *, full_detail=False, user=None):
    now = timezone.now()
    user = user or cast.tara
    period = selectors.resolve_period(user=user, client=cast.alice, query=PeriodQuery(), now=now)
    data = selectors.summary_data(
        user=user, client=cast.alice, period=period, full_detail=full_detail, now=now
    )
    return render.summary_document(data)


def day(moment: dt.datetime) -> str:
    return formats.date_format(timezone.localtime(moment), "j M Y")


@pytest.mark.parametrize("full_detail", [False, True])
def test_a_plan_changed_just_before_the_last_session_is_still_in_the_summary(cast, full_detail):
    """Changed an hour before the previous session, it dropped out of the
    next summary entirely, even in full detail."""
    now = timezone.now()
    last_session = SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=7))
    SessionFactory.create(client=cast.alice, starts_at=now + dt.timedelta(days=1))
    plan = plan_for(cast.alice, sent_at=last_session.starts_at - dt.timedelta(hours=1))
    document = next_session_html(cast, full_detail=full_detail)
    assert f"in place, last changed {day(plan.submitted_at)}" in document.html
    assert NONE_SHARED not in document.html
    # The plan's words only with full detail; printed, the therapist has read it.
    assert ("pineapple" in document.html) is full_detail
    assert ("its contents print only with full detail" in document.html) is not full_detail
    assert (plan.pk in document.printed) is full_detail


def test_a_plan_edited_after_it_was_sent_says_when_it_changed(cast):
    now = timezone.now()
    plan = plan_for(cast.alice, sent_at=now - dt.timedelta(days=90))
    type(plan).objects.filter(pk=plan.pk).update(changed_at=now - dt.timedelta(days=3))
    html = next_session_html(cast).html
    assert f"last changed {day(now - dt.timedelta(days=3))}" in html


def test_the_newest_shared_plan_is_current_and_a_private_one_never_shows(cast):
    """Staff learn of a plan only through the rule for every entry
    (readable_by_staff): a newer private plan leaves the shared one current."""
    now = timezone.now()
    shared = plan_for(cast.alice, sent_at=now - dt.timedelta(days=40), code_word="older")
    plan_for(cast.alice, sent_at=now - dt.timedelta(days=20), code_word="newer")
    plan_for(cast.alice, sent_at=now - dt.timedelta(days=2), private=True, code_word="secret")
    html = next_session_html(cast, full_detail=True).html
    assert "newer" in html
    assert "older" not in html and "secret" not in html
    assert f"last changed {day(now - dt.timedelta(days=20))}" in html
    assert shared.pk not in next_session_html(cast, full_detail=True).printed


@pytest.mark.parametrize("who", ["nobody", "only private", "another client"])
def test_without_a_shared_plan_the_summary_says_so(cast, who):
    now = timezone.now()
    if who == "only private":
        plan_for(cast.alice, sent_at=now - dt.timedelta(days=3), private=True)
    elif who == "another client":
        plan_for(cast.bob, sent_at=now - dt.timedelta(days=3))
    document = next_session_html(cast, full_detail=True)
    assert NONE_SHARED in document.html
    assert "pineapple" not in document.html
    # The written record of the period still prints: the plan's line is not "nothing shared".
    assert "Nothing was shared in this period." not in document.html


def test_nothing_shared_in_the_period_still_says_so_beside_the_plan(cast):
    cast.alice_entry.delete()
    plan_for(cast.alice, sent_at=timezone.now() - dt.timedelta(days=200))
    html = next_session_html(cast).html
    assert "Nothing was shared in this period." in html
    assert "in place, last changed" in html


def test_the_printed_pdf_says_the_plan_is_in_place_whatever_the_period(cast):
    plan = plan_for(cast.alice, sent_at=timezone.now() - dt.timedelta(days=120))
    url = reverse("admin:clients_client_summary", args=[cast.alice.pk])
    brief = pdf_text(login(cast.tara).get(url).content)
    assert f"in place, last changed {day(plan.submitted_at)}" in brief
    assert "pineapple" not in brief
    full = pdf_text(login(cast.tara).get(url, {"full_detail": "1"}).content)
    assert "pineapple" in full and "Jo's flat." in full
