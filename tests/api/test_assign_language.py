"""The API's assign route and library in two languages (issue 39, part 3)."""

import json

import pytest
from django.utils import timezone

from homework.models import Assignment, Exercise
from tests.conftest import Cast, login
from tests.factories import ExerciseFactory

pytestmark = pytest.mark.django_db


def _post(http, url, body):
    return http.post(url, json.dumps(body), content_type="application/json")


def test_work_in_a_language_the_client_does_not_read_waits_for_the_confirm_field(cast: Cast):
    cast.alice.language = "es"
    cast.alice.save(update_fields=["language"])
    english = ExerciseFactory.create(title="Harbour")
    ExerciseFactory.create(title="Puerto", language="es", translation_of=english)
    url = f"/api/v1/clients/{cast.alice.pk}/assignments/"
    body = {"exercise": english.pk, "starts_on": timezone.localdate().isoformat()}
    http = login(cast.tara)
    refused = _post(http, url, body)
    assert refused.status_code == 400
    assert refused.json()["errors"]["exercise"] == [
        "Alice reads in Spanish. This exercise has a version in Spanish, “Puerto”: choose it, "
        "or tick “Assign it in English anyway”."
    ]
    assert not Assignment.objects.filter(exercise=english).exists()
    made = _post(http, url, {**body, "language_confirmed": True})
    assert made.status_code == 201
    assert Assignment.objects.filter(exercise=english, client=cast.alice).exists()


def test_the_library_shows_each_exercises_language_and_what_it_gives(cast: Cast):
    english = ExerciseFactory.create(title="Harbour")
    spanish = ExerciseFactory.create(title="Puerto", language="es", translation_of=english)
    http, url, by_id = login(cast.tara), "/api/v1/exercises/?page_size=100", {}
    while url:  # every page: the library in two languages may hold more than one
        page = http.get(url).json()
        by_id.update({row["id"]: row for row in page["results"]})
        url = page["next"]
    assert (by_id[spanish.pk]["language"], by_id[spanish.pk]["translation_of"]) == (
        "es",
        english.pk,
    )
    assert (by_id[english.pk]["language"], by_id[english.pk]["translation_of"]) == ("en-gb", None)


def test_a_new_exercise_is_in_the_language_its_author_reads_unless_named(cast: Cast):
    cast.tara.language = "es"
    cast.tara.save(update_fields=["language"])
    http = login(cast.tara)
    body = {"kind": "written_record", "title": "Escríbelo", "instructions": "Pronto."}
    made = _post(http, "/api/v1/exercises/", body)
    assert Exercise.objects.get(pk=made.json()["id"]).language == "es"
    named = _post(http, "/api/v1/exercises/", {**body, "title": "Write it", "language": "en-gb"})
    assert Exercise.objects.get(pk=named.json()["id"]).language == "en-gb"
