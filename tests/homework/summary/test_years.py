"""Dates in the summary name their year where it does not go without saying:
a period over New Year names it on every date ("3 Jan" could be either
year's); a period within one year, whichever year, leaves it to the masthead."""

import datetime as dt
import zoneinfo

import pytest
from django.utils import timezone

from homework.selectors.period import period_for_dates
from homework.summary import render, selectors
from tests.factories import (
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    boundary_steps,
    urge_log,
    written_record,
)

pytestmark = pytest.mark.django_db

LONDON = zoneinfo.ZoneInfo("Europe/London")
SATURDAY_EVENING = dt.datetime(2026, 1, 3, 20, 0, tzinfo=LONDON)


@pytest.fixture
def early_january(cast):
    """Work from the first days of 2026: a flagged record, a contact, a ladder
    step planned for 5 January (the factory's), and a record due 9 January, not sent."""
    record = AssignmentFactory.create(client=cast.alice, starts_on=dt.date(2025, 12, 1))
    EntryFactory.create(
        assignment=record,
        submitted_at=SATURDAY_EVENING,
        discuss_in_session=True,
        response={**written_record(), "occurred_at": SATURDAY_EVENING.isoformat()},
    )
    log = AssignmentFactory.create(
        client=cast.alice,
        exercise=ExerciseFactory.create(kind="urge_log"),
        starts_on=dt.date(2025, 12, 1),
        no_contact_since=dt.date(2025, 12, 1),
    )
    contact = dt.datetime(2026, 1, 2, 9, 0, tzinfo=LONDON)
    EntryFactory.create(
        assignment=log,
        submitted_at=contact,
        response=urge_log(at=contact.isoformat(), contact_happened=True, contact_initiated_by="me"),
    )
    EntryFactory.create(
        assignment=AssignmentFactory.create(
            client=cast.alice,
            exercise=ExerciseFactory.create(kind="boundary_steps"),
            starts_on=dt.date(2025, 12, 1),
        ),
        submitted_at=SATURDAY_EVENING,
        response=boundary_steps(),
    )
    AssignmentFactory.create(
        client=cast.alice, starts_on=dt.date(2025, 12, 1), due_on=dt.date(2026, 1, 9)
    )


def html_for(cast, since: dt.date, until: dt.date) -> str:
    period = period_for_dates(since=since, until=until, session=None)
    data = selectors.summary_data(
        user=cast.tara, client=cast.alice, period=period, full_detail=True, now=timezone.now()
    )
    return render.summary_document(data).html


def test_a_period_over_new_year_names_the_year_of_every_date(cast, early_january):
    html = html_for(cast, dt.date(2025, 12, 15), dt.date(2026, 1, 10))
    assert "Sat 3 Jan 2026 · Keep the full picture" in html  # the flag
    assert "Sat 3 Jan 2026, 20:00" in html  # when it happened
    assert "last contact 2 Jan 2026" in html and "2 Jan 2026 (the client reached out)" in html
    assert "planned for 5 Jan 2026" in html
    assert "due 9 Jan 2026, not done" in html
    assert "Jan," not in html and "Jan " not in html.replace("Jan 2026", "")


@pytest.mark.parametrize(
    ("since", "until"),
    [
        (dt.date(2026, 1, 1), dt.date(2026, 1, 10)),
        # A summary of another year's days: the masthead names the year once.
        (dt.date(2025, 12, 1), dt.date(2025, 12, 31)),
    ],
)
def test_a_period_within_one_year_leaves_its_year_to_the_masthead(cast, since, until):
    when = dt.datetime(until.year, until.month, 3, 20, 0, tzinfo=LONDON)
    EntryFactory.create(
        assignment=AssignmentFactory.create(client=cast.alice, starts_on=since),
        submitted_at=when,
        discuss_in_session=True,
        response={**written_record(), "occurred_at": when.isoformat()},
    )
    AssignmentFactory.create(client=cast.alice, starts_on=since, due_on=until)  # not sent yet
    html = html_for(cast, since, until)
    day = f"{when:%a} 3 {when:%b}"
    assert f"{day} · Keep the full picture" in html
    assert f"{day}, 20:00 ·" in html
    assert f"open, due {until:%-d %b}<" in html
    assert f"{since:%-d %b} – {until:%-d %b %Y}" in html  # the masthead


def test_a_date_outside_the_periods_year_names_its_year(cast, early_january):
    html = html_for(cast, dt.date(2026, 1, 1), dt.date(2026, 1, 10))
    assert "Sat 3 Jan · Keep the full picture" in html
    assert "since 1 Dec 2025" in html  # the chart's first day, last year
