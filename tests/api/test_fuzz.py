"""Schemathesis against the live schema, as each role: whatever a caller
sends, no answer is a server error, and every documented answer matches the
schema. ``make test`` tries a few requests per operation with a fixed seed;
``make fuzz`` many more (API_FUZZ_EXAMPLES)."""

import os

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from knox.models import AuthToken
from rest_framework.throttling import SimpleRateThrottle
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Ok
from schemathesis.specs.openapi.checks import response_schema_conformance

from tests.conftest import Cast

EXAMPLES = int(os.environ.get("API_FUZZ_EXAMPLES", "3"))
# Rendering a PDF takes a second or more: tried only by `make fuzz`.
SLOW_OPERATIONS = {"client_summary_pdf"} if "API_FUZZ_EXAMPLES" not in os.environ else set()

pytestmark = pytest.mark.hypothesis  # `make fuzz` selects it with the property tests


@pytest.fixture
def unthrottled(monkeypatch):
    """Hundreds of requests a minute from one person: throttles would answer most
    of them 429 and hide what the routes do (tests/api/test_bad_input checks them)."""
    monkeypatch.setattr(SimpleRateThrottle, "allow_request", lambda self, request, view: True)


@pytest.fixture
def app():
    """Django's WSGI application, served in the test's own transaction: as
    Django's test client does, requests do not close the connection."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield get_wsgi_application()
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.mark.parametrize("role", ["client", "therapist", "manager"])
def test_no_generated_request_gets_a_server_error_or_an_answer_off_its_schema(
    cast: Cast, app, unthrottled, role
):
    user = {"client": cast.alice.portal_user, "therapist": cast.tara, "manager": cast.morgan}[role]
    _instance, token = AuthToken.objects.create(user)
    headers = {"Authorization": f"Token {token}"}
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", app, headers=headers)
    checks = [not_a_server_error, response_schema_conformance]
    tried = 0
    for result in schema.get_all_operations():
        assert isinstance(result, Ok), result  # the schema itself is sound
        operation = result.ok()
        if operation.definition.raw.get("operationId") in SLOW_OPERATIONS:
            continue

        @settings(
            max_examples=EXAMPLES,
            derandomize=True,  # the same requests every run
            database=None,
            deadline=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy())
        def call(case):
            response = case.call(headers=headers)
            case.validate_response(response, checks=checks, headers=headers)

        call()
        tried += 1
    assert tried >= 20  # every route was reached, not a schema of none
