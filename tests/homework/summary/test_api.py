"""GET /api/v1/clients/{id}/summary.pdf and the OpenAPI schema."""

import datetime as dt

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from clients.models import AccessEvent
from tests.conftest import login
from tests.factories import SessionFactory

from .conftest import pdf_text

pytestmark = pytest.mark.django_db


def url(client_id: int) -> str:
    return reverse("api:client-summary", args=[client_id])


def test_therapist_downloads_their_clients_summary_and_it_is_logged(cast):
    response = login(cast.tara).get(url(cast.alice.pk), HTTP_ACCEPT="application/pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    disposition = response["Content-Disposition"]
    assert disposition.startswith('inline; filename="session-summary-')
    assert "Alice" not in disposition
    assert "no-store" in response["Cache-Control"]
    assert cast.alice_entry.response["what_happened"] in pdf_text(response.content)
    event = AccessEvent.objects.get()
    assert (event.actor, event.client, event.action) == (cast.tara, cast.alice, "exported")
    assert "Session summary" in event.what


def test_manager_may_download_any_clients_summary(cast):
    assert login(cast.morgan).get(url(cast.bob.pk)).status_code == 200


def test_another_therapists_client_is_not_found_and_nothing_is_logged(cast):
    response = login(cast.theo).get(url(cast.alice.pk) + "?since=nonsense")
    assert response.status_code == 404
    assert not AccessEvent.objects.exists()


@pytest.mark.parametrize("who", ["anonymous", "alice"])
def test_clients_and_strangers_are_refused(cast, who):
    user = None if who == "anonymous" else cast.alice.portal_user
    response = login(user).get(url(cast.alice.pk))
    # Signed out: asked to sign in (401, a token named as the way); a client: refused.
    assert response.status_code == (401 if user is None else 403)
    assert response["Content-Type"] == "application/json"
    assert not AccessEvent.objects.exists()


def test_unknown_client_id_is_not_found(cast):
    assert login(cast.tara).get(url(999_999)).status_code == 404


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("since=2026-02-30", "since"),
        ("since=soon", "since"),
        ("until=" + "9" * 5000, "until"),
        ("since=2026-03-10&until=2026-03-01", "until"),
        ("since=2000-01-01&until=2001-12-31", "until"),
        ("full_detail=perhaps", "full_detail"),
        ("until=9999-12-31", "until"),
        ("until=0001-01-01", "until"),
        ("until=2099-01-01", "until"),
        ("session=first", "session"),
        ("session=999999", "session"),
        ("session=1&since=2026-03-01", "session"),
    ],
)
def test_bad_dates_are_a_400_naming_the_parameter(cast, query, name):
    response = login(cast.tara).get(f"{url(cast.alice.pk)}?{query}", HTTP_ACCEPT="application/pdf")
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert list(response.json()["errors"]) == [name]
    assert not AccessEvent.objects.exists()


def test_future_since_is_refused(cast):
    tomorrow = timezone.localdate() + dt.timedelta(days=1)
    response = login(cast.tara).get(f"{url(cast.alice.pk)}?since={tomorrow}")
    assert response.status_code == 400
    assert "since" in response.json()["errors"]


def test_chosen_dates_and_full_detail_are_honoured(cast):
    today = timezone.localdate()
    response = login(cast.tara).get(
        f"{url(cast.alice.pk)}?since={today - dt.timedelta(days=3)}&until={today}&full_detail=true"
    )
    assert response.status_code == 200
    text = pdf_text(response.content)
    assert "dates chosen" in text
    assert "FULL DETAIL" in text
    assert "(full detail)" in AccessEvent.objects.get().what


def test_only_get_is_allowed(cast):
    assert login(cast.tara).post(url(cast.alice.pk)).status_code in (403, 405)


def test_schema_is_served_to_signed_in_people(cast):
    response = login(cast.tara).get(reverse("api-schema"), HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    schema = response.json()
    operation = schema["paths"]["/api/v1/clients/{client_id}/summary.pdf"]["get"]
    assert {p["name"] for p in operation["parameters"]} >= {"since", "until", "full_detail"}
    assert "application/pdf" in operation["responses"]["200"]["content"]
    assert login(None).get(reverse("api-schema")).status_code == 401


def test_schema_generates_without_warnings(tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yml"))


def test_another_clients_session_is_a_400_naming_it(cast):
    bobs = SessionFactory.create(client=cast.bob)
    response = login(cast.morgan).get(f"{url(cast.alice.pk)}?session={bobs.pk}")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["session"]
    assert not AccessEvent.objects.exists()


def test_a_summary_for_chosen_dates_is_logged_as_one(cast):
    since, until = dt.date(2026, 11, 2), dt.date(2026, 11, 20)
    response = login(cast.tara).get(
        url(cast.alice.pk), {"since": since.isoformat(), "until": until.isoformat()}
    )
    assert response.status_code == 200
    what = AccessEvent.objects.get().what
    assert what == "Summary for chosen dates 2026-11-02 to 2026-11-20"
