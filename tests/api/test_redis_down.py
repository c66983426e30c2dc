"""Redis gone (REDIS_URL names a closed port): the API still answers, its
throttles counting in the process's memory instead. In a process of its own,
as production runs with Redis down (tests/clients/test_redis_down.py)."""

import json

import pytest
from django.core.cache import cache

from homework.models import Entry
from practice.api import throttling
from tests.conftest import Cast, login
from tests.factories import PASSWORD, written_record
from tests.helpers_workers import run_in_a_process_of_its_own

TOKEN_LIST_AND_ENTRY = """
import json
import django
django.setup()
from django.test import Client
from practice.models import User

# Hashed as this process hashes (the tests' own hasher is a faster one).
alice = User.objects.get(email="alice@example.test")
alice.set_password({password!r})
alice.save(update_fields=["password"])
http = Client()
token = http.post(
    "/api/v1/auth/token/", {{"email": "alice@example.test", "password": {password!r}}},
    content_type="application/json",
)
auth = {{"Authorization": "Token " + token.json().get("token", "")}}
listed = http.get("/api/v1/assignments/", headers=auth)
sent = http.post(
    "/api/v1/assignments/{assignment}/entries/", {body!r}, content_type="application/json",
    headers=auth,
)
print(json.dumps({{
    "statuses": [token.status_code, listed.status_code, sent.status_code],
    "listed": len(listed.json().get("results", [])),
}}))
"""


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_with_redis_down_a_token_a_list_and_an_entry_sent_all_answer(cast):
    body = json.dumps({"response": written_record(), "status": "submitted"})
    script = TOKEN_LIST_AND_ENTRY.format(
        password=PASSWORD, assignment=cast.alice_assignment.pk, body=body
    )
    before = Entry.objects.count()
    outcome, log = run_in_a_process_of_its_own(
        script,
        env={"REDIS_URL": "redis://127.0.0.1:1/0"},  # port 1 refuses every connection
        hung="an API request hung with Redis down",
    )
    assert outcome["statuses"] == [201, 200, 201], log
    assert outcome["listed"] >= 1
    assert Entry.objects.count() == before + 1
    assert "API throttles count in this process's memory" in log


@pytest.mark.django_db
def test_with_the_cache_failing_the_throttles_still_count_in_memory(
    cast: Cast, monkeypatch: pytest.MonkeyPatch
):
    from rest_framework.throttling import SimpleRateThrottle

    def refused(*args: object, **kwargs: object) -> None:
        raise ConnectionError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

    monkeypatch.setattr(cache, "get", refused)
    monkeypatch.setattr(cache, "set", refused)
    fresh = throttling.ThrottleCache()  # no pause left over from another test
    monkeypatch.setattr(throttling.PerUserThrottle, "cache", fresh)
    monkeypatch.setattr(throttling.PerAddressThrottle, "cache", fresh)
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"user": "2/min", "address": "99/min"}
    )
    http = login(cast.alice.portal_user)
    statuses = [http.get("/api/v1/assignments/").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
