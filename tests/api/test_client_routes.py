"""The client's own routes: reads, writes through the portal's services,
and the preconditions that keep a racing or replayed write from winning twice."""

import json

import pytest

from homework.models import Entry
from practice.models import IdempotentRequest
from tests.conftest import Cast, login
from tests.factories import AssignmentFactory, EntryFactory, written_record

pytestmark = pytest.mark.django_db


def _post(http, url, body, **headers):
    return http.post(url, json.dumps(body), content_type="application/json", headers=headers)


def _patch(http, url, body, **headers):
    return http.patch(url, json.dumps(body), content_type="application/json", headers=headers)


def test_client_sends_an_entry_and_reads_it_back_with_its_etag(cast: Cast):
    http = login(cast.alice.portal_user)
    url = f"/api/v1/assignments/{cast.alice_assignment.pk}/entries/"
    sent = _post(http, url, {"response": written_record(), "status": "submitted"})
    assert sent.status_code == 201, sent.json()
    entry = Entry.objects.get(key=sent.json()["id"])
    assert entry.is_submitted and entry.response["what_happened"]
    read = http.get(f"/api/v1/entries/{entry.key}/")
    assert read.json()["response"]["body_distress"] == 7
    assert read["ETag"] == f'"v{entry.version}"'


def test_a_draft_is_changed_then_sent_with_if_match(cast: Cast):
    http = login(cast.alice.portal_user)
    url = f"/api/v1/assignments/{cast.alice_assignment.pk}/entries/"
    draft = _post(http, url, {"response": {"what_happened": "Half a thought"}})
    assert draft.status_code == 201 and draft.json()["status"] == "draft"
    entry_url = draft["Location"]
    sent = _patch(
        http,
        entry_url,
        {"response": written_record(), "status": "submitted"},
        if_match=draft["ETag"],
    )
    assert sent.status_code == 200, sent.json()
    assert sent.json()["status"] == "submitted" and sent["ETag"] == '"v2"'


def test_patch_without_if_match_is_428_and_changes_nothing(cast: Cast):
    http = login(cast.alice.portal_user)
    response = _patch(http, f"/api/v1/entries/{cast.alice_entry.key}/", {"private": True})
    assert response.status_code == 428
    assert response.json()["code"] == "precondition_required"
    cast.alice_entry.refresh_from_db()
    assert not cast.alice_entry.private and cast.alice_entry.version == 1


def test_patch_with_a_stale_if_match_is_412_and_changes_nothing(cast: Cast):
    http = login(cast.alice.portal_user)
    body = {"response": written_record(what_happened="Changed"), "private": True}
    response = _patch(http, f"/api/v1/entries/{cast.alice_entry.key}/", body, if_match='"v7"')
    assert response.status_code == 412
    assert response.json()["code"] == "precondition_failed"
    cast.alice_entry.refresh_from_db()
    assert cast.alice_entry.version == 1 and not cast.alice_entry.private


def test_privacy_alone_is_checked_against_the_version_too(cast: Cast):
    http = login(cast.alice.portal_user)
    url = f"/api/v1/entries/{cast.alice_entry.key}/"
    assert _patch(http, url, {"private": True}, if_match='"v0"').status_code == 412
    kept = _patch(http, url, {"private": True}, if_match='"v1"')
    assert kept.status_code == 200 and kept.json()["private"] is True


def test_a_read_entry_is_refused_with_its_own_code(cast: Cast):
    Entry.objects.filter(pk=cast.alice_entry.pk).update(seen_at="2026-01-01T00:00Z")
    http = login(cast.alice.portal_user)
    body = {"response": written_record(what_happened="Changed")}
    response = _patch(http, f"/api/v1/entries/{cast.alice_entry.key}/", body, if_match='"v1"')
    assert response.status_code == 409 and response.json()["code"] == "entry_read"


def test_ownership_and_state_fields_in_a_body_are_refused_by_name(cast: Cast):
    http = login(cast.alice.portal_user)
    body = {"private": True, "client": cast.bob.pk, "version": 9, "seen_at": None}
    response = _patch(http, f"/api/v1/entries/{cast.alice_entry.key}/", body, if_match='"v1"')
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"client", "version", "seen_at"}
    cast.alice_entry.refresh_from_db()
    assert not cast.alice_entry.private


def test_wrong_types_are_named_and_nothing_is_written(cast: Cast):
    http = login(cast.alice.portal_user)
    url = f"/api/v1/assignments/{cast.alice_assignment.pk}/entries/"
    body = {"response": "text", "private": "perhaps", "status": "sent"}
    response = _post(http, url, body)
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"response", "private", "status"}
    assert Entry.objects.count() == 2


def test_a_kinds_own_refusal_names_the_answer(cast: Cast):
    http = login(cast.alice.portal_user)
    url = f"/api/v1/assignments/{cast.alice_assignment.pk}/entries/"
    response = _post(
        http, url, {"response": written_record(body_distress=12), "status": "submitted"}
    )
    assert response.status_code == 400
    assert "response.body_distress" in response.json()["errors"]
    assert Entry.objects.count() == 2


def test_another_clients_assignment_and_entry_are_404(cast: Cast):
    http = login(cast.alice.portal_user)
    url = f"/api/v1/assignments/{cast.bob_assignment.pk}/entries/"
    assert _post(http, url, {"response": written_record()}).status_code == 404
    patched = _patch(
        http, f"/api/v1/entries/{cast.bob_entry.key}/", {"private": True}, if_match='"v1"'
    )
    assert patched.status_code == 404 and patched.json()["code"] == "not_found"
    cast.bob_entry.refresh_from_db()
    assert not cast.bob_entry.private and Entry.objects.count() == 2


def test_the_same_idempotency_key_and_body_replays_the_first_answer(cast: Cast):
    http = login(cast.alice.portal_user)
    url = f"/api/v1/assignments/{cast.alice_assignment.pk}/entries/"
    body = {"response": written_record(), "status": "submitted"}
    first = _post(http, url, body, idempotency_key="k-1")
    again = _post(http, url, body, idempotency_key="k-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Entry.objects.count() == 3


def test_the_same_idempotency_key_with_another_body_is_422(cast: Cast):
    http = login(cast.alice.portal_user)
    url = f"/api/v1/assignments/{cast.alice_assignment.pk}/entries/"
    _post(http, url, {"response": written_record(), "status": "submitted"}, idempotency_key="k-2")
    other = _post(
        http,
        url,
        {"response": written_record(what_happened="Else"), "status": "submitted"},
        idempotency_key="k-2",
    )
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    assert Entry.objects.count() == 3


def test_a_refused_request_keeps_no_idempotency_key(cast: Cast):
    http = login(cast.alice.portal_user)
    url = f"/api/v1/assignments/{cast.alice_assignment.pk}/entries/"
    _post(http, url, {"response": "no"}, idempotency_key="k-3")
    assert not IdempotentRequest.objects.exists()


def test_the_list_is_open_work_first_in_a_fixed_number_of_queries(
    cast: Cast, django_assert_num_queries
):
    http = login(cast.alice.portal_user)
    http.get("/api/v1/assignments/")  # the session's first read loads what every request then has
    with django_assert_num_queries(QUERIES_FOR_A_LIST) as one:
        response = http.get("/api/v1/assignments/?page_size=100")
    assert response.json()["count"] == 1
    AssignmentFactory.create_batch(99, client=cast.alice)
    with django_assert_num_queries(len(one.captured_queries)):
        response = http.get("/api/v1/assignments/?page_size=100")
    assert response.json()["count"] == 100


QUERIES_FOR_A_LIST = 5  # session, user, client, count, page


def test_an_assignments_entries_come_in_a_fixed_number_of_queries(
    cast: Cast, django_assert_num_queries
):
    http = login(cast.alice.portal_user)
    url = f"/api/v1/assignments/{cast.alice_assignment.pk}/entries/?page_size=100"
    http.get(url)
    with django_assert_num_queries(QUERIES_FOR_A_LIST + 1):  # and the assignment
        assert http.get(url).json()["count"] == 1
    EntryFactory.create_batch(
        99, assignment=cast.alice_assignment, private=True
    )  # no notices to write
    with django_assert_num_queries(QUERIES_FOR_A_LIST + 1):
        assert http.get(url).json()["count"] == 100


def test_my_export_is_the_portals_download(cast: Cast):
    http = login(cast.alice.portal_user)
    api = http.get("/api/v1/me/export/").json()
    portal = json.loads(http.get("/account/export.json").content)
    assert {**api, "exported_at": None} == {**portal, "exported_at": None}


def test_an_archived_client_reads_their_download_but_nothing_else(cast: Cast):
    from clients.services import client_archive

    client_archive(actor=cast.tara, client=cast.alice)
    http = login(cast.alice.portal_user)
    refused = http.get("/api/v1/assignments/")
    assert refused.status_code == 403 and refused.json()["code"] == "archived_page"
    assert http.get("/api/v1/me/export/").status_code == 200


def test_a_note_is_added_to_a_sent_entry(cast: Cast):
    http = login(cast.alice.portal_user)
    response = _post(http, f"/api/v1/entries/{cast.alice_entry.key}/notes/", {"text": "And more"})
    assert response.status_code == 201
    assert cast.alice_entry.notes.get().text == "And more"


def test_a_private_entry_shows_staff_only_that_it_exists():
    from homework.api.serializers import StaffEntryOut

    entry = EntryFactory.create(private=True)
    shown = StaffEntryOut(entry).data
    assert shown["private"] is True and shown["response"] is None
    assert shown["felt_unsafe"] is None


def test_the_nightly_sweep_forgets_kept_answers_after_a_day(cast: Cast):
    import datetime as dt

    from django.utils import timezone

    from homework.tasks import purge_done_messages

    user = cast.alice.portal_user
    assert user is not None
    old = IdempotentRequest.objects.create(
        user=user, key="old", fingerprint="x", created_at=timezone.now() - dt.timedelta(hours=25)
    )
    fresh = IdempotentRequest.objects.create(user=user, key="fresh", fingerprint="x")
    purge_done_messages()
    assert list(IdempotentRequest.objects.values_list("pk", flat=True)) == [fresh.pk]
    assert not IdempotentRequest.objects.filter(pk=old.pk).exists()


def test_open_work_comes_before_work_that_is_done(cast: Cast):
    import datetime as dt

    from homework.models import Assignment

    AssignmentFactory.create(
        client=cast.alice,
        status=Assignment.Status.COMPLETED,
        starts_on=dt.date(2020, 1, 1),
        due_on=dt.date(2020, 1, 1),  # due long before the open one: still after it
    )
    rows = login(cast.alice.portal_user).get("/api/v1/assignments/").json()["results"]
    assert [row["status"] for row in rows] == ["active", "completed"]
