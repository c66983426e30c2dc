"""Field errors are read once, and in the product's own voice."""

import re
import uuid

import pytest
from django import forms
from django.urls import reverse

from homework.kinds import all_kinds
from homework.kinds.fields import KindForm, long_text, short_text
from tests.conftest import login
from tests.factories import (
    RESPONSES,
    AssignmentFactory,
    ExerciseFactory,
    options_for,
    posted_form,
)


def described_by(page_text: str, name: str) -> list[str]:
    tag = re.search(rf'<(?:input|textarea|select)[^>]*name="{name}"[^>]*>', page_text)
    assert tag, f"no input named {name}"
    found = re.search(r'aria-describedby="([^"]*)"', tag[0])
    return found[1].split() if found else []


def test_an_errored_field_names_its_error_once(cast):
    exercise = ExerciseFactory.create(kind="written_record")
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    response = RESPONSES["written_record"](what_happened="", occurred_at="2999-01-01T10:00")
    page = login(cast.alice.portal_user).post(
        reverse("homework:do", args=[assignment.pk]),
        {"key": str(uuid.uuid4()), "version": "0", **posted_form(response)},
    )
    assert page.status_code == 400
    assert described_by(page.text, "r-what_happened") == ["id_r-what_happened_error"]
    # With help text too: the error first (it matters most), each once.
    assert described_by(page.text, "r-occurred_at") == [
        "id_r-occurred_at_error",
        "id_r-occurred_at_helptext",
    ]


def test_the_welcome_forms_errors_are_named_once():
    from clients.forms import SetPasswordForm

    form = SetPasswordForm(data={"password1": "a", "password2": "b"})
    assert not form.is_valid()
    for name in form.errors:
        if name in form.fields:
            attrs = form[name].build_widget_attrs({})
            ids = str(attrs["aria-describedby"]).split()
            assert len(ids) == len(set(ids)), (name, ids)


class _Questions(KindForm):
    word = short_text("One word", required=True)
    story = long_text("The story", required=True)
    picked = forms.ChoiceField(choices=[("a", "A")], widget=forms.RadioSelect)


def test_a_kind_form_asks_for_a_missing_answer_warmly():
    form = _Questions(data={})
    assert not form.is_valid()
    assert form.errors["word"] == ["Write a few words here first."]
    assert form.errors["story"] == ["Write a few words here first."]
    assert form.errors["picked"] == ["Choose one of these first."]


@pytest.mark.parametrize("kind", all_kinds(), ids=lambda kind: kind.slug)
def test_no_kind_says_this_field_is_required(kind):
    exercise = ExerciseFactory.build(kind=kind.slug, options=options_for(kind.slug))
    form = kind.form(exercise=exercise, data={"r-steps-0-status": "tried"})
    form.is_valid()
    messages = [m for ms in form.response_errors().values() for m in ms]
    assert "This field is required." not in messages


def test_the_private_flag_is_described_by_its_help_text(cast):
    """A screen reader hears what "Keep this private" means: the checkbox
    points at the help paragraph beside it, on the writing and the edit page."""
    for url in (
        reverse("homework:do", args=[cast.alice_assignment.pk]),
        reverse("homework:entry_edit", args=[cast.alice_entry.key]),
    ):
        page = login(cast.alice.portal_user).get(url)
        assert page.status_code == 200
        for ref in described_by(page.text, "private"):
            assert f'id="{ref}"' in page.text, (url, ref)
        assert described_by(page.text, "private")


def error_summary(page_text: str) -> list[str]:
    """The error summary's lines, as read (tags and isolates left out)."""
    found = re.search(r'<ul class="error-summary__list">(.*?)</ul>', page_text, re.S)
    assert found, "no error summary"
    items = re.findall(r"<li>(.*?)</li>", found[1], re.S)
    return [re.sub(r"<[^>]+>|[\u2066-\u2069]", "", item) for item in items]


def test_the_error_summary_reads_as_a_sentence_without_the_scales_legend(cast):
    """A question ends on its own question mark ("What set it off? Choose…",
    not "…off?: Choose…"), and a scale is named by its question: the words
    at its two ends are on the field itself, not repeated in the summary."""
    exercise = ExerciseFactory.create(kind="urge_log")
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    response = RESPONSES["urge_log"](intensity=None, trigger=None)
    page = login(cast.alice.portal_user).post(
        reverse("homework:do", args=[assignment.pk]),
        {"key": str(uuid.uuid4()), "version": "0", **posted_form(response)},
    )
    assert page.status_code == 400
    assert error_summary(page.text) == [
        "How strong was the pull? Choose a number from 0 to 10 — any number is fine.",
        "What set it off? Choose one of these first.",
    ]
    # The field itself still says what 0 and 10 mean.
    assert "How strong was the pull? (0 = barely there, 10 = overwhelming)" in page.text


def test_a_row_fields_summary_line_keeps_its_colon_after_a_label_without_one(cast):
    exercise = ExerciseFactory.create(kind="boundary_steps")
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    response = RESPONSES["boundary_steps"]()
    response["steps"][0]["boundary"] = ""
    page = login(cast.alice.portal_user).post(
        reverse("homework:do", args=[assignment.pk]),
        {"key": str(uuid.uuid4()), "version": "0", **posted_form(response)},
    )
    assert error_summary(page.text) == [
        "Step 1: The boundary, in your own words: Write a few words here first."
    ]
