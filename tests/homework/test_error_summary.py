"""After a refused send, the page's summary says what needs another look and
links to each field (the browser moves focus to it; see tests/browser)."""

import re
import uuid

from django.urls import reverse

from tests.conftest import login
from tests.factories import (
    RESPONSES,
    AssignmentFactory,
    ExerciseFactory,
    options_for,
    posted_form,
)


def send(cast, slug, response):
    exercise = ExerciseFactory.create(kind=slug, options=options_for(slug))
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    return login(cast.alice.portal_user).post(
        reverse("homework:do", args=[assignment.pk]),
        {"key": str(uuid.uuid4()), "version": "0", **posted_form(response)},
    )


def summary(page_text: str) -> str:
    found = re.search(r'<div[^>]*id="error-summary".*?</div>', page_text, re.S)
    assert found, "no error summary"
    return found[0]


def test_the_summary_links_to_each_field_that_needs_another_look(cast):
    page = send(cast, "written_record", RESPONSES["written_record"](what_happened=""))
    assert page.status_code == 400
    box = summary(page.text)
    assert "data-focus-on-load" in box
    # Without script focus stays where the browser puts it: nothing in the page takes it.
    assert "autofocus" not in page.text
    assert 'href="#id_r-what_happened"' in box
    assert "Write a few words here first." in box
    assert "marked below" in box


def test_a_row_fields_link_names_its_row(cast):
    response = RESPONSES["boundary_steps"]()
    response["steps"][0]["boundary"] = ""
    box = summary(send(cast, "boundary_steps", response).text)
    assert 'href="#id_r-steps-0-boundary"' in box
    assert "Step 1" in box


def test_a_choice_links_to_its_first_option(cast):
    box = summary(send(cast, "urge_log", RESPONSES["urge_log"](trigger="moon")).text)
    assert 'href="#id_r-trigger_0"' in box


def test_a_message_for_the_whole_answer_does_not_say_marked_below(cast):
    empty = dict.fromkeys(RESPONSES["safety_plan"](), "")
    page = send(cast, "safety_plan", empty)
    assert page.status_code == 400
    box = summary(page.text)
    assert "Fill in at least one part." in box
    assert "marked below" not in box
    assert page.text.count("Fill in at least one part.") == 1
