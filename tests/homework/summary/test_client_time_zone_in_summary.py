"""The summary prints times in the client's life on the client's clock, and
says so once in the masthead (not on every line) when that is not the
practice's clock."""

import datetime as dt
import re
import zoneinfo

import pytest
from django.utils import timezone

from bench.clients import typical_client
from homework.selectors.period import PeriodQuery
from homework.summary import render, selectors
from tests.factories import (
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    SessionFactory,
    daily_assignment,
    urge_log,
)
from tests.helpers import day_pattern, last_night_at_nine

from .conftest import add, page_count, pdf_text
from .test_render import pdf_for

pytestmark = pytest.mark.django_db

LOS_ANGELES = zoneinfo.ZoneInfo("America/Los_Angeles")
NOTE = "When something happened is given in the client’s own time"


@pytest.mark.clock
def test_a_record_prints_on_the_clients_clock_with_one_note(cast):
    cast.alice.timezone = "America/Los_Angeles"
    cast.alice.save(update_fields=["timezone"])
    moment = last_night_at_nine(LOS_ANGELES)
    add(cast.alice_assignment, occurred_at=moment.isoformat())
    text = pdf_text(pdf_for(cast.tara, cast.alice))
    assert re.search(day_pattern(moment, "D j M, H:i"), text)
    assert f"{NOTE} (America/Los_Angeles)" in text
    assert "(their time)" not in text  # said once, not on every line


def test_a_client_on_the_practices_clock_gets_no_note(cast):
    london = zoneinfo.ZoneInfo("Europe/London")
    add(cast.alice_assignment, occurred_at=last_night_at_nine(london).isoformat())
    text = pdf_text(pdf_for(cast.tara, cast.alice))
    assert ", 21:00" in text
    assert NOTE not in text and "(their time)" not in text


def test_the_typical_client_far_away_prints_on_as_many_pages():
    therapist, client, _count = typical_client()
    client.timezone = "America/Los_Angeles"
    client.save(update_fields=["timezone"])
    period = selectors.resolve_period(
        user=therapist, client=client, query=PeriodQuery(), now=timezone.now()
    )
    data = selectors.summary_data(
        user=therapist, client=client, period=period, full_detail=False, now=timezone.now()
    )
    pdf = render.render_summary_pdf(render.summary_document(data), generated_at=timezone.now())
    assert NOTE in pdf_text(pdf)
    assert page_count(pdf) == 3  # as at home (test_render)


@pytest.mark.clock
def test_an_urge_counts_on_the_day_it_came_on_the_clients_clock(cast):
    """21:00 on their Saturday is the small hours of Sunday in London: the
    curve, the contact and the days without contact are on their Saturday."""
    cast.alice.timezone = "America/Los_Angeles"
    cast.alice.save(update_fields=["timezone"])
    moment = last_night_at_nine(LOS_ANGELES) - dt.timedelta(days=1)
    assignment = AssignmentFactory.create(
        client=cast.alice, exercise=ExerciseFactory.create(kind="urge_log")
    )
    EntryFactory.create(
        assignment=assignment,
        response=urge_log(
            at=moment.isoformat(), contact_happened=True, contact_initiated_by="them"
        ),
    )
    text = pdf_text(pdf_for(cast.tara, cast.alice, full_detail=True))
    day = day_pattern(moment, "j M")
    assert re.search(day_pattern(moment, "D j M, H:i"), text)
    assert re.search(rf"Contact: {day} \(the other person reached out\)", text)
    assert re.search(f"last contact {day}", text)


# -- counting the client's days: near midnight, far from the practice

LONDON = zoneinfo.ZoneInfo("Europe/London")
AUCKLAND = zoneinfo.ZoneInfo("Pacific/Auckland")


def far_away(cast, zone: zoneinfo.ZoneInfo):
    """Alice on ``zone``'s clock, her last session a week before the summary."""
    cast.alice.timezone = str(zone)
    cast.alice.save(update_fields=["timezone"])


def data_as_of(cast, now: dt.datetime) -> selectors.SummaryData:
    """The summary "since the last session" (a week before ``now``), read at ``now``."""
    SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=7))
    period = selectors.resolve_period(
        user=cast.tara, client=cast.alice, query=PeriodQuery(), now=now
    )
    return selectors.summary_data(
        user=cast.tara, client=cast.alice, period=period, full_detail=False, now=now
    )


def html_as_of(cast, now: dt.datetime) -> str:
    return render.summary_document(data_as_of(cast, now)).html


def contact_at(cast, moment: dt.datetime) -> None:
    assignment = AssignmentFactory.create(
        client=cast.alice,
        exercise=ExerciseFactory.create(kind="urge_log"),
        starts_on=dt.date(2026, 3, 1),
        no_contact_since=dt.date(2026, 3, 1),
    )
    EntryFactory.create(
        assignment=assignment,
        submitted_at=moment,
        response=urge_log(
            at=moment.isoformat(), contact_happened=True, contact_initiated_by="them"
        ),
    )


@pytest.mark.parametrize(
    ("zone", "now", "contact", "days"),
    [
        # 20:30 in London is 09:30 the next morning in Auckland: a contact at
        # 08:00 their yesterday is a day ago for them (the practice's today
        # is the contact's date, which counted 0).
        (
            AUCKLAND,
            dt.datetime(2026, 3, 10, 20, 30, tzinfo=LONDON),
            dt.datetime(2026, 3, 10, 8, 0, tzinfo=AUCKLAND),
            1,
        ),
        # 02:00 in London is 19:00 the evening before in Los Angeles: a
        # contact that morning is today for them (the practice's today,
        # already the next day, counted 1).
        (
            LOS_ANGELES,
            dt.datetime(2026, 3, 10, 2, 0, tzinfo=LONDON),
            dt.datetime(2026, 3, 9, 10, 0, tzinfo=LOS_ANGELES),
            0,
        ),
    ],
)
def test_days_without_contact_count_to_the_clients_today(cast, zone, now, contact, days):
    far_away(cast, zone)
    contact_at(cast, contact)
    html = html_as_of(cast, now)
    on = f"{contact.day} Mar"
    if days == 0:  # the contact's own day: said as that, not as "0 days"
        assert (
            f"last contact {on} (the other person reached out), the last day this summary covers."
            in html
        )
        assert f"Last contact on {on} 2026, the last day this summary covers." in html
        assert "0 days" not in html
        return
    assert f"no contact for 1 day; last contact {on} (the other person reached out)." in html
    assert f"1 day without contact, since {on} 2026." in html


@pytest.mark.parametrize(
    ("zone", "now", "their_days"),
    [
        # 20:30 in London, 09:30 tomorrow in Auckland: their today is done
        # already, and their week began the morning after the London session.
        (AUCKLAND, dt.datetime(2026, 3, 10, 20, 30, tzinfo=LONDON), range(4, 12)),
        # 02:00 in London, 19:00 yesterday in Los Angeles: the practice's
        # today has not begun for them, so it is not a day they missed.
        (LOS_ANGELES, dt.datetime(2026, 3, 10, 2, 0, tzinfo=LONDON), range(3, 10)),
    ],
)
def test_daily_work_is_counted_in_the_clients_days(cast, zone, now, their_days):
    far_away(cast, zone)
    daily = daily_assignment(
        cast.alice, starts_on=dt.date(2026, 3, 3), ends_on=dt.date(2026, 3, 30)
    )
    for day in their_days:  # every one of their days, at 08:00 their time
        EntryFactory.create(
            assignment=daily,
            occurrence_on=dt.date(2026, 3, day),
            submitted_at=dt.datetime(2026, 3, day, 8, 0, tzinfo=zone),
        )
    (item,) = [i for i in data_as_of(cast, now).completion.items if i.assignment_id == daily.pk]
    assert (item.done, item.expected) == (len(their_days), len(their_days))
