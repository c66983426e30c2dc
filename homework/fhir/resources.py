"""One FHIR resource at a time, as JSON-ready dicts: a measure's Questionnaire, a sent entry's
QuestionnaireResponse, and an Observation for each of its scores.

Identifiers are the practice's own, under ``SITE_URL``: the client is a Patient with only the
practice's id for them (no name, no date of birth, no contact), so an EHR can match its own
patient without this export saying who the person is. Ids are UUIDs derived from the rows, so
a second export names the same resources the same way and an EHR can tell them apart from new
ones."""

import datetime as dt
import uuid
from typing import Any

from django.conf import settings

from homework.kinds.values import JSONDict
from homework.kinds.worksheet.measures import loinc_of, measure_questions, score_rule

LOINC = "http://loinc.org"
SURVEY = {
    "coding": [
        {
            "system": "http://terminology.hl7.org/CodeSystem/observation-category",
            "code": "survey",
            "display": "Survey",
        }
    ]
}
ORDINAL_VALUE = "http://hl7.org/fhir/StructureDefinition/ordinalValue"
# A worksheet question's type, as a Questionnaire item's.
ITEM_TYPES = {
    "single_choice": "choice",
    "multiple_choice": "choice",
    "scale_0_10": "integer",
    "yes_no": "boolean",
    "short_text": "string",
    "long_text": "text",
    "date": "date",
}


def practice_url(path: str) -> str:
    return f"{settings.SITE_URL}/fhir/{path}"


def urn(name: str) -> str:
    return f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, practice_url(name))}"


def patient_urn(client_id: int) -> str:
    return urn(f"Patient/{client_id}")


def patient(client_id: int) -> JSONDict:
    return {
        "resourceType": "Patient",
        "identifier": [{"system": practice_url("client-id"), "value": str(client_id)}],
    }


def questionnaire_url(exercise_id: int) -> str:
    return practice_url(f"Questionnaire/{exercise_id}")


def _answers_system(exercise_id: int, key: str) -> str:
    return practice_url(f"CodeSystem/{exercise_id}-{key}")


def _answer_options(exercise_id: int, question: JSONDict) -> list[JSONDict]:
    points = question.get("points")
    options = []
    for position, label in enumerate(question.get("choices") or []):
        coding: JSONDict = {
            "system": _answers_system(exercise_id, question["key"]),
            "code": str(position),
            "display": str(label),
        }
        if isinstance(points, list) and position < len(points):
            coding["extension"] = [{"url": ORDINAL_VALUE, "valueDecimal": points[position]}]
        options.append({"valueCoding": coding})
    return options


def _item(exercise_id: int, question: JSONDict) -> JSONDict:
    kind = question["type"]
    item: JSONDict = {
        "linkId": question["key"],
        "text": str(question.get("text", "")),
        "type": ITEM_TYPES[kind],
        "required": bool(question.get("required") or question.get("scored")),
    }
    if kind == "multiple_choice":
        item["repeats"] = True
    if kind in ("single_choice", "multiple_choice"):
        item["answerOption"] = _answer_options(exercise_id, question)
    return item


def questionnaire(exercise: Any) -> JSONDict:
    """The measure as the client is asked it now: each question's key is its linkId."""
    rule = score_rule(exercise) or {}
    resource: JSONDict = {
        "resourceType": "Questionnaire",
        "url": questionnaire_url(exercise.pk),
        "name": f"Exercise{exercise.pk}",
        "title": exercise.title,
        "status": "active",
        "subjectType": ["Patient"],
        "item": [_item(exercise.pk, q) for q in measure_questions(exercise)],
    }
    panel = loinc_of(exercise, "panel")
    if panel:
        resource["code"] = [{"system": LOINC, "code": panel}]
    if rule.get("source"):
        resource["description"] = str(rule["source"])
    if rule.get("terms"):
        resource["copyright"] = str(rule["terms"])
    return resource


def _answer(exercise_id: int, question: JSONDict, value: Any) -> list[JSONDict]:
    """Only what the client gave: a blank, or a choice the question no longer offers, is none."""
    kind = question["type"]
    if value is None or value == "" or value == []:
        return []
    if kind in ("single_choice", "multiple_choice"):
        choices = [str(c) for c in question.get("choices") or []]
        given = value if isinstance(value, list) else [value]
        return [
            {
                "valueCoding": {
                    "system": _answers_system(exercise_id, question["key"]),
                    "code": str(choices.index(str(v))),
                    "display": str(v),
                }
            }
            for v in given
            if str(v) in choices
        ]
    if kind == "scale_0_10":
        return [{"valueInteger": int(value)}] if isinstance(value, int | float) else []
    if kind == "yes_no":
        return [{"valueBoolean": value == "yes"}] if value in ("yes", "no") else []
    if kind == "date":
        return [{"valueDate": str(value)}]
    return [{"valueString": str(value)}]


def questionnaire_response(
    *, exercise: Any, key: uuid.UUID, client_id: int, response: JSONDict, authored: dt.datetime
) -> JSONDict:
    items = []
    for question in measure_questions(exercise):
        answers = _answer(exercise.pk, question, response.get(question["key"]))
        if answers:
            items.append({"linkId": question["key"], "answer": answers})
    return {
        "resourceType": "QuestionnaireResponse",
        "identifier": {"system": practice_url("entry"), "value": str(key)},
        "questionnaire": questionnaire_url(exercise.pk),
        "status": "completed",
        "subject": {"reference": patient_urn(client_id)},
        "authored": authored.isoformat(),
        "item": items,
    }


def _value(score: float) -> JSONDict:
    if float(score).is_integer():
        return {"valueInteger": int(score)}
    unit = {"unit": "{score}", "system": "http://unitsofmeasure.org", "code": "{score}"}
    return {"valueQuantity": {"value": score, **unit}}


def observation(
    *,
    exercise: Any,
    part: str,
    label: str,
    score: float,
    client_id: int,
    response_urn: str,
    effective: dt.datetime,
) -> JSONDict:
    """``part`` is "total" or a subscale's key: coded in LOINC where the measure names a published
    code, else in the practice's own system (the measure's exercise id, its English one's for a
    translation, and the part), which an EHR can map."""
    code = loinc_of(exercise, part)
    # A version in another language is the same measure: its scores carry the same code.
    measure_id = exercise.translation_of_id or exercise.pk
    coding = (
        {"system": LOINC, "code": code}
        if code
        else {"system": practice_url("CodeSystem/scores"), "code": f"{measure_id}-{part}"}
    )
    return {
        "resourceType": "Observation",
        "status": "final",
        "category": [SURVEY],
        "code": {"coding": [coding], "text": label},
        "subject": {"reference": patient_urn(client_id)},
        "effectiveDateTime": effective.isoformat(),
        **_value(score),
        "derivedFrom": [{"reference": response_urn}],
    }
