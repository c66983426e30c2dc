"""The client's contact profile through the API: the portal form's rules,
the service's log, and If-Match on the whole profile."""

import json

import pytest

from clients.models import ContactChange, ContactProfile
from tests.conftest import Cast, login

pytestmark = pytest.mark.django_db

URL = "/api/v1/me/contact-profile/"
WEEKDAYS_NINE_TO_FIVE = {
    **{f"{day}_when": "between" for day in ("mon", "tue", "wed", "thu", "fri")},
    **{f"{day}_from": "09:00" for day in ("mon", "tue", "wed", "thu", "fri")},
    **{f"{day}_until": "17:00" for day in ("mon", "tue", "wed", "thu", "fri")},
    "sat_when": "never",
    "sun_when": "never",
}
PROFILE = {
    "email_is_safe": True,
    "email": "only-me@example.test",
    "text_is_safe": False,
    "phone": "",
    "days_between": 2,
    "recurring_reminder_at": "18:30",
    "time_zone": "Europe/London",
    **WEEKDAYS_NINE_TO_FIVE,
}


def _put(http, body, **headers):
    return http.put(URL, json.dumps(body), content_type="application/json", headers=headers)


def test_the_client_sets_their_profile_with_the_etag_they_read(cast: Cast):
    http = login(cast.alice.portal_user)
    read = http.get(URL)
    saved = _put(http, PROFILE, if_match=read["ETag"])
    assert saved.status_code == 200, saved.json()
    assert saved.json()["email"] == "only-me@example.test" and saved.json()["mon_from"] == "09:00"
    assert saved["ETag"] != read["ETag"] and http.get(URL)["ETag"] == saved["ETag"]
    assert ContactChange.objects.get(client=cast.alice).by == ContactChange.By.CLIENT


def test_a_stale_etag_is_412_and_the_profile_is_unchanged(cast: Cast):
    http = login(cast.alice.portal_user)
    stale = http.get(URL)["ETag"]
    _put(http, PROFILE, if_match=stale)
    again = _put(http, {**PROFILE, "email": "other@example.test"}, if_match=stale)
    assert again.status_code == 412
    assert ContactProfile.objects.get(client=cast.alice).email == "only-me@example.test"


def test_the_forms_rules_refuse_by_field_name(cast: Cast):
    http = login(cast.alice.portal_user)
    body = {**PROFILE, "email": "", "mon_from": "17:00", "mon_until": "09:00"}
    refused = _put(http, body, if_match=http.get(URL)["ETag"])
    assert refused.status_code == 400
    assert {"email", "mon_until"} <= set(refused.json()["errors"])
    assert not ContactProfile.objects.filter(client=cast.alice).exists()
