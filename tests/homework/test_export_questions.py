"""The client's JSON download says what every answer was to, for every kind
alike: a file of bare keys ("q_1a2b…") and values ("held") means nothing
read without this app."""

import json

from django.urls import reverse

from homework import export
from tests import factories
from tests.conftest import login
from tests.factories import AssignmentFactory, EntryFactory, ExerciseFactory

WORKSHEET_OPTIONS = {
    "questions": [
        {"key": "q_1a2b3c4d5e", "type": "short_text", "text": "One word for the week"},
        {"key": "q_9f8e7d6c5b", "type": "yes_no", "text": "Did you feel safe?"},
    ]
}


def exported(cast, kind, options, response):
    exercise = ExerciseFactory.create(kind=kind, title=f"My {kind}", options=options)
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    EntryFactory.create(assignment=assignment, response=response)
    data = export.export_json(user=cast.alice.portal_user)
    return next(item for item in data["entries"] if item["exercise"] == exercise.title)


def test_a_worksheet_answer_names_its_question(cast):
    item = exported(
        cast, "worksheet", WORKSHEET_OPTIONS, {"q_1a2b3c4d5e": "steadier", "q_9f8e7d6c5b": "yes"}
    )
    # The stored shape is unchanged; what it answers sits beside it.
    assert item["response"] == {"q_1a2b3c4d5e": "steadier", "q_9f8e7d6c5b": "yes"}
    assert item["questions"] == [
        {"key": "q_1a2b3c4d5e", "text": "One word for the week"},
        {
            "key": "q_9f8e7d6c5b",
            "text": "Did you feel safe?",
            "choices": {"yes": "Yes", "no": "No"},
        },
    ]


def test_a_choice_in_an_urge_log_carries_its_words(cast):
    item = exported(cast, "urge_log", {}, factories.urge_log(at="2026-01-02T10:00:00+00:00"))
    asked = {question["key"]: question for question in item["questions"]}
    assert item["response"]["trigger"] == "message"
    assert asked["trigger"]["text"] == "What set it off?"
    assert asked["trigger"]["choices"]["message"] == "A message or call from them"
    assert asked["intensity"]["text"].startswith("How strong was the pull?")


def test_rows_describe_their_own_answers(cast):
    item = exported(cast, "boundary_steps", {}, factories.boundary_steps())
    steps = next(question for question in item["questions"] if question["key"] == "steps")
    status = next(field for field in steps["rows"] if field["key"] == "status")
    assert item["response"]["steps"][0]["status"] == "held"
    assert status["choices"]["held"] == "It held"


def test_the_download_reads_as_json_with_its_questions(cast):
    response = login(cast.alice.portal_user).get(reverse("homework:export_json"))
    entry = json.loads(response.content)["entries"][0]
    keys = {question["key"] for question in entry["questions"]}
    assert set(entry["response"]) <= keys
