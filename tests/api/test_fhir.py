"""A client's measures as a FHIR R4 Bundle: valid against fhir.resources' R4B models, only what
staff may read, scoped and logged like every read."""

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone
from fhir.resources.R4B import get_fhir_model_class
from fhir.resources.R4B.bundle import Bundle
from knox.models import AuthToken

from clients.models import AccessEvent
from homework.models import Entry
from tests import factories
from tests.conftest import Cast, login
from tests.helpers_measures import answers, pcl5_shaped, phq9

pytestmark = pytest.mark.django_db

FHIR_JSON = "application/fhir+json"


def url(cast: Cast) -> str:
    return f"/api/v1/clients/{cast.alice.pk}/fhir/"


def send(exercise, cast: Cast, points: list[int], **fields) -> Entry:
    assignment = factories.AssignmentFactory.create(client=cast.alice, exercise=exercise)
    return factories.EntryFactory.create(
        assignment=assignment, response=answers(exercise, points), **fields
    )


def parsed(response) -> list[dict[str, Any]]:
    """The body read back by the R4B models: the Bundle, then each resource by its own type."""
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith(FHIR_JSON)
    body = response.json()
    Bundle.model_validate(body)
    resources = [row["resource"] for row in body.get("entry", [])]
    for resource in resources:
        get_fhir_model_class(resource["resourceType"]).model_validate(resource)
    return resources


def of_type(resources: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [r for r in resources if r["resourceType"] == kind]


PHQ9_POINTS = [1, 2, 0, 3, 1, 0, 2, 1, 1]  # 11, item 9 above 0
PCL5_POINTS = [4, 3, 2, 1, 0] + [2, 2] + [1] * 7 + [3] * 6  # B 10, C 4, D 7, E 18: 39


def test_a_therapist_exports_each_measure_its_responses_and_scores(cast: Cast):
    sent_at = timezone.now() - dt.timedelta(days=3)
    depression = send(phq9(), cast, PHQ9_POINTS, submitted_at=sent_at)
    trauma = send(pcl5_shaped(), cast, PCL5_POINTS)

    resources = parsed(login(cast.tara).get(url(cast)))

    patient = of_type(resources, "Patient")
    assert patient == [
        {
            "resourceType": "Patient",
            "identifier": [
                {"system": "http://127.0.0.1:8000/fhir/client-id", "value": str(cast.alice.pk)}
            ],
        }
    ]
    assert "Alice" not in str(resources)
    questionnaires = {q["title"]: q for q in of_type(resources, "Questionnaire")}
    assert set(questionnaires) == {"PHQ-9", "PCL-5"}
    phq = questionnaires["PHQ-9"]
    assert [item["linkId"] for item in phq["item"]] == [
        *(f"phq9_{n}" for n in range(1, 10)),
        "difficulty",
    ]
    first = phq["item"][0]["answerOption"]
    assert [o["valueCoding"]["display"] for o in first] == [
        "Not at all",
        "Several days",
        "More than half the days",
        "Nearly every day",
    ]
    assert [o["valueCoding"]["extension"][0]["valueDecimal"] for o in first] == [0, 1, 2, 3]
    assert phq["code"] == [{"system": "http://loinc.org", "code": "44249-1"}]

    responses = {r["identifier"]["value"]: r for r in of_type(resources, "QuestionnaireResponse")}
    assert set(responses) == {str(depression.key), str(trauma.key)}
    phq_response = responses[str(depression.key)]
    assert phq_response["questionnaire"] == phq["url"]
    assert phq_response["status"] == "completed"
    assert dt.datetime.fromisoformat(phq_response["authored"]) == sent_at
    assert phq_response["item"][8] == {
        "linkId": "phq9_9",
        "answer": [
            {
                "valueCoding": {
                    "system": f"http://127.0.0.1:8000/fhir/CodeSystem/{depression.assignment.exercise_id}-phq9_9",
                    "code": "1",
                    "display": "Several days",
                }
            }
        ],
    }
    assert len(phq_response["item"]) == 9  # the difficulty question was left, so it is not there

    observations = of_type(resources, "Observation")
    by_code = {o["code"]["coding"][0]["code"]: o for o in observations}
    total = by_code["44261-6"]
    assert total["valueInteger"] == 11
    assert total["status"] == "final"
    assert total["category"][0]["coding"][0]["code"] == "survey"
    assert dt.datetime.fromisoformat(total["effectiveDateTime"]) == sent_at
    assert total["derivedFrom"] == [{"reference": f"urn:uuid:{depression.key}"}]
    assert total["subject"] == phq_response["subject"]
    assert by_code["101698-9"]["valueInteger"] == 39
    local = "http://127.0.0.1:8000/fhir/CodeSystem/scores"
    clusters = {
        o["code"]["text"]: o["valueInteger"]
        for o in observations
        if o["code"]["coding"][0]["system"] == local
    }
    assert clusters == {"Cluster B": 10, "Cluster C": 4, "Cluster D": 7, "Cluster E": 18}
    assert len(observations) == 6


def test_private_entries_drafts_and_other_exercises_never_leave(cast: Cast):
    measure = phq9()
    shared = send(measure, cast, PHQ9_POINTS)
    private = send(measure, cast, [3] * 9, private=True)
    draft = send(measure, cast, [2] * 9, status=Entry.Status.DRAFT, submitted_at=None)
    check_in = factories.ExerciseFactory.create(
        kind="worksheet", options=factories.options_for("worksheet")
    )
    factories.EntryFactory.create(
        assignment=factories.AssignmentFactory.create(client=cast.alice, exercise=check_in),
        response=factories.worksheet(story="canarycheckin"),
    )
    body = login(cast.tara).get(url(cast))
    resources = parsed(body)
    kept = [r["identifier"]["value"] for r in of_type(resources, "QuestionnaireResponse")]
    assert kept == [str(shared.key)]
    text = body.content.decode()
    assert str(private.key) not in text and str(draft.key) not in text
    assert "canarycheckin" not in text and "went quiet" not in text  # the written record's words
    assert [q["title"] for q in of_type(resources, "Questionnaire")] == ["PHQ-9"]
    assert len(of_type(resources, "Observation")) == 1


def test_a_client_with_no_measures_gets_an_empty_valid_bundle_and_no_look(cast: Cast):
    answered_nothing = factories.AssignmentFactory.create(client=cast.alice, exercise=phq9())
    assert answered_nothing.entries.count() == 0
    response = login(cast.tara).get(url(cast))
    assert parsed(response) == []
    assert response.json()["type"] == "collection" and "entry" not in response.json()
    assert not AccessEvent.objects.exists()  # nothing of hers was read


def test_each_export_is_one_line_in_her_access_log(cast: Cast):
    send(phq9(), cast, PHQ9_POINTS)
    send(pcl5_shaped(), cast, PCL5_POINTS)
    login(cast.tara).get(url(cast))
    event = AccessEvent.objects.get()
    assert (event.actor, event.client, event.action) == (cast.tara, cast.alice, "exported")
    assert event.what == "Measures as FHIR"
    login(cast.morgan).get(url(cast))
    assert AccessEvent.objects.filter(actor=cast.morgan, action="exported").count() == 1
    assert AccessEvent.objects.count() == 2


def test_only_her_therapist_and_the_manager_may_export(cast: Cast):
    send(phq9(), cast, PHQ9_POINTS)
    assert login(cast.theo).get(url(cast)).status_code == 404
    missing = login(cast.tara).get("/api/v1/clients/999999/fhir/")
    assert missing.status_code == 404 and missing["Content-Type"] == "application/json"
    assert login(cast.alice.portal_user).get(url(cast)).status_code == 403
    _instance, own_token = AuthToken.objects.create(cast.alice.portal_user)
    as_client = login(None).get(url(cast), headers={"Authorization": f"Token {own_token}"})
    assert as_client.status_code == 403
    assert login(None).get(url(cast)).status_code == 401
    assert not AccessEvent.objects.exists()
    _instance, staff_token = AuthToken.objects.create(cast.tara)
    by_token = login(None).get(url(cast), headers={"Authorization": f"Token {staff_token}"})
    assert len(of_type(parsed(by_token), "QuestionnaireResponse")) == 1
    assert len(of_type(parsed(login(cast.morgan).get(url(cast))), "QuestionnaireResponse")) == 1
    plain = login(cast.tara).get(url(cast), headers={"Accept": "application/json"})
    assert plain["Content-Type"] == "application/json" and plain.json()["resourceType"] == "Bundle"


def test_the_export_takes_the_same_queries_at_1_and_50_entries(
    cast: Cast, django_assert_num_queries
):
    measure, trauma = phq9(), pcl5_shaped()
    send(measure, cast, PHQ9_POINTS)
    http = login(cast.morgan)
    http.get(url(cast))  # the manager's look is written once in 15 minutes: each call the same
    with django_assert_num_queries(QUERIES_FOR_EXPORT) as one:
        assert len(of_type(parsed(http.get(url(cast))), "QuestionnaireResponse")) == 1
    for n in range(49):
        send(trauma if n % 2 else measure, cast, PCL5_POINTS if n % 2 else PHQ9_POINTS)
    with django_assert_num_queries(len(one.captured_queries)):
        assert len(of_type(parsed(http.get(url(cast))), "QuestionnaireResponse")) == 50


# The session, the user and their second factor, the client, her assignments, their measures'
# entries; then the access log in its service's savepoints (the client is the caller's, the line
# not a repeat: it is written once, on the first call).
QUERIES_FOR_EXPORT = 12


def test_the_route_is_in_the_schema_as_fhir_json():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    operation = schema["paths"]["/api/v1/clients/{client_id}/fhir/"]["get"]
    body = operation["responses"]["200"]["content"][FHIR_JSON]["schema"]
    assert body["properties"]["resourceType"]["enum"] == ["Bundle"]
    assert "fhir.schema.json" in body["description"]
    assert set(operation["responses"]) >= {"200", "403", "404"}


def test_every_question_type_and_a_decimal_score_read_back_as_fhir(cast: Cast):
    options = factories.options_for("worksheet")  # one question of every type, a mean score
    banded = {**options["score"], "bands": [{"from": 0, "to": 10, "label": "Any"}]}
    measure = factories.ExerciseFactory.create(
        kind="worksheet", title="Every type", options={**options, "score": banded}
    )
    entry = factories.EntryFactory.create(
        assignment=factories.AssignmentFactory.create(client=cast.alice, exercise=measure),
        response=factories.worksheet(clarity=7),  # pull 8 reversed is 2: a mean of 4.5
    )
    resources = parsed(login(cast.tara).get(url(cast)))
    (questionnaire,) = of_type(resources, "Questionnaire")
    assert {i["linkId"]: i["type"] for i in questionnaire["item"]} == {
        "pull": "integer",
        "clarity": "integer",
        "word": "string",
        "story": "text",
        "place": "choice",
        "helped": "choice",
        "safe": "boolean",
        "when": "date",
    }
    (response,) = of_type(resources, "QuestionnaireResponse")
    answers_by_key = {i["linkId"]: i["answer"] for i in response["item"]}
    assert answers_by_key["pull"] == [{"valueInteger": 8}]
    assert answers_by_key["safe"] == [{"valueBoolean": True}]
    assert answers_by_key["when"] == [{"valueDate": "2026-01-03"}]
    assert answers_by_key["story"] == [{"valueString": "A long week."}]
    assert [a["valueCoding"]["display"] for a in answers_by_key["helped"]] == ["A walk", "Sleep"]
    (score,) = of_type(resources, "Observation")
    assert entry.score == 4.5
    assert score["valueQuantity"]["value"] == 4.5 and "valueInteger" not in score


def test_a_measure_answered_in_english_then_spanish_is_one_series_by_its_codes(cast: Cast):
    from homework.models import Exercise

    english = phq9()
    spanish = Exercise.objects.get(owner=None, language="es", translation_of__title="PHQ-9")
    spanish.translation_of = english  # the library's Spanish, given for this test's PHQ-9
    spanish.save(update_fields=["translation_of"])
    send(english, cast, PHQ9_POINTS, submitted_at=timezone.now() - dt.timedelta(days=20))
    send(spanish, cast, [0] * 9, submitted_at=timezone.now() - dt.timedelta(days=2))
    own = pcl5_shaped()
    own_spanish = pcl5_shaped("PCL-5 (es)")
    own_spanish.language, own_spanish.translation_of = "es", own
    own_spanish.save(update_fields=["language", "translation_of"])
    send(own, cast, PCL5_POINTS)
    send(own_spanish, cast, PCL5_POINTS)

    resources = parsed(login(cast.tara).get(url(cast)))

    # Each version's questions in the words it asked them in.
    titles = {q["title"] for q in of_type(resources, "Questionnaire")}
    assert titles == {"PHQ-9", spanish.title, "PCL-5", "PCL-5 (es)"}
    totals = [
        o["valueInteger"]
        for o in of_type(resources, "Observation")
        if o["code"]["coding"][0]["code"] == "44261-6"
    ]
    assert totals == [11, 0]
    clusters = {
        o["code"]["coding"][0]["code"]
        for o in of_type(resources, "Observation")
        if o["code"]["coding"][0]["system"].endswith("/CodeSystem/scores")
    }
    assert clusters == {f"{own.pk}-{part}" for part in "bcde"}
