"""Answers Django gives before the API's own views run (a body over every
limit, the CSRF check, the site's error pages) come in the API's one error
shape too, with no traceback in the log."""

import json
import logging

import pytest
from django.conf import settings
from django.test import Client as HttpClient
from knox.models import AuthToken

from homework.api import client as client_api
from homework.models import Entry
from tests.conftest import Cast, login

pytestmark = pytest.mark.django_db

SHAPE = {"code", "detail", "errors"}


def with_token(
    cast: Cast, *, enforce_csrf_checks: bool = False, raise_request_exception: bool = True
) -> HttpClient:
    _, token = AuthToken.objects.create(cast.alice.portal_user)
    return HttpClient(
        enforce_csrf_checks,
        raise_request_exception,
        headers={"Authorization": f"Token {token}"},
    )


def assert_shape(response, status: int, code: str) -> None:
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    assert set(response.json()) == SHAPE and response.json()["code"] == code


@pytest.mark.parametrize("content_type", ["application/json", "application/x-www-form-urlencoded"])
def test_an_eleven_megabyte_body_is_a_json_413_and_no_traceback(
    cast: Cast, caplog: pytest.LogCaptureFixture, content_type: str
):
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE < 11_000_000  # past Django's own limit too
    body = json.dumps({"response": {"what_happened": "x" * 11_000_000}})
    url = f"/api/v1/assignments/{cast.alice_assignment.pk}/entries/"
    with caplog.at_level(logging.WARNING):
        response = with_token(cast).post(url, body, content_type=content_type)
    assert_shape(response, 413, "request_too_large")
    assert Entry.objects.count() == 2
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


def test_a_body_just_over_the_apis_limit_is_413_and_one_within_it_is_read(cast: Cast):
    url = f"/api/v1/assignments/{cast.alice_assignment.pk}/entries/"
    http = with_token(cast)
    over = b"{" + b" " * settings.API_MAX_BODY_BYTES + b"}"
    assert_shape(http.post(url, over, content_type="application/json"), 413, "request_too_large")
    within = b"{" + b" " * (settings.API_MAX_BODY_BYTES - 2) + b"}"
    read = http.post(url, within, content_type="application/json")
    assert read.status_code == 400 and list(read.json()["errors"]) == ["response"]
    assert Entry.objects.count() == 2


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_a_write_to_an_unknown_path_with_a_token_is_the_json_404(cast: Cast, method: str):
    http = with_token(cast, enforce_csrf_checks=True)
    response = getattr(http, method)(
        "/api/v1/no-such-thing/", "{}", content_type="application/json"
    )
    assert_shape(response, 404, "not_found")


def test_a_post_to_an_unknown_path_signed_in_by_the_portal_is_the_json_404(cast: Cast):
    http = login(cast.alice.portal_user)
    http.handler.enforce_csrf_checks = True
    response = http.post("/api/v1/no-such-thing/", "{}", content_type="application/json")
    assert_shape(response, 404, "not_found")


def test_a_fault_inside_the_api_is_a_json_500(
    cast: Cast, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
):
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(client_api.AssignmentList, "get", broken)
    http = with_token(cast, raise_request_exception=False)
    with caplog.at_level(logging.ERROR):
        response = http.get("/api/v1/assignments/")
    assert_shape(response, 500, "server_error")
    assert "a bug" not in response.text


def test_pages_outside_the_api_keep_their_html(cast: Cast):
    response = login(cast.alice.portal_user).get("/no-such-page/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")
