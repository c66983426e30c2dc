"""A client's measures as one FHIR Bundle of type "collection": a set of resources handed over
together, which refer to each other by their ``fullUrl`` (a "searchset" is the answer to a FHIR
search, which this is not).

Each resource is written as data in the shape of fhir.resources' R4B models (wire-compatible
with R4 for these resources), and the whole Bundle is then read by those models before it
leaves: a document an EHR would refuse is an error here, never a file sent out."""

import datetime as dt
import uuid

from fhir.resources.R4B.bundle import Bundle

from clients.models import Client
from homework.fhir import resources
from homework.kinds import get_kind
from homework.kinds.values import JSONDict
from homework.kinds.worksheet.measures import score_rule, subscale_scores, subscales_of
from homework.models import Entry, Exercise
from homework.selectors.measure_entries import MeasureEntries


def _entry(full_url: str, resource: JSONDict) -> JSONDict:
    return {"fullUrl": full_url, "resource": resource}


def _scores(exercise: Exercise, entry: Entry, response: JSONDict) -> list[tuple[str, str, float]]:
    """(part, label, score): the total the entry keeps, then each subscale the rule names."""
    rule = score_rule(exercise) or {}
    found = []
    if entry.score is not None:
        found.append(("total", str(rule.get("label") or exercise.title), entry.score))
    subscores = subscale_scores(exercise, response)
    for subscale in subscales_of(exercise):
        if subscale["key"] in subscores:
            label = str(subscale.get("label") or subscale["key"])
            found.append((subscale["key"], label, subscores[subscale["key"]]))
    return found


def _entry_resources(client: Client, exercise: Exercise, entry: Entry) -> list[JSONDict]:
    assert entry.submitted_at is not None  # only sent entries are read for staff
    response = get_kind(exercise.kind).response_of(entry)
    response_urn = f"urn:uuid:{entry.key}"
    found = [
        _entry(
            response_urn,
            resources.questionnaire_response(
                exercise=exercise,
                key=entry.key,
                client_id=client.pk,
                response=response,
                authored=entry.submitted_at,
            ),
        )
    ]
    for part, label, score in _scores(exercise, entry, response):
        found.append(
            _entry(
                f"urn:uuid:{uuid.uuid5(entry.key, part)}",
                resources.observation(
                    exercise=exercise,
                    part=part,
                    label=label,
                    score=score,
                    client_id=client.pk,
                    response_urn=response_urn,
                    effective=entry.submitted_at,
                ),
            )
        )
    return found


def measures_bundle(*, client: Client, measures: MeasureEntries, now: dt.datetime) -> JSONDict:
    """The Patient, a Questionnaire for each measure the client answered, and each sent entry's
    response and scores, oldest first. Nothing answered: a Bundle with no entries, still valid."""
    by_id = {exercise.pk: exercise for exercise in measures.exercises}
    answered = list({entry.assignment.exercise_id: None for entry in measures.entries})
    found = [
        _entry(resources.urn(f"Questionnaire/{pk}"), resources.questionnaire(by_id[pk]))
        for pk in answered
    ]
    for entry in measures.entries:
        found += _entry_resources(client, by_id[entry.assignment.exercise_id], entry)
    bundle: JSONDict = {
        "resourceType": "Bundle",
        "type": "collection",
        "timestamp": now.isoformat(),
    }
    if found:  # FHIR's JSON has no empty lists
        patient = _entry(resources.patient_urn(client.pk), resources.patient(client.pk))
        bundle["entry"] = [patient, *found]
    Bundle.model_validate(bundle)
    return bundle
