"""Times in the client's life (when it happened, when an urge came) read on
the client's own clock wherever staff see them, marked when that clock is
not the reader's; the client's own pages are on their clock already and are
never marked."""

import datetime as dt
import zoneinfo

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.conftest import login
from tests.factories import (
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    urge_log,
    written_record,
)
from tests.helpers import last_night_at_nine

pytestmark = pytest.mark.django_db

LOS_ANGELES = zoneinfo.ZoneInfo("America/Los_Angeles")
MARKER = "(their time)"


def record_at(assignment, moment: dt.datetime):
    return EntryFactory.create(
        assignment=assignment,
        response={**written_record(), "body_distress": 7, "occurred_at": moment.isoformat()},
    )


@pytest.fixture
def alice_in_los_angeles(cast):
    cast.alice.timezone = "America/Los_Angeles"
    cast.alice.save(update_fields=["timezone"])
    return cast.alice


def test_the_entry_page_shows_a_record_on_the_clients_clock_and_says_so(cast, alice_in_los_angeles):
    moment = last_night_at_nine(LOS_ANGELES)
    entry = record_at(cast.alice_assignment, moment)
    page = login(cast.tara).get(reverse("admin:homework_entry_change", args=[entry.pk]))
    expected = f"{moment:%A} {moment.day} {moment:%B %Y}, 21:00 {MARKER}"
    assert expected in page.text


def test_an_urge_shows_on_the_clients_clock_too(cast, alice_in_los_angeles):
    moment = last_night_at_nine(LOS_ANGELES)
    assignment = AssignmentFactory.create(
        client=alice_in_los_angeles, exercise=ExerciseFactory.create(kind="urge_log")
    )
    entry = EntryFactory.create(assignment=assignment, response=urge_log(at=moment.isoformat()))
    page = login(cast.tara).get(reverse("admin:homework_entry_change", args=[entry.pk]))
    assert f"21:00 {MARKER}" in page.text


def test_since_last_session_shows_the_clients_clock(cast, alice_in_los_angeles):
    record_at(cast.alice_assignment, last_night_at_nine(LOS_ANGELES))
    page = login(cast.tara).get(
        reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])
    )
    # Dated as the session summary dates it, and said once, as its masthead says it.
    assert "given in the client’s own time (America/Los_Angeles)" in page.text


def test_a_client_on_the_practices_clock_gets_no_marker(cast):
    london = zoneinfo.ZoneInfo("Europe/London")
    entry = record_at(cast.alice_assignment, last_night_at_nine(london))
    http = login(cast.tara)
    page = http.get(reverse("admin:homework_entry_change", args=[entry.pk]))
    assert ", 21:00" in page.text
    assert MARKER not in page.text
    since = http.get(reverse("admin:clients_client_since_last_session", args=[cast.alice.pk]))
    assert MARKER not in since.text


def test_the_client_never_sees_the_marker_on_their_own_pages(cast, alice_in_los_angeles):
    entry = record_at(cast.alice_assignment, last_night_at_nine(LOS_ANGELES))
    page = login(cast.alice.portal_user).get(reverse("homework:entry", args=[entry.key]))
    assert page.status_code == 200
    assert ", 21:00" in page.text
    assert MARKER not in page.text


def test_the_next_session_is_also_given_on_the_clients_clock_where_it_differs(
    cast, alice_in_los_angeles, monkeypatch
):
    """A session at 07:00 in London is 23:00 the evening before for a client
    in Los Angeles: the therapist confirming it needs to say their time."""
    from tests.factories import SessionFactory

    monkeypatch.setattr(timezone, "now", lambda: dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC))
    SessionFactory.create(client=cast.alice, starts_at=dt.datetime(2026, 12, 3, 7, tzinfo=dt.UTC))
    url = reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])
    page = login(cast.tara).get(url).text
    assert "Next session: Thursday 3 December, 07:00." in page
    assert "For them: Wednesday 2 December, 23:00." in page


def test_the_next_session_is_given_once_when_the_clocks_agree(cast, monkeypatch):
    from tests.factories import SessionFactory

    monkeypatch.setattr(timezone, "now", lambda: dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC))
    SessionFactory.create(client=cast.alice, starts_at=dt.datetime(2026, 12, 3, 7, tzinfo=dt.UTC))
    url = reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])
    page = login(cast.tara).get(url).text
    assert "Next session: Thursday 3 December, 07:00." in page
    assert "For them" not in page
