"""A worksheet changed after the client answered it: every place their
answers appear still names the question they answered, as they read it."""

import uuid

from django.urls import reverse

from homework import export, services
from homework.kinds import get_kind
from homework.models import Entry
from tests.conftest import login
from tests.factories import AssignmentFactory, ExerciseFactory
from tests.helpers_worksheets import SAFE_QUESTION as SAFE
from tests.helpers_worksheets import answered, edit_questions, pages


def test_a_removed_question_keeps_its_wording_beside_the_answer(cast):
    exercise, entry, http = answered(cast)
    current = exercise.options["questions"]
    edit_questions(cast, exercise, [current[0], current[2]])  # "safe" no longer asked

    for name, page in pages(cast, entry, http).items():
        assert "Did you feel safe at home this week?" in page, name
        assert "An earlier question" not in page, name
    download = export.export_json(user=cast.alice.portal_user)
    (item,) = [e for e in download["entries"] if e["exercise"] == "Weekly check-in"]
    texts = {q["key"]: q["text"] for q in item["questions"]}
    assert texts[current[1]["key"]] == "Did you feel safe at home this week?"
    assert item["response"][current[1]["key"]] == "no"


def test_a_question_given_another_type_is_a_new_question(cast):
    """The old answer is not read as the new type ("twice, late at night / 10")."""
    exercise, entry, http = answered(cast)
    current = exercise.options["questions"]
    retyped = {**current[2], "type": "scale_0_10", "text": "How strong was the pull to reach out?"}
    edit_questions(cast, exercise, [current[0], current[1], retyped])

    new_key = exercise.options["questions"][2]["key"]
    assert new_key != current[2]["key"]
    for name, page in pages(cast, entry, http).items():
        assert "twice, late at night / 10" not in page, name
        assert "How often did you reach out to them?" in page, name
        assert "twice, late at night" in page, name


def test_a_question_removed_and_put_back_is_asked_again_under_its_key(cast):
    exercise, _entry, _http = answered(cast)
    current = exercise.options["questions"]
    edit_questions(cast, exercise, [current[0], current[2]])
    edit_questions(cast, exercise, [current[0], current[2], {k: current[1][k] for k in SAFE}])

    assert [q["key"] for q in exercise.options["questions"]] == [q["key"] for q in current[::2]] + [
        current[1]["key"]
    ]
    assert current[1]["key"] not in exercise.options.get("earlier", {})


CHOICES = [
    {"type": "single_choice", "text": "What helped most?", "choices": ["A friend", "Time outside"]},
    {"type": "multiple_choice", "text": "Who knows the real story?", "choices": ["Sister", "GP"]},
    {"type": "short_text", "text": "Anything else?"},
]


def test_answers_to_choices_renamed_since_survive_the_clients_edit(cast):
    """The edit form cannot tick a choice that is no longer offered: sending
    it (to change another answer) left that question unanswered."""
    exercise = ExerciseFactory.create(kind="worksheet", title="Weekly check-in", owner=cast.tara)
    exercise.options = {"questions": CHOICES}
    services.exercise_save(actor=cast.tara, exercise=exercise)
    helped, knows, other = [q["key"] for q in exercise.options["questions"]]
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    http = login(cast.alice.portal_user)
    http.post(
        reverse("homework:do", args=[assignment.pk]),
        {
            "key": str(uuid.uuid4()),
            "version": "0",
            f"r-{helped}": "A friend",
            f"r-{knows}": ["Sister", "GP"],
            f"r-{other}": "a quiet week",
        },
    )
    entry = Entry.objects.get(assignment=assignment)
    exercise.options["questions"][0]["choices"] = ["A friend or family", "Time outside"]
    exercise.options["questions"][1]["choices"] = ["Sister", "My doctor"]
    services.exercise_save(actor=cast.tara, exercise=exercise)

    # What the edit page shows ticked, sent back with one answer changed.
    sent = http.post(
        reverse("homework:entry_edit", args=[entry.key]),
        {
            "key": str(entry.key),
            "version": str(entry.version),
            f"r-{knows}": ["Sister"],
            f"r-{other}": "a quiet week, mostly",
        },
    )

    assert sent.status_code == 302
    entry.refresh_from_db()
    assert entry.response == {
        helped: "A friend",
        knows: ["Sister", "GP"],
        other: "a quiet week, mostly",
    }


def test_a_choice_the_client_makes_again_replaces_the_one_no_longer_offered(cast):
    exercise = ExerciseFactory.create(kind="worksheet", owner=cast.tara)
    exercise.options = {"questions": CHOICES}
    services.exercise_save(actor=cast.tara, exercise=exercise)
    helped = exercise.options["questions"][0]["key"]
    exercise.options["questions"][0]["choices"] = ["A friend or family", "Time outside"]
    kind = get_kind("worksheet")

    merged = kind.merge_edit({helped: "A friend"}, {helped: "Time outside"}, exercise=exercise)

    assert merged == {helped: "Time outside"}
