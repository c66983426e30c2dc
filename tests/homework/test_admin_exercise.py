"""Making a library exercise in the admin: the kind validates its options, the admin shows why."""

import json
from typing import Any

import pytest
from django.urls import reverse

from homework.kinds import ExerciseKind, ResponseInvalid, all_kinds, get_kind, registry
from homework.kinds.fields import KindForm
from homework.kinds.worksheet.options import QUESTION_TYPES
from homework.models import Exercise
from tests.conftest import login

ADD = "admin:homework_exercise_add"


class QuestionsForm(KindForm):
    pass


class FakeWorksheet(ExerciseKind):
    """Stands in for the worksheet kind: its rules are the kind's own, not the admin's."""

    slug = "fake_worksheet"
    label = "Fake worksheet"
    form_class = QuestionsForm
    options_example = {"questions": [{"id": "q1", "type": "short_text", "label": "Your words"}]}

    @property
    def form_template(self) -> str:
        return "homework/kinds/worksheet/form.html"  # the editor's preview draws it as a worksheet

    def clean_options(self, options: Any, *, saved: Any = None) -> dict[str, Any]:
        questions = options.get("questions") if isinstance(options, dict) else None
        if not questions:
            raise ResponseInvalid({"options": ["Add at least one question."]})
        ids = [question.get("id") for question in questions]
        if len(set(ids)) != len(ids):
            raise ResponseInvalid({"questions.1.id": ["“q1” is used twice."]})
        return dict(options)


@pytest.fixture
def worksheet_kind(monkeypatch):
    kinds = {**registry._kinds(), FakeWorksheet.slug: FakeWorksheet()}
    monkeypatch.setattr(registry, "_kinds", lambda: kinds)


def exercise_form(**overrides):
    return {
        "kind": "fake_worksheet",
        "title": "Check-in",
        "instructions": "A few questions about your week.",
        "therapist_note": "",
        "options": '{"questions": [{"id": "q1", "type": "short_text", "label": "How was it?"}]}',
        "is_active": "on",
        **overrides,
    }


def test_a_worksheet_with_questions_is_saved_as_the_therapists_own(cast, worksheet_kind):
    response = login(cast.tara).post(reverse(ADD), exercise_form())
    assert response.status_code == 302
    exercise = Exercise.objects.get(title="Check-in")
    assert exercise.owner == cast.tara
    assert exercise.options["questions"][0]["label"] == "How was it?"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ('{"questions": []}', "Add at least one question."),
        (
            '{"questions": [{"id": "q1"}, {"id": "q1"}]}',
            "questions.1.id: “q1” is used twice.",
        ),
        ('{"questions": [{"id": "q1",}]}', "This is not valid JSON (line 1, column"),
        pytest.param(
            "[" * 100_000 + "]" * 100_000, "These options are nested too deeply.", id="nested"
        ),
    ],
)
def test_what_the_kind_refuses_is_shown_on_the_options_and_nothing_saved(
    cast, worksheet_kind, options, message
):
    response = login(cast.tara).post(reverse(ADD), exercise_form(options=options))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors["options"]
    assert any(message in error for error in errors), errors
    assert not Exercise.objects.filter(title="Check-in").exists()


def test_a_kind_that_takes_no_options_says_so(cast):
    response = login(cast.tara).post(
        reverse(ADD), exercise_form(kind="written_record", options='{"questions": []}')
    )
    assert response.context["adminform"].form.errors["options"] == [
        "This kind of exercise takes no options."
    ]


def test_the_form_shows_each_kinds_example_and_options_read_easily(cast, worksheet_kind):
    http = login(cast.tara)
    page = http.get(reverse(ADD))
    assert "Example for “Fake worksheet”" in page.text
    http.post(reverse(ADD), exercise_form())
    exercise = Exercise.objects.get(title="Check-in")
    edit = http.get(reverse("admin:homework_exercise_change", args=[exercise.pk]))
    assert "{\n  &quot;questions&quot;: [" in edit.text  # indented, one key a line


def test_another_therapists_exercise_cannot_be_changed(cast):
    theirs = Exercise.objects.create(
        kind="written_record", title="Theo's", instructions="x", owner=cast.theo
    )
    response = login(cast.tara).post(
        reverse("admin:homework_exercise_change", args=[theirs.pk]),
        exercise_form(kind="written_record", options="{}", title="Taken over"),
    )
    assert response.status_code == 302
    assert Exercise.objects.get(pk=theirs.pk).title == "Theo's"


def test_a_new_exercise_starts_from_empty_options_and_names_the_kinds_with_an_editor(cast):
    page = login(cast.tara).get(reverse(ADD))
    form = page.context["adminform"].form
    assert form["options"].value() == "{}"  # what the help text asks for, not "null"
    editors = json.loads(form.fields["options"].widget.attrs["data-options-editors"])
    # Only kinds that offer an editor, each naming it and bringing its words.
    assert editors == {
        kind.slug: kind.options_editor() for kind in all_kinds() if kind.options_editor()
    }
    assert editors["worksheet"]["editor"] == "questions"
    assert "js/admin-questions.js" in page.text


def test_the_question_editor_has_words_for_every_question_type():
    words = get_kind("worksheet").options_editor()["words"]  # type: ignore[index]
    assert set(words["types"]) == set(QUESTION_TYPES)


def test_a_library_exercise_read_only_lists_its_questions_in_words_not_json(cast):
    """A therapist reads the practice's shared exercises without changing
    them: the questions as the client is asked them, not the JSON they are
    kept in, nor the hints for editing it."""
    check_in = Exercise.objects.get(title="Weekly check-in: pull and clarity", owner=None)
    page = login(cast.tara).get(reverse("admin:homework_exercise_change", args=[check_in.pk]))
    assert page.status_code == 200
    assert "How clear do you feel about what you want?" in page.text
    assert "&quot;questions&quot;" not in page.text and "leave it as" not in page.text


def test_the_library_list_says_whose_each_exercise_is(cast):
    mine = Exercise.objects.create(
        kind="written_record", title="Mine", instructions="x", owner=cast.tara
    )
    page = login(cast.tara).get(reverse("admin:homework_exercise_changelist") + "?q=Mine")
    assert str(cast.tara) in page.text
    page = login(cast.tara).get(
        reverse("admin:homework_exercise_changelist") + "?q=Weekly+check-in"
    )
    assert "The practice" in page.text
    assert mine.pk


def test_pages_long_instructions_are_refused_beside_the_box(cast):
    response = login(cast.tara).post(
        reverse(ADD),
        exercise_form(kind="written_record", options="{}", instructions="x" * 200_000),
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["instructions"] == [
        "This can be up to 5,000 characters; it has 200,000. Please shorten it."
    ]
    assert not Exercise.objects.filter(title="Check-in").exists()


def reading_form(**overrides):
    return exercise_form(
        **{
            "kind": "reading",
            "title": "Urges peak and ease",
            "options": "this box is not shown for a reading",
            "reading_text": "## An urge is a wave\n\nIt rises, and it passes.",
            "reading_prompt_1": "When did an urge ease this week?",
            "reading_prompt_2": "",
            "reading_prompt_3": "What helped it pass?",
            **overrides,
        }
    )


def test_a_reading_is_written_in_its_own_text_box_and_prompt_fields(cast):
    http = login(cast.tara)
    assert http.post(reverse(ADD), reading_form()).status_code == 302
    exercise = Exercise.objects.get(title="Urges peak and ease")
    assert exercise.options == {
        "text": "## An urge is a wave\n\nIt rises, and it passes.",
        "prompts": ["When did an urge ease this week?", "What helped it pass?"],
    }
    edit = http.get(reverse("admin:homework_exercise_change", args=[exercise.pk]))
    form = edit.context["adminform"].form
    assert form["reading_text"].value() == exercise.options["text"]
    assert form["reading_prompt_2"].value() == "What helped it pass?"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("reading_text", "x" * 6001, "This can be up to 6,000 characters; it has 6,001."),
        ("reading_text", "  ", "Write the reading the client will read."),
        ("reading_prompt_3", "?" * 301, "This can be up to 300 characters; it has 301."),
    ],
    ids=["text too long", "no text", "prompt too long"],
)
def test_what_a_reading_refuses_is_said_on_its_field_and_nothing_saved(cast, field, value, message):
    response = login(cast.tara).post(reverse(ADD), reading_form(**{field: value}))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors[field]
    assert any(message in error for error in errors), errors
    assert not Exercise.objects.filter(title="Urges peak and ease").exists()


def shared_reading():
    return Exercise.objects.create(
        kind="reading",
        title="One small boundary",
        instructions="Read this when you have a quiet moment.",
        options={"text": "A boundary can be *small*.", "prompts": ["What is one you could try?"]},
        owner=None,
    )


def test_a_shared_reading_reads_as_words_and_copies_into_the_therapists_own(cast):
    shared = shared_reading()
    http = login(cast.tara)
    page = http.get(reverse("admin:homework_exercise_change", args=[shared.pk]))
    assert "A boundary can be *small*." in page.text and "Make a copy to edit" in page.text
    copied = http.post(reverse("admin:homework_exercise_copy", args=[shared.pk]))
    mine = Exercise.objects.get(owner=cast.tara, title="One small boundary (copy)")
    assert copied["Location"] == reverse("admin:homework_exercise_change", args=[mine.pk])
    assert (mine.kind, mine.options, mine.instructions) == (
        shared.kind,
        shared.options,
        shared.instructions,
    )
    assert Exercise.objects.get(pk=shared.pk).owner is None


def test_copying_needs_a_post_and_an_exercise_you_can_see(cast):
    theirs = Exercise.objects.create(
        kind="written_record", title="Theo's own", instructions="x", owner=cast.theo
    )
    http = login(cast.tara)
    assert http.get(reverse("admin:homework_exercise_copy", args=[theirs.pk])).status_code == 405
    http.post(reverse("admin:homework_exercise_copy", args=[theirs.pk]))
    assert not Exercise.objects.filter(title__startswith="Theo's own (copy)").exists()
