"""The exercise editor: its preview of what the client will see, and its JSON kept out of sight."""

import json

import pytest
from django.urls import reverse

from homework.models import Exercise
from tests.conftest import login

PREVIEW = "admin:homework_exercise_preview"
SAVED_PREVIEW = "admin:homework_exercise_saved_preview"
QUESTION = {"type": "short_text", "text": "What did you notice in your body?", "required": False}


def worksheet(**overrides: str) -> dict[str, str]:
    return {
        "kind": "worksheet",
        "title": "After the call",
        "instructions": "A few minutes after it ends.",
        "therapist_note": "",
        "options": json.dumps({"questions": [QUESTION]}),
        "is_active": "on",
        **overrides,
    }


def test_the_preview_draws_the_form_as_posted_with_the_portals_own_fields_and_saves_nothing(
    cast, django_assert_num_queries
):
    http = login(cast.tara)
    http.get(reverse("admin:index"))  # the session's first reads are not the preview's
    with django_assert_num_queries(3):
        page = http.post(reverse(PREVIEW), worksheet())
    assert page.status_code == 200
    text = page.content.decode()
    # The portal's own field for a short answer, under the question as the client reads it.
    assert "What did you notice in your body?</label>" in text
    assert 'type="text" name="r-q_' in text
    assert "A few minutes after it ends." in text
    assert not Exercise.objects.filter(title="After the call").exists()


@pytest.mark.parametrize(
    ("posted", "said"),
    [
        (worksheet(options="{not json"), "This is not valid JSON"),
        (
            worksheet(options=json.dumps({"questions": [{**QUESTION, "text": ""}]})),
            "the question needs its text",
        ),
    ],
)
def test_what_the_form_would_refuse_is_listed_above_the_preview_not_drawn(cast, posted, said):
    page = login(cast.tara).post(reverse(PREVIEW), posted)
    assert page.status_code == 200
    assert said in page.content.decode()
    assert "cannot be shown until it is fixed" in page.content.decode()


def test_another_therapists_exercise_has_no_preview(cast):
    theirs = Exercise.objects.create(
        kind="written_record", title="Theo's own", instructions="x", owner=cast.theo
    )
    http = login(cast.tara)
    url = reverse(SAVED_PREVIEW, args=[theirs.pk])
    assert http.get(url).status_code == 404
    assert http.post(url, worksheet()).status_code == 404
    assert login(cast.morgan).get(url).status_code == 200  # the manager sees the practice's


def test_a_shared_exercise_a_therapist_cannot_change_previews_as_saved(cast):
    shared = Exercise.objects.get(title="Weekly check-in: pull and clarity", owner=None)
    page = login(cast.tara).post(
        reverse(SAVED_PREVIEW, args=[shared.pk]), worksheet(title="Not what was saved")
    )
    assert "Weekly check-in: pull and clarity" in page.content.decode()
    assert "Not what was saved" not in page.content.decode()


def test_the_editor_names_no_json_until_asked_and_opens_it_with_the_questions_kept(cast):
    http = login(cast.tara)
    page = http.get(reverse("admin:homework_exercise_add")).content.decode()
    assert "What the client is asked" in page and "Kind options" not in page
    assert "leave it as" not in page
    assert '<details class="options-json">' in page  # folded: "Edit as JSON"

    kept = json.dumps({"questions": [QUESTION]})
    refused = http.post(
        reverse("admin:homework_exercise_add"),
        worksheet(options='{"questions": [', options_builder=kept),
    )
    form = refused.context["adminform"].form
    assert "This is not valid JSON" in form.errors["options"][0]
    assert '<details class="options-json" open>' in refused.content.decode()
    assert json.loads(form.fields["options"].widget.builder) == json.loads(kept)
    assert not Exercise.objects.filter(title="After the call").exists()
    # What the editor posted is only drawn again when it reads as options.
    again = http.post(
        reverse("admin:homework_exercise_add"),
        worksheet(options="[", options_builder="<script>"),
    )
    assert again.context["adminform"].form.fields["options"].widget.builder is None
