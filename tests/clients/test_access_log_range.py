"""The manager's access log over a range of days, and as CSV for an audit;
the same looks as the client's own "Who has looked" page."""

import csv
import datetime as dt
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clients.models import AccessEvent
from tests.conftest import Cast, login
from tests.factories import ClientFactory
from tests.helpers_access_log import (
    LIST,
    a_look,
    assert_same_queries_for_one_look_and_for_fifty,
    listed,
)

CSV = "admin:clients_accessevent_export_csv"


@pytest.fixture
def days(cast: Cast) -> dict[str, AccessEvent]:
    today = timezone.localdate()

    def at(days_ago: int) -> dt.datetime:
        day = today - dt.timedelta(days=days_ago)
        return timezone.make_aware(dt.datetime.combine(day, dt.time(12)))

    return {
        "today": a_look(cast.alice, cast.tara, at=at(0), what="Today"),
        "ten days ago": a_look(cast.alice, cast.morgan, at=at(10), what="Ten days ago"),
        "forty days ago": a_look(cast.bob, cast.theo, at=at(40), what="Forty days ago"),
    }


def day(days_ago: int) -> str:
    return (timezone.localdate() - dt.timedelta(days=days_ago)).isoformat()


def csv_rows(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    return list(csv.reader(io.StringIO(response.content.decode("utf-8"))))


@pytest.mark.parametrize(
    ("since", "until", "expected"),
    [
        (11, 9, ["ten days ago"]),
        (10, 10, ["ten days ago"]),
        (10, None, ["today", "ten days ago"]),
        (None, 10, ["ten days ago", "forty days ago"]),
        (None, None, ["today", "ten days ago", "forty days ago"]),
    ],
)
def test_the_manager_lists_the_looks_of_a_range_of_days(cast, days, since, until, expected):
    asked = {
        name: day(ago) for name, ago in (("since", since), ("until", until)) if ago is not None
    }
    response = login(cast.morgan).get(reverse(LIST), asked)
    assert listed(response) == [days[name] for name in expected]
    exported = csv_rows(login(cast.morgan).get(reverse(CSV), asked))
    assert [row[4] for row in exported[1:]] == [days[name].what for name in expected]


@pytest.mark.parametrize(
    ("asked", "message"),
    [
        ({"since": "yesterday"}, "Enter a valid date."),
        ({"until": "2026-02-30"}, "Enter a valid date."),
        ({"since": day(1), "until": day(5)}, "The first day comes after the last"),
    ],
)
def test_a_range_that_cannot_be_read_says_so_and_lists_nothing(cast, days, asked, message):
    http = login(cast.morgan)
    response = http.get(reverse(LIST), asked)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert listed(response) == []
    refused = http.get(reverse(CSV), asked)
    assert refused.status_code == 400
    assert message in refused.content.decode()
    assert AccessEvent.objects.count() == 3


def test_the_csv_keeps_the_lists_other_filters_and_its_link_carries_them(cast, days):
    http = login(cast.morgan)
    page = http.get(reverse(LIST), {"staff": cast.theo.pk}).content.decode()
    assert f"{reverse(CSV)}?staff={cast.theo.pk}" in page
    rows = csv_rows(http.get(reverse(CSV), {"staff": cast.theo.pk}))
    assert rows[0] == [
        "when",
        "staff member",
        "staff member's email",
        "action",
        "what",
        "client",
        "client id",
    ]
    assert rows[1:] == [
        [
            timezone.localtime(
                AccessEvent.objects.get(pk=days["forty days ago"].pk).at
            ).isoformat(),
            str(cast.theo),
            cast.theo.email,
            "Viewed",
            "Forty days ago",
            cast.bob.display_name,
            str(cast.bob.pk),
        ]
    ]


def test_a_csv_cell_never_runs_as_a_formula(cast):
    client = ClientFactory.create(therapist=cast.tara, display_name="=HYPERLINK(1)")
    a_look(client, cast.tara, what="@SUM(1)")
    rows = csv_rows(login(cast.morgan).get(reverse(CSV)))
    assert rows[1][4:6] == ["'@SUM(1)", "'=HYPERLINK(1)"]


def count_csv_queries(http) -> int:
    with CaptureQueriesContext(connection) as captured:
        csv_rows(http.get(reverse(CSV)))
    return len(captured.captured_queries)


def test_the_csv_costs_the_same_queries_for_one_look_and_for_fifty(cast):
    assert_same_queries_for_one_look_and_for_fifty(cast, count_csv_queries)


def test_the_client_and_the_manager_see_the_same_looks(cast):
    """The client page's look (which wrote nothing before), an entry read, a summary printed."""
    login(cast.tara).get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
    login(cast.morgan).get(reverse("admin:homework_entry_change", args=[cast.alice_entry.pk]))
    login(cast.tara).get(reverse("admin:clients_client_summary", args=[cast.alice.pk]))
    managers = listed(login(cast.morgan).get(reverse(LIST), {"client": cast.alice.pk}))
    clients = list(
        login(cast.alice.portal_user).get(reverse("clients:who_looked")).context["page"].object_list
    )
    assert len(managers) == 3
    assert clients == managers
    client_page = reverse("admin:clients_client_change", args=[cast.alice.pk])
    assert f"Page {client_page}" in [event.what for event in managers]
    page = login(cast.alice.portal_user).get(reverse("clients:who_looked")).content.decode()
    assert "Looked at your records" in page
