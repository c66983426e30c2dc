"""The access log in the admin: the manager's alone, filtered, read-only."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clients.models import AccessEvent, Client
from tests.conftest import Cast, login
from tests.factories import ClientFactory
from tests.helpers import assert_read_only_in_the_admin
from tests.helpers_access_log import (
    LIST,
    a_look,
    assert_same_queries_for_one_look_and_for_fifty,
    listed,
)


@pytest.fixture
def looks(cast: Cast) -> dict[str, AccessEvent]:
    return {
        "tara read alice": a_look(cast.alice, cast.tara, what="Thought record (1)"),
        "morgan printed alice": a_look(cast.alice, cast.morgan, AccessEvent.Action.PRINTED),
        "theo exported bob": a_look(
            cast.bob,
            cast.theo,
            AccessEvent.Action.EXPORTED,
            at=timezone.now() - dt.timedelta(days=40),
        ),
    }


def test_the_manager_sees_every_look_newest_first(cast, looks):
    response = login(cast.morgan).get(reverse(LIST))
    assert response.status_code == 200
    assert listed(response) == [
        looks["morgan printed alice"],
        looks["tara read alice"],
        looks["theo exported bob"],
    ]


@pytest.mark.parametrize("therapist", ["tara", "theo"])
def test_a_therapist_cannot_open_the_access_log(cast, looks, therapist):
    http = login(getattr(cast, therapist))
    assert http.get(reverse(LIST)).status_code == 403
    event = looks["tara read alice"]
    # Not theirs to open, even a line about their own look.
    assert http.get(reverse("admin:clients_accessevent_change", args=[event.pk])).status_code == 403


def test_the_manager_filters_by_client_staff_member_action_and_date(cast, looks):
    http = login(cast.morgan)
    by_client = http.get(reverse(LIST), {"client": cast.bob.pk})
    assert listed(by_client) == [looks["theo exported bob"]]
    by_staff = http.get(reverse(LIST), {"staff": cast.tara.pk})
    assert listed(by_staff) == [looks["tara read alice"]]
    by_action = http.get(reverse(LIST), {"action__exact": AccessEvent.Action.PRINTED})
    assert listed(by_action) == [looks["morgan printed alice"]]

    then = timezone.localdate(AccessEvent.objects.get(pk=looks["theo exported bob"].pk).at)
    by_day = http.get(
        reverse(LIST), {"at__year": then.year, "at__month": then.month, "at__day": then.day}
    )
    assert listed(by_day) == [looks["theo exported bob"]]


def test_the_manager_searches_by_the_clients_name(cast, looks):
    response = login(cast.morgan).get(reverse(LIST), {"q": "bo"})
    assert listed(response) == [looks["theo exported bob"]]


def test_the_filters_name_staff_and_every_client_but_no_client_account(cast, looks):
    archived = ClientFactory.create(
        therapist=cast.tara, display_name="Carol", status=Client.Status.ARCHIVED
    )
    page = login(cast.morgan).get(reverse(LIST)).content.decode()
    assert f"?client={archived.pk}" in page  # an archived client's looks are still looks
    assert f"?staff={cast.tara.pk}" in page and f"?staff={cast.morgan.pk}" in page
    assert f"?staff={cast.alice.portal_user.pk}" not in page


def test_a_filter_that_is_no_id_lists_nothing(cast, looks):
    http = login(cast.morgan)
    assert listed(http.get(reverse(LIST), {"staff": "tara"})) == []
    assert listed(http.get(reverse(LIST), {"client": "1 OR 1=1"})) == []


def test_nobody_adds_changes_deletes_or_acts_on_a_line(cast, looks):
    http = login(cast.morgan)
    event = looks["tara read alice"]
    assert_read_only_in_the_admin(
        http, "clients_accessevent", event.pk, what="nothing", action="exported"
    )
    event.refresh_from_db()
    assert (event.what, event.action) == ("Thought record (1)", AccessEvent.Action.VIEWED)
    assert AccessEvent.objects.count() == 3


def count_list_queries(http) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = http.get(reverse(LIST))
    assert response.status_code == 200
    return len(captured.captured_queries)


def test_the_list_costs_the_same_queries_for_one_look_and_for_fifty(cast):
    assert_same_queries_for_one_look_and_for_fifty(cast, count_list_queries)
