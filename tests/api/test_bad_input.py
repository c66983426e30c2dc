"""Bad input gets the documented status in the one error shape, and the
database is unchanged."""

import json

import pytest

from homework.models import Entry
from tests.conftest import Cast, login

pytestmark = pytest.mark.django_db

SHAPE = {"code", "detail", "errors"}


def _entries_url(cast: Cast) -> str:
    return f"/api/v1/assignments/{cast.alice_assignment.pk}/entries/"


def test_malformed_json_is_400(cast: Cast):
    http = login(cast.alice.portal_user)
    response = http.post(_entries_url(cast), '{"response": {', content_type="application/json")
    assert response.status_code == 400
    assert set(response.json()) == SHAPE and response.json()["code"] == "parse_error"
    assert Entry.objects.count() == 2


def test_a_form_post_is_415(cast: Cast):
    http = login(cast.alice.portal_user)
    response = http.post(_entries_url(cast), {"response": "x"})
    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"


def test_a_ten_megabyte_body_is_413(cast: Cast):
    http = login(cast.alice.portal_user)
    body = json.dumps({"response": {"what_happened": "x" * 10_000_000}})
    response = http.post(_entries_url(cast), body, content_type="application/json")
    assert response.status_code == 413 and response.json()["code"] == "request_too_large"
    assert Entry.objects.count() == 2


@pytest.mark.parametrize("size", ["0", "-5", "101", "100000000000000000000", "ten"])
def test_a_page_size_out_of_bounds_is_400_naming_it(cast: Cast, size: str):
    response = login(cast.alice.portal_user).get(f"/api/v1/assignments/?page_size={size}")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["page_size"]


def test_an_unknown_route_under_the_api_is_a_404_in_the_shape():
    response = login(None).get("/api/v1/nothing-here/")
    assert response.status_code == 404
    assert set(response.json()) == SHAPE
    assert response.json()["code"] == "not_found"


def test_too_many_requests_are_429_in_the_shape(cast: Cast, monkeypatch: pytest.MonkeyPatch):
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"user": "2/min", "address": "99/min"}
    )
    http = login(cast.alice.portal_user)
    statuses = [http.get("/api/v1/assignments/").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    response = http.get("/api/v1/assignments/")
    assert response.json()["code"] == "throttled" and "Retry-After" in response
    # One sentence, in our words, naming the wait once.
    assert "Expected available" not in response.json()["detail"]
    assert response.json()["detail"].count("seconds") == 1


def test_many_accounts_from_one_address_share_its_limit(
    cast: Cast, monkeypatch: pytest.MonkeyPatch
):
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"user": "99/min", "address": "2/min"}
    )
    alice, bob = login(cast.alice.portal_user), login(cast.bob.portal_user)
    statuses = [http.get("/api/v1/assignments/").status_code for http in (alice, bob, bob)]
    assert statuses == [200, 200, 429]


def test_a_string_that_is_not_text_is_400(cast: Cast):
    http = login(cast.alice.portal_user)
    body = '{"response": {"what_happened": "a\\ud800b"}}'
    response = http.post(_entries_url(cast), body, content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "parse_error"
    assert Entry.objects.count() == 2
