"""Each person's language: chosen, refused when not offered, and followed by every page."""

import json

import pytest
from django.urls import reverse

from clients.models import Client
from practice.models import User
from practice.selectors import practice_settings
from tests.conftest import Cast, login, save_change_form
from tests.helpers import CHANGE, settings_form

pytestmark = pytest.mark.django_db

SPANISH_LINES = "Línea 016 (24 horas): 016\nEmergencias: 112"


def page_language(response) -> str:
    return str(response.content.decode()).split('<html lang="', 1)[1].split('"', 1)[0]


@pytest.mark.parametrize(
    ("accept", "shown"),
    [("es-ES,es;q=0.9", "es"), ("en-GB,en;q=0.8", "en-gb"), ("de-DE", "en-gb"), ("", "en-gb")],
    ids=["spanish", "english", "not offered", "none"],
)
def test_a_signed_out_page_follows_the_browser_when_it_asks_for_one_offered(client, accept, shown):
    response = client.get(reverse("clients:login"), headers={"Accept-Language": accept})
    assert page_language(response) == shown
    assert response["Content-Language"] == shown
    assert "Accept-Language" in response["Vary"]


@pytest.mark.parametrize(("chosen", "shown"), [("es", "es"), ("", "en-gb")])
def test_a_signed_in_client_reads_their_own_language_whatever_the_browser(
    cast: Cast, chosen, shown
):
    Client.objects.filter(pk=cast.alice.pk).update(language=chosen)
    http = login(cast.alice.portal_user)
    response = http.get(reverse("homework:dashboard"), headers={"Accept-Language": "de, en"})
    assert page_language(response) == shown
    assert "/es/" not in response.request["PATH_INFO"]


def test_a_client_chooses_their_language_in_settings(cast: Cast):
    http = login(cast.alice.portal_user)
    answer = http.post(reverse("clients:change_language"), {"language": "es"}, follow=True)
    assert Client.objects.get(pk=cast.alice.pk).language == "es"
    assert page_language(answer) == "es"


@pytest.mark.parametrize("code", ["de", "", "es-MX"])
def test_a_language_not_offered_is_refused_and_the_current_one_kept(cast: Cast, code):
    Client.objects.filter(pk=cast.alice.pk).update(language="es")
    http = login(cast.alice.portal_user)
    answer = http.post(reverse("clients:change_language"), {"language": code})
    assert answer.status_code == 400
    assert "Elige un" in answer.content.decode()  # at the field, in the language kept
    assert Client.objects.get(pk=cast.alice.pk).language == "es"


def test_a_staff_member_chooses_their_own_language(cast: Cast):
    http = login(cast.tara)
    refused = http.post(reverse("admin:staff_language"), {"language": "fr"})
    assert refused.status_code == 400
    assert User.objects.get(pk=cast.tara.pk).language == ""
    http.post(reverse("admin:staff_language"), {"language": "es"})
    assert User.objects.get(pk=cast.tara.pk).language == "es"
    assert page_language(http.get(reverse("admin:index"))) == "es"


def test_the_therapist_sets_a_clients_language_and_the_api_shows_it(cast: Cast):
    http = login(cast.tara)
    url = f"/api/v1/clients/{cast.alice.pk}/"
    read = http.get(url)
    assert read.json()["language"] == ""
    refused = http.patch(
        url,
        json.dumps({"language": "fr"}),
        content_type="application/json",
        headers={"If-Match": read["ETag"]},
    )
    assert refused.status_code == 400 and "language" in refused.json()["errors"]
    changed = http.patch(
        url,
        json.dumps({"language": "es"}),
        content_type="application/json",
        headers={"If-Match": read["ETag"]},
    )
    assert changed.json()["language"] == "es"
    assert Client.objects.get(pk=cast.alice.pk).language == "es"


def test_a_spanish_speaking_client_sees_the_practices_spanish_crisis_lines(
    cast: Cast, django_capture_on_commit_callbacks
):
    admin = login(cast.morgan)
    with django_capture_on_commit_callbacks(execute=True):
        save_change_form(
            admin, reverse(CHANGE, args=[1]), settings_form(crisis_resources_es=SPANISH_LINES)
        )
    assert practice_settings().crisis_resources_by_language == {"es": SPANISH_LINES}
    Client.objects.filter(pk=cast.alice.pk).update(language="es")
    spanish = login(cast.alice.portal_user).get(reverse("crisis")).content.decode()
    english = login(cast.bob.portal_user).get(reverse("crisis")).content.decode()
    assert "Emergencias" in spanish and "0808 2000 247" not in spanish
    assert "0808 2000 247" in english and "Emergencias" not in english


def test_a_practice_comes_with_crisis_lines_a_spanish_reader_can_read(cast: Cast):
    Client.objects.filter(pk=cast.alice.pk).update(language="es")
    spanish = login(cast.alice.portal_user).get(reverse("crisis")).content.decode()
    english = login(cast.bob.portal_user).get(reverse("crisis")).content.decode()
    assert "Si estás en peligro ahora" in spanish and "0808 2000 247" in spanish
    assert "If you are in danger now" in english and "Si estás" not in english
