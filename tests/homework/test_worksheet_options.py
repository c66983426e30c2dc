"""A worksheet's questions, as a therapist saves them on the exercise."""

import json

import pytest
from django.urls import reverse

from homework.kinds import ResponseInvalid, get_kind
from homework.kinds.worksheet.options import KEY
from homework.models import Exercise
from tests.conftest import login, save_change_form
from tests.factories import ALL_QUESTION_TYPES, ExerciseFactory

WORKSHEET = get_kind("worksheet")


def problems(options: object) -> list[str]:
    with pytest.raises(ResponseInvalid) as caught:
        WORKSHEET.clean_options(options)
    assert set(caught.value.errors) == {"options"}
    return caught.value.errors["options"]


def test_every_question_type_is_accepted_and_keys_are_kept():
    cleaned = WORKSHEET.clean_options(ALL_QUESTION_TYPES)
    assert [q["key"] for q in cleaned["questions"]] == [
        q["key"] for q in ALL_QUESTION_TYPES["questions"]
    ]
    assert cleaned["score"] == {"method": "mean", "better": "higher", "label": "Steadiness"}
    assert WORKSHEET.clean_options(cleaned) == cleaned  # saving again changes nothing


def test_questions_without_keys_get_stable_ones_that_avoid_taken_keys():
    cleaned = WORKSHEET.clean_options(
        {
            "questions": [
                {"type": "short_text", "text": "a"},
                {"key": "q1", "type": "long_text", "text": "b"},
            ]
        }
    )
    made, kept = (q["key"] for q in cleaned["questions"])
    assert kept == "q1" and made != "q1" and KEY.match(made)
    assert WORKSHEET.clean_options(cleaned) == cleaned  # given once, then kept


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, "needs its questions"),
        ([], "needs its questions"),
        ("questions", "needs its questions"),
        ({"questions": []}, "at least one question"),
        ({"questions": [{"type": "short_text", "text": "x"}] * 41}, "up to 40 questions"),
        (
            {"questions": [{"type": "slider", "text": "x"}]},
            "Question 1: “slider” is not a question type",
        ),
        (
            {"questions": [{"type": ["short_text"], "text": "x"}]},
            "Question 1: “['short_text']” is not a question type",
        ),
        (
            {"questions": [{"type": {"name": "yes_no"}, "text": "x"}]},
            "Question 1: “{'name': 'yes_no'}” is not a question type",
        ),
        ({"questions": [{"type": "short_text"}]}, "Question 1: the question needs its text"),
        ({"questions": [{"type": "short_text", "text": "x" * 301}]}, "under 300 characters"),
        ({"questions": ["How are you?"]}, "Question 1: write it as an object"),
        (
            {"questions": [{"type": "short_text", "text": "x", "colour": "red"}]},
            "“colour” is not something a question can have",
        ),
        (
            {"questions": [{"type": "single_choice", "text": "x", "choices": ["only one"]}]},
            "between 2 and 20 choices",
        ),
        (
            {"questions": [{"type": "single_choice", "text": "x", "choices": ["a", "a"]}]},
            "each choice should appear once",
        ),
        (
            {"questions": [{"type": "short_text", "text": "x", "choices": ["a", "b"]}]},
            "only choice questions have choices",
        ),
        (
            {"questions": [{"type": "long_text", "text": "x", "scored": True}]},
            "only 0–10 scale and single choice questions can be scored",
        ),
        (
            {"questions": [{"type": "scale_0_10", "text": "x", "reverse": True}]},
            "“reverse” applies only to a scored question",
        ),
        (
            {"questions": [{"type": "short_text", "text": "x", "required": "yes"}]},
            "“required” should be true or false",
        ),
        (
            {"questions": [{"key": "Bad Key", "type": "short_text", "text": "x"}]},
            "a key is lower-case letters",
        ),
        (
            {
                "questions": [
                    {"key": "a", "type": "short_text", "text": "x"},
                    {"key": "a", "type": "short_text", "text": "y"},
                ]
            },
            "share the key “a”",
        ),
        ({"questions": [{"type": "scale_0_10", "text": "x", "scored": True}]}, "add a “score”"),
        (
            {
                "questions": [{"type": "scale_0_10", "text": "x"}],
                "score": {"method": "sum", "better": "higher"},
            },
            "at least one question marked",
        ),
        (
            {
                "questions": [{"type": "scale_0_10", "text": "x", "scored": True}],
                "score": {"method": "median", "better": "higher"},
            },
            "“sum” or “mean”",
        ),
        (
            {
                "questions": [{"type": "scale_0_10", "text": "x", "scored": True}],
                "score": {"method": ["sum"], "better": {"way": "up"}},
            },
            "“sum” or “mean”",
        ),
        (
            {
                "questions": [{"type": "scale_0_10", "text": "x", "scored": True}],
                "score": {"method": "sum", "better": ["higher"]},
            },
            "“higher” or “lower”",
        ),
        (
            {
                "questions": [{"type": "scale_0_10", "text": "x", "scored": True}],
                "score": {"method": "sum", "better": "up"},
            },
            "“higher” or “lower”",
        ),
        (
            {"questions": [{"type": "short_text", "text": "x"}], "theme": "dark"},
            "“theme” is not a worksheet option",
        ),
    ],
)
def test_bad_options_are_explained_question_by_question(options, expected):
    assert any(expected in message for message in problems(options)), problems(options)


def test_other_kinds_take_no_options():
    with pytest.raises(ResponseInvalid):
        get_kind("urge_log").clean_options({"questions": []})


def exercise_form(**overrides):
    return {
        "kind": "worksheet",
        "title": "Check-in",
        "instructions": "Two minutes, once a week.",
        "therapist_note": "",
        "options": json.dumps(ALL_QUESTION_TYPES),
        "is_active": "on",
        **overrides,
    }


def test_therapist_saves_a_worksheet_with_questions_in_the_admin(cast):
    response = login(cast.tara).post(reverse("admin:homework_exercise_add"), exercise_form())
    assert response.status_code == 302
    saved = Exercise.objects.get(title="Check-in")
    assert saved.owner == cast.tara
    assert [q["key"] for q in saved.options["questions"]][:2] == ["pull", "clarity"]


def test_a_question_type_that_does_not_exist_is_named_in_the_admin_and_nothing_is_saved(cast):
    options = json.dumps({"questions": [{"type": "slider", "text": "How was it?"}]})
    response = login(cast.tara).post(
        reverse("admin:homework_exercise_add"), exercise_form(options=options)
    )
    assert response.status_code == 200
    assert "Question 1: “slider” is not a question type" in response.text
    assert not Exercise.objects.filter(title="Check-in").exists()


def test_an_assigned_exercise_keeps_its_kind(cast):
    exercise = cast.alice_assignment.exercise
    form = {
        "kind": "worksheet",
        "title": exercise.title,
        "instructions": exercise.instructions,
        "therapist_note": "",
        "options": json.dumps(ALL_QUESTION_TYPES),
        "is_active": "on",
    }
    response = save_change_form(
        login(cast.morgan), reverse("admin:homework_exercise_change", args=[exercise.pk]), form
    )
    assert response.status_code == 200
    assert "This exercise has been assigned, so its kind stays as it is." in response.text
    exercise.refresh_from_db()
    assert exercise.kind == "written_record"


def test_the_admins_options_example_for_each_kind_is_valid():
    from homework.kinds import all_kinds

    for kind in all_kinds():
        if kind.options_example is not None:
            assert kind.clean_options(kind.options_example)["questions"]


def test_two_questions_worded_alike_are_refused_naming_both():
    alike = {
        "questions": [
            {"type": "short_text", "text": "How did today go?"},
            {"type": "yes_no", "text": "Did you sleep?"},
            {"type": "long_text", "text": "  how did  today go? "},
        ]
    }
    assert problems(alike) == [
        "Questions 1 and 3 both read “How did today go?”: word them differently, "
        "so that you and the client can tell their answers apart."
    ]


def test_an_arabic_question_named_in_the_refusal_keeps_its_place_in_the_sentence():
    """Quoted inside our sentence, an Arabic question ending on a number
    would pull it across the closing quote (practice.bidi)."""
    alike = {
        "questions": [
            {"type": "short_text", "text": "كيف كان اليوم 2"},
            {"type": "short_text", "text": "كيف كان اليوم 2"},
        ]
    }
    assert problems(alike)[0].startswith(
        "Questions 1 and 2 both read “\u2068كيف كان اليوم 2\u2069”:"
    )


def test_the_admin_names_two_questions_worded_alike_and_saves_nothing(cast):
    options = json.dumps(
        {
            "questions": [
                {"type": "scale_0_10", "text": "Steadiness"},
                {"type": "scale_0_10", "text": "Steadiness"},
            ]
        }
    )
    response = login(cast.tara).post(
        reverse("admin:homework_exercise_add"), exercise_form(options=options)
    )
    assert response.status_code == 200
    assert "Questions 1 and 2 both read “Steadiness”" in response.text
    assert not Exercise.objects.filter(title="Check-in").exists()


OLD_ALIKE = {
    "questions": [
        {"key": "morning", "type": "short_text", "text": "How did today go?", "required": False},
        {"key": "evening", "type": "short_text", "text": "How did today go?", "required": False},
    ]
}


def old_exercise_worded_alike(cast):
    """Saved before wording alike was refused (the factory skips clean_options)."""
    return ExerciseFactory.create(
        kind="worksheet", title="Daily check-in", owner=cast.tara, options=OLD_ALIKE
    )


def test_questions_saved_alike_before_may_stay_alike_but_none_newly_so():
    assert WORKSHEET.clean_options(OLD_ALIKE, saved=OLD_ALIKE) == OLD_ALIKE
    added = {
        "questions": [
            *OLD_ALIKE["questions"],
            {"type": "long_text", "text": "how did today  go?"},
        ]
    }
    with pytest.raises(ResponseInvalid) as caught:
        WORKSHEET.clean_options(added, saved=OLD_ALIKE)
    assert caught.value.errors["options"] == [
        "Questions 1 and 3 both read “How did today go?”: word them differently, "
        "so that you and the client can tell their answers apart."
    ]


def test_an_old_exercise_worded_alike_can_be_renamed_and_retired_in_the_admin(cast):
    exercise = old_exercise_worded_alike(cast)
    form = exercise_form(title="Evening check-in", options=json.dumps(OLD_ALIKE))
    del form["is_active"]  # retired
    response = save_change_form(
        login(cast.tara), reverse("admin:homework_exercise_change", args=[exercise.pk]), form
    )
    assert response.status_code == 302, response.text
    exercise.refresh_from_db()
    assert (exercise.title, exercise.is_active) == ("Evening check-in", False)
    assert exercise.options == OLD_ALIKE


def test_a_new_question_worded_like_another_is_refused_on_an_old_exercise(cast):
    exercise = old_exercise_worded_alike(cast)
    reworded = json.loads(json.dumps(OLD_ALIKE))
    reworded["questions"].append({"type": "short_text", "text": "Did you sleep?"})
    reworded["questions"].append({"type": "yes_no", "text": "Did you  sleep?"})
    response = save_change_form(
        login(cast.tara),
        reverse("admin:homework_exercise_change", args=[exercise.pk]),
        exercise_form(title="Renamed", options=json.dumps(reworded)),
    )
    assert response.status_code == 200
    assert "Questions 3 and 4 both read “Did you sleep?”" in response.text
    assert "Questions 1 and 2" not in response.text
    exercise.refresh_from_db()
    assert (exercise.title, exercise.options) == ("Daily check-in", OLD_ALIKE)


def test_a_question_added_after_one_was_removed_does_not_take_its_key():
    """The answers already sent to a removed question must not turn up as
    answers to the next question added (or to one moved into its place)."""
    first = WORKSHEET.clean_options(
        {
            "questions": [
                {"type": "short_text", "text": "How did today go?"},
                {"type": "yes_no", "text": "Did you sleep?"},
            ]
        }
    )
    removed = first["questions"][1]["key"]
    later = WORKSHEET.clean_options(
        {
            "questions": [
                first["questions"][0],
                {"type": "yes_no", "text": "Did you drink?"},
            ]
        }
    )
    assert later["questions"][0]["key"] == first["questions"][0]["key"]
    assert later["questions"][1]["key"] not in {removed, first["questions"][0]["key"]}
    # Pasted again without keys, in another order: each question keeps its own.
    again = WORKSHEET.clean_options(
        {
            "questions": [
                {"type": "yes_no", "text": "Did you sleep?"},
                {"type": "short_text", "text": "How did today go?"},
            ]
        }
    )
    assert [q["key"] for q in again["questions"]] == [
        first["questions"][1]["key"],
        first["questions"][0]["key"],
    ]
