"""A client's alerts and acknowledging one through the API: the admin's scope and service."""

import json

import pytest

from clients.models import AccessEvent
from homework.models import Alert
from tests.conftest import Cast, login
from tests.factories import EntryFactory

pytestmark = pytest.mark.django_db

NOTE = "called, safe tonight"


def an_alert(cast: Cast) -> Alert:
    return EntryFactory.create(assignment=cast.alice_assignment, felt_unsafe=True).alerts.get()


def post(http, url: str, body: object):
    return http.post(url, json.dumps(body), content_type="application/json")


def test_staff_list_a_clients_alerts_open_first(cast: Cast):
    done, still_open = an_alert(cast), an_alert(cast)
    post(login(cast.tara), f"/api/v1/alerts/{done.pk}/acknowledge/", {"note": NOTE})
    rows = login(cast.tara).get(f"/api/v1/clients/{cast.alice.pk}/alerts/").json()["results"]
    assert [row["id"] for row in rows] == [still_open.pk, done.pk]
    assert rows[0]["reason"] == "felt-unsafe" and rows[0]["acknowledged_at"] is None
    assert (rows[1]["acknowledged_by"], rows[1]["note"]) == ("Tara", NOTE)
    assert rows[1]["entry"] == str(done.entry.key)
    assert login(cast.morgan).get(f"/api/v1/clients/{cast.alice.pk}/alerts/").status_code == 200
    # The answers are the client's words: reading them is a look in their access log.
    assert AccessEvent.objects.filter(client=cast.alice, actor=cast.morgan).exists()
    assert login(cast.theo).get(f"/api/v1/clients/{cast.alice.pk}/alerts/").status_code == 404


def test_acknowledging_answers_the_alert_as_it_now_stands(cast: Cast):
    alert = an_alert(cast)
    answer = post(
        login(cast.tara), f"/api/v1/alerts/{alert.pk}/acknowledge/", {"note": f" {NOTE} "}
    )
    assert answer.status_code == 200, answer.content
    assert (answer.json()["note"], answer.json()["acknowledged_by"]) == (NOTE, "Tara")
    alert.refresh_from_db()
    assert alert.acknowledged_by == cast.tara


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"note": ""}, 400),
        ({"note": "   "}, 400),
        ({"note": "x" * 201}, 400),
        ({"note": 7}, 400),
        ({"note": ["called"]}, 400),
        ({}, 400),
        ({"note": NOTE, "acknowledged_by": 1}, 400),
    ],
    ids=["empty", "blank", "201 characters", "a number", "a list", "missing", "unknown field"],
)
def test_bad_input_names_the_field_and_changes_nothing(cast: Cast, body, status):
    alert = an_alert(cast)
    answer = post(login(cast.tara), f"/api/v1/alerts/{alert.pk}/acknowledge/", body)
    assert answer.status_code == status, answer.content
    errors = answer.json()["errors"]
    assert set(errors) <= {"note", "acknowledged_by"} and errors
    alert.refresh_from_db()
    assert alert.is_open and alert.note == ""


def test_another_therapists_alert_is_not_found_and_nothing_changes(cast: Cast):
    alert = an_alert(cast)
    answer = post(login(cast.theo), f"/api/v1/alerts/{alert.pk}/acknowledge/", {"note": NOTE})
    assert answer.status_code == 404
    assert (
        post(login(cast.tara), "/api/v1/alerts/999999/acknowledge/", {"note": NOTE}).status_code
        == 404
    )
    alert.refresh_from_db()
    assert alert.is_open


def test_the_second_acknowledgement_is_a_conflict_naming_who_and_nothing_changes(cast: Cast):
    alert = an_alert(cast)
    post(login(cast.tara), f"/api/v1/alerts/{alert.pk}/acknowledge/", {"note": NOTE})
    second = post(login(cast.morgan), f"/api/v1/alerts/{alert.pk}/acknowledge/", {"note": "on it"})
    assert second.status_code == 409
    assert "Tara" in second.json()["detail"] and NOTE in second.json()["detail"]
    alert.refresh_from_db()
    assert (alert.acknowledged_by, alert.note) == (cast.tara, NOTE)


def test_the_schema_has_both_routes(cast: Cast):
    schema = login(cast.tara).get("/api/schema/?format=json").json()
    assert "/api/v1/clients/{client_id}/alerts/" in schema["paths"]
    assert "/api/v1/alerts/{alert_id}/acknowledge/" in schema["paths"]


def test_a_clients_alerts_take_the_same_queries_at_1_and_50_rows(
    cast: Cast, django_assert_num_queries
):
    http = login(cast.morgan)
    url = f"/api/v1/clients/{cast.alice.pk}/alerts/?page_size=50"
    acknowledged = an_alert(cast)
    post(login(cast.tara), f"/api/v1/alerts/{acknowledged.pk}/acknowledge/", {"note": NOTE})
    http.get(url)
    with django_assert_num_queries(QUERIES_FOR_ALERTS) as one:
        assert http.get(url).json()["count"] == 1
    with_one = len(one.captured_queries)  # read now: the next request clears the log
    for _ in range(49):
        an_alert(cast)
    with django_assert_num_queries(with_one):
        assert http.get(url).json()["count"] == 50


# The session, the user and the second factor, the client, the count and the page of alerts
# (their entries, exercises and who acknowledged them joined), and the look its note is in the
# access log (the note says what was done about the client).
QUERIES_FOR_ALERTS = 10
