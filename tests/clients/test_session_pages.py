"""Sessions on the client's page: our own card and form (date and time on the client's clock),
moving one, removing one after a confirmation, and what is refused."""

import datetime as dt
import zoneinfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clients.models import SESSION_AHEAD_DAYS, Client, Session
from tests.conftest import login
from tests.factories import SessionFactory

CLOCK_SKIPPED = (
    "The clocks go forward that night, so 01:30 does not happen. "
    "Please choose a time before or after it."
)


def add_url(client):
    return reverse("admin:clients_client_session_add", args=[client.pk])


def change_url(session):
    return reverse("admin:clients_client_session_change", args=[session.client_id, session.pk])


def delete_url(session):
    return reverse("admin:clients_client_session_delete", args=[session.client_id, session.pk])


def in_days(days: int) -> str:
    return (timezone.localdate() + dt.timedelta(days=days)).isoformat()


def test_a_session_is_added_on_the_clients_clock(cast):
    Client.objects.filter(pk=cast.alice.pk).update(timezone="America/New_York")
    day = in_days(6)
    added = login(cast.tara).post(add_url(cast.alice), {"day": day, "time": "10:30"})
    assert added.status_code == 302
    assert added["Location"] == reverse("admin:clients_client_change", args=[cast.alice.pk])
    session = Session.objects.get(client=cast.alice)
    theirs = session.starts_at.astimezone(zoneinfo.ZoneInfo("America/New_York"))
    assert (theirs.date().isoformat(), theirs.strftime("%H:%M")) == (day, "10:30")


def test_the_client_page_has_a_sessions_card_and_no_inline_table(cast):
    session = SessionFactory.create(client=cast.alice)
    page = login(cast.tara).get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
    text = page.text
    assert "Today" not in text and "sessions-TOTAL_FORMS" not in text
    assert f'action="{add_url(cast.alice)}"' in text
    assert f'href="{change_url(session)}"' in text and f'href="{delete_url(session)}"' in text
    # Its day and time boxes are named by labels of their own.
    assert '<label for="id_session_day">' in text and '<label for="id_session_time">' in text


def test_the_client_page_is_titled_with_their_name_and_offers_no_add_another(cast):
    page = login(cast.tara).get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
    assert page.context["title"] == "Alice"
    assert "<h1>Alice</h1>" in page.text
    assert "Change client" not in page.text and "_addanother" not in page.text


def test_the_card_draws_recent_and_coming_sessions_and_links_to_all(cast):
    now = timezone.now()
    past = [
        SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=7 * weeks))
        for weeks in range(1, 13)
    ]
    coming = [
        SessionFactory.create(client=cast.alice, starts_at=now + dt.timedelta(days=days))
        for days in (3, 10)
    ]
    SessionFactory.create(client=cast.bob, starts_at=now - dt.timedelta(days=2))
    http = login(cast.tara)
    page = http.get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
    drawn = [row["session"].pk for row in page.context["sessions"]["rows"]]
    assert drawn == [s.pk for s in [*reversed(coming), *past[:10]]]  # newest first
    sessions = reverse("admin:clients_session_changelist") + f"?client={cast.alice.pk}"
    assert f'href="{sessions.replace("&", "&amp;")}"' in page.text


def test_a_session_is_moved_and_its_form_opens_on_the_clients_clock(cast):
    Client.objects.filter(pk=cast.alice.pk).update(timezone="Asia/Tokyo")
    tokyo = zoneinfo.ZoneInfo("Asia/Tokyo")
    starts = dt.datetime.combine(
        timezone.localdate() + dt.timedelta(days=4), dt.time(9, 0), tzinfo=tokyo
    )
    session = SessionFactory.create(client=cast.alice, starts_at=starts)
    http = login(cast.tara)
    form = http.get(change_url(session)).context["form"]
    assert (form["day"].value(), form["time"].value()) == (starts.date(), dt.time(9, 0))
    moved = http.post(change_url(session), {"day": in_days(5), "time": "14:15"})
    assert moved.status_code == 302
    now_at = Session.objects.get(pk=session.pk).starts_at.astimezone(tokyo)
    assert (now_at.date().isoformat(), now_at.strftime("%H:%M")) == (in_days(5), "14:15")


def test_a_session_is_removed_only_after_its_confirmation(cast):
    session = SessionFactory.create(client=cast.alice)
    http = login(cast.tara)
    confirm = http.get(delete_url(session))
    assert confirm.status_code == 200
    assert "Nothing the client wrote goes with it." in confirm.text
    assert Session.objects.filter(pk=session.pk).exists()
    assert http.post(delete_url(session)).status_code == 302
    assert not Session.objects.filter(pk=session.pk).exists()


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"day": "", "time": "10:30"}, "day", "Enter the day of the session."),
        ({"day": "tomorrow", "time": "10:30"}, "day", "Enter a date, like 14/03/2027."),
        ({"day": "in a week", "time": ""}, "time", "Enter the time the session starts."),
        ({"day": "in a week", "time": "25:00"}, "time", "Enter a time, like 10:30."),
    ],
)
def test_a_session_form_half_filled_says_what_is_missing_and_adds_nothing(
    cast, data, field, message
):
    if data["day"] == "in a week":
        data = {**data, "day": in_days(7)}
    refused = login(cast.tara).post(add_url(cast.alice), data)
    assert refused.status_code == 400
    assert refused.context["form"].errors[field] == [message]
    assert not Session.objects.filter(client=cast.alice).exists()


@pytest.mark.parametrize("when", ["1900-01-01", "far ahead"])
def test_a_session_out_of_range_is_refused_with_the_models_message(cast, when):
    day = in_days(SESSION_AHEAD_DAYS + 2) if when == "far ahead" else when
    refused = login(cast.tara).post(add_url(cast.alice), {"day": day, "time": "10:30"})
    assert refused.status_code == 400
    assert refused.context["form"].non_field_errors()
    assert not Session.objects.filter(client=cast.alice).exists()


def test_moving_a_session_onto_another_is_refused_and_keeps_both(cast):
    first = SessionFactory.create(
        client=cast.alice, starts_at=(timezone.now() + dt.timedelta(days=2)).replace(microsecond=0)
    )
    second = SessionFactory.create(client=cast.alice, starts_at=first.starts_at + dt.timedelta(1))
    local = timezone.localtime(first.starts_at)
    refused = login(cast.tara).post(
        change_url(second), {"day": local.date().isoformat(), "time": local.strftime("%H:%M:%S")}
    )
    assert refused.status_code == 400
    assert "already has a session at that time" in refused.text
    assert Session.objects.get(pk=second.pk).starts_at == second.starts_at


def test_a_time_the_clocks_skip_is_refused_in_plain_words(cast, monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: dt.datetime(2027, 3, 20, 12, tzinfo=dt.UTC))
    refused = login(cast.tara).post(add_url(cast.alice), {"day": "2027-03-28", "time": "01:30"})
    assert refused.status_code == 400
    assert refused.context["form"].errors["time"] == [CLOCK_SKIPPED]
    assert not Session.objects.filter(client=cast.alice).exists()


def test_a_time_the_clock_shows_twice_is_the_first_of_the_two(cast, monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: dt.datetime(2026, 10, 20, 12, tzinfo=dt.UTC))
    added = login(cast.tara).post(add_url(cast.alice), {"day": "2026-10-25", "time": "01:30"})
    assert added.status_code == 302
    # 01:30 in summer time, which reads back as 01:30.
    assert Session.objects.get(client=cast.alice).starts_at == dt.datetime(
        2026, 10, 25, 0, 30, tzinfo=dt.UTC
    )


def test_another_therapists_client_session_cannot_be_added_moved_or_removed(cast):
    bobs = SessionFactory.create(client=cast.bob)
    http = login(cast.tara)
    before = bobs.starts_at
    for response in (
        http.post(add_url(cast.bob), {"day": in_days(3), "time": "10:30"}),
        http.post(change_url(bobs), {"day": in_days(3), "time": "10:30"}),
        http.post(delete_url(bobs)),
    ):
        assert response.status_code == 302
        assert response["Location"] == reverse("admin:index")
    assert list(Session.objects.filter(client=cast.bob).values_list("starts_at", flat=True)) == [
        before
    ]


def test_the_card_costs_the_same_with_one_session_or_many(cast):
    def queries() -> int:
        http = login(cast.tara)
        url = reverse("admin:clients_client_change", args=[cast.alice.pk])
        http.get(url)
        with CaptureQueriesContext(connection) as captured:
            http.get(url)
        return len(captured.captured_queries)

    SessionFactory.create(client=cast.alice)
    one = queries()
    for days in range(2, 14):
        SessionFactory.create(client=cast.alice, starts_at=timezone.now() + dt.timedelta(days))
    assert queries() == one


def test_a_session_opened_from_the_list_opens_in_its_clients_form(cast):
    session = SessionFactory.create(client=cast.alice)
    opened = login(cast.tara).get(reverse("admin:clients_session_change", args=[session.pk]))
    assert opened["Location"] == change_url(session)
    theirs = login(cast.theo).get(reverse("admin:clients_session_change", args=[session.pk]))
    assert theirs["Location"] == reverse("admin:index")
