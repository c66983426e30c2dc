"""The staff's routes: the admin's scoping, its services, its access log."""

import datetime as dt
import json

import pytest
from django.utils import timezone

from clients.models import AccessEvent, Client, Session
from homework.models import Entry, EntryComment, Exercise
from practice import encryption
from tests.conftest import Cast, login
from tests.factories import EntryFactory, ExerciseFactory, written_record

pytestmark = pytest.mark.django_db


def _send(http, method, url, body, **headers):
    return getattr(http, method)(
        url, json.dumps(body), content_type="application/json", headers=headers
    )


def test_a_therapist_lists_their_own_clients_and_the_manager_all(cast: Cast):
    mine = login(cast.tara).get("/api/v1/clients/").json()["results"]
    assert [row["id"] for row in mine] == [cast.alice.pk]
    everyone = login(cast.morgan).get("/api/v1/clients/").json()["results"]
    assert {row["id"] for row in everyone} == {cast.alice.pk, cast.bob.pk}
    assert login(cast.theo).get(f"/api/v1/clients/{cast.alice.pk}/").status_code == 404


def test_a_therapist_adds_a_client_only_to_their_own_caseload(cast: Cast):
    http = login(cast.tara)
    elsewhere = _send(
        http, "post", "/api/v1/clients/", {"display_name": "C", "therapist": cast.theo.pk}
    )
    assert elsewhere.status_code == 400 and list(elsewhere.json()["errors"]) == ["therapist"]
    made = _send(http, "post", "/api/v1/clients/", {"display_name": "Carol"})
    assert made.status_code == 201
    assert Client.objects.get(pk=made.json()["id"]).therapist == cast.tara


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"display_name": "Carol", "status": "archived"}, "status"),
        ({"display_name": ["Carol"]}, "display_name"),
        ({"display_name": "Carol", "contact_email": 7}, "contact_email"),
    ],
    ids=["unknown field", "wrong type", "not an address"],
)
def test_a_bad_client_body_is_named_and_adds_no_one(cast: Cast, body, field):
    response = _send(login(cast.morgan), "post", "/api/v1/clients/", body)
    assert response.status_code == 400 and field in response.json()["errors"]
    assert Client.objects.count() == 2


def test_changing_a_client_needs_the_etag_they_read(cast: Cast):
    http = login(cast.tara)
    url = f"/api/v1/clients/{cast.alice.pk}/"
    etag = http.get(url)["ETag"]
    assert _send(http, "patch", url, {"display_name": "A."}).status_code == 428
    changed = _send(http, "patch", url, {"display_name": "A."}, **{"If-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    stale = _send(http, "patch", url, {"display_name": "Al"}, **{"If-Match": etag})
    assert stale.status_code == 412
    assert Client.objects.get(pk=cast.alice.pk).display_name == "A."


def test_only_the_manager_moves_a_client(cast: Cast):
    url = f"/api/v1/clients/{cast.alice.pk}/"
    tara, morgan = login(cast.tara), login(cast.morgan)
    refused = _send(
        tara, "patch", url, {"therapist": cast.theo.pk}, **{"If-Match": tara.get(url)["ETag"]}
    )
    assert refused.status_code == 400 and list(refused.json()["errors"]) == ["therapist"]
    moved = _send(
        morgan, "patch", url, {"therapist": cast.theo.pk}, **{"If-Match": morgan.get(url)["ETag"]}
    )
    assert moved.status_code == 200 and moved.json()["therapist"] == cast.theo.pk


@pytest.mark.clock
def test_sessions_are_booked_once_and_listed(cast: Cast):
    http = login(cast.tara)
    url = f"/api/v1/clients/{cast.alice.pk}/sessions/"
    body = {"starts_at": (timezone.now() + dt.timedelta(days=7)).isoformat()}
    assert _send(http, "post", url, body).status_code == 201
    assert _send(http, "post", url, body).status_code == 200  # the same time: that session
    assert Session.objects.filter(client=cast.alice).count() == 1
    assert http.get(url).json()["count"] == 1
    assert _send(login(cast.theo), "post", url, body).status_code == 404


@pytest.mark.clock
def test_assigning_uses_only_the_callers_library(cast: Cast):
    theirs = ExerciseFactory.create(owner=cast.theo)
    url = f"/api/v1/clients/{cast.alice.pk}/assignments/"
    http = login(cast.tara)
    today = timezone.localdate()
    body = {
        "exercise": theirs.pk,
        "starts_on": today.isoformat(),
        "due_on": (today + dt.timedelta(days=2)).isoformat(),
    }
    refused = _send(http, "post", url, body)
    assert refused.status_code == 400 and list(refused.json()["errors"]) == ["exercise"]
    body["exercise"] = cast.alice_assignment.exercise_id
    made = _send(http, "post", url, body, **{"Idempotency-Key": "k1"})
    again = _send(http, "post", url, body, **{"Idempotency-Key": "k1"})
    assert made.status_code == 201 and again.json() == made.json()
    assert http.get(url).json()["count"] == 2


def test_entries_hide_drafts_and_private_words_and_each_read_is_logged(cast: Cast):
    EntryFactory.create(
        assignment=cast.alice_assignment, status=Entry.Status.DRAFT, submitted_at=None
    )
    private = EntryFactory.create(assignment=cast.alice_assignment, private=True, felt_unsafe=True)
    http = login(cast.tara)
    rows = http.get(f"/api/v1/clients/{cast.alice.pk}/entries/").json()["results"]
    by_id = {row["id"]: row for row in rows}
    assert set(by_id) == {str(cast.alice_entry.key), str(private.key)}
    assert by_id[str(private.key)]["response"] is None
    assert by_id[str(private.key)]["felt_unsafe"] is None
    assert by_id[str(cast.alice_entry.key)]["response"]
    event = AccessEvent.objects.get()
    assert (event.actor, event.client, event.action) == (cast.tara, cast.alice, "viewed")
    cast.alice_entry.refresh_from_db()
    assert cast.alice_entry.seen_at is None  # a list is a look: only marking it reads it
    flagged = http.get(f"/api/v1/clients/{cast.alice.pk}/entries/?flag=felt_unsafe").json()
    assert flagged["count"] == 0  # the private entry's flag is its own


def test_entry_filters_are_checked(cast: Cast):
    http = login(cast.tara)
    url = f"/api/v1/clients/{cast.alice.pk}/entries/"
    assert http.get(f"{url}?since=yesterday").status_code == 400
    assert http.get(f"{url}?kind=nonsense").status_code == 400
    assert http.get(f"{url}?since=2000-01-01&until=2000-01-02").json()["count"] == 0
    assert login(cast.theo).get(url).status_code == 404
    assert not AccessEvent.objects.filter(actor=cast.theo).exists()


def test_a_clients_entries_take_the_same_queries_at_1_and_100_rows(
    cast: Cast, django_assert_num_queries
):
    http = login(cast.morgan)  # a manager's look is logged, not a read: each call the same
    url = f"/api/v1/clients/{cast.alice.pk}/entries/?page_size=100"
    http.get(url)
    with django_assert_num_queries(QUERIES_FOR_ENTRIES) as one:
        assert http.get(url).json()["count"] == 1
    EntryFactory.create_batch(99, assignment=cast.alice_assignment)
    with django_assert_num_queries(len(one.captured_queries)):
        assert http.get(url).json()["count"] == 100


# One request, the access log's check and line included (written once, where
# the words are opened: no service's savepoints around it).
QUERIES_FOR_ENTRIES = 10


class OpenedWords:
    """The field codec, noting the text of every value it decrypts."""

    def __init__(self, codec: encryption.Codec) -> None:
        self.codec = codec
        self.opened: list[str] = []

    def encrypt(self, data: bytes) -> bytes:
        return self.codec.encrypt(data)

    def decrypt(self, token: bytes) -> bytes:
        data = self.codec.decrypt(token)
        self.opened.append(data.decode())
        return data

    def rotate(self, token: bytes) -> bytes:
        return self.codec.rotate(token)


def test_a_private_entrys_words_are_never_decrypted_for_staff(cast: Cast, monkeypatch):
    words = written_record(what_happened="kept to myself")
    EntryFactory.create(assignment=cast.alice_assignment, private=True, response=words)
    codec = OpenedWords(encryption.codec())
    monkeypatch.setattr(encryption, "codec", lambda: codec)
    rows = login(cast.tara).get(f"/api/v1/clients/{cast.alice.pk}/entries/").json()["results"]
    assert sorted(row["private"] for row in rows) == [False, True]
    assert any("went quiet" in text for text in codec.opened)  # the shared one was opened
    assert not any("kept to myself" in text for text in codec.opened)


def test_only_the_clients_own_therapist_comments(cast: Cast):
    url = f"/api/v1/entries/{cast.alice_entry.key}/comments/"
    assert _send(login(cast.theo), "post", url, {"text": "Hi"}).status_code == 404
    assert _send(login(cast.morgan), "post", url, {"text": "Hi"}).status_code == 403
    made = _send(login(cast.tara), "post", url, {"text": "Thank you for writing this."})
    assert made.status_code == 201 and EntryComment.objects.count() == 1
    private = EntryFactory.create(assignment=cast.alice_assignment, private=True)
    refused = _send(
        login(cast.tara), "post", f"/api/v1/entries/{private.key}/comments/", {"text": "x"}
    )
    assert refused.status_code == 400 and EntryComment.objects.count() == 1


def test_the_library_is_read_and_added_to(cast: Cast):
    http = login(cast.tara)
    body = {"kind": "written_record", "title": "Write it down", "instructions": "Soon after."}
    made = _send(http, "post", "/api/v1/exercises/", body)
    assert made.status_code == 201 and Exercise.objects.get(pk=made.json()["id"]).owner == cast.tara
    # One page holds the whole library, so a title missing from it is missing from the list.
    whole = "/api/v1/exercises/?page_size=100"
    titles = [row["title"] for row in http.get(whole).json()["results"]]
    assert "Write it down" in titles
    assert "Write it down" not in [
        row["title"] for row in login(cast.theo).get(whole).json()["results"]
    ]


def test_the_access_log_is_the_managers(cast: Cast):
    AccessEvent.objects.create(client=cast.alice, actor=cast.tara, action="viewed")
    assert login(cast.tara).get("/api/v1/access-log/").status_code == 403
    assert login(cast.morgan).get("/api/v1/access-log/").json()["count"] == 1
