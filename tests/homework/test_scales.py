"""The 0–10 scales: a number is the client's answer only once they chose it.

An untouched slider used to start at 5 and send 5, so "sent without
touching it" read in the summary as "a middling 5", and a screen reader
announced "5 out of 10" as if the client had picked it.
"""

import re
import uuid

from django.urls import reverse

from homework.kinds import get_kind
from homework.models import Entry
from tests.conftest import login
from tests.factories import (
    RESPONSES,
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    options_for,
    posted_form,
)

WARM_SCALE_MESSAGE = "Choose a number from 0 to 10 — any number is fine."


def assign(client, slug, options=None):
    exercise = ExerciseFactory.create(
        kind=slug, title=f"The {slug} one", options=options or options_for(slug)
    )
    return AssignmentFactory.create(client=client, exercise=exercise)


def send(http, assignment, response):
    key = uuid.uuid4()
    page = http.post(
        reverse("homework:do", args=[assignment.pk]),
        {"key": str(key), "version": "0", **posted_form(response)},
    )
    return page, Entry.objects.filter(key=key).first()


def scale_html(page_text: str, name: str) -> str:
    """The markup of one scale: from its `.scale` box to the box's end."""
    boxes = re.findall(r'<div class="scale"[^>]*>.*?</div>', page_text, re.S)
    found = [box for box in boxes if f'name="{name}"' in box]
    assert found, f"no scale named {name}"
    return str(found[0])


def test_an_untouched_scale_is_shown_as_not_answered_not_as_five(cast):
    assignment = assign(cast.alice, "written_record")
    page = login(cast.alice.portal_user).get(reverse("homework:do", args=[assignment.pk]))
    box = scale_html(page.text, "r-body_distress")
    assert "5 out of 10" not in box
    assert "Not answered yet" in box
    # Nothing is chosen, so nothing but "no answer" would be sent.
    assert re.findall(r'value="(\d+)"[^>]*selected', box) == []
    assert re.search(r'<option value=""[^>]*selected', box)


def test_a_required_scale_left_unanswered_asks_warmly_and_saves_nothing(cast):
    assignment = assign(cast.alice, "written_record")
    response = RESPONSES["written_record"]()
    del response["body_distress"]
    page, entry = send(login(cast.alice.portal_user), assignment, response)
    assert page.status_code == 400
    assert entry is None
    assert WARM_SCALE_MESSAGE in page.text
    assert "This field is required." not in page.text


def test_every_kinds_required_scale_says_the_same_warm_thing():
    for slug, name in [("written_record", "body_distress"), ("urge_log", "intensity")]:
        form = get_kind(slug).form_class(data={})
        form.is_valid()
        assert form.errors[name] == [WARM_SCALE_MESSAGE], slug


def test_an_optional_worksheet_scale_left_unanswered_stores_nothing(cast):
    options = options_for("worksheet")
    options = {
        **options,
        "questions": [
            *options["questions"],
            {"key": "calm", "type": "scale_0_10", "text": "How calm, if you like?"},
        ],
    }
    assignment = assign(cast.alice, "worksheet", options=options)
    page, entry = send(login(cast.alice.portal_user), assignment, RESPONSES["worksheet"]())
    assert page.status_code == 302, page.text[:2000]
    assert entry is not None and entry.response.get("calm") is None


def test_a_scored_worksheet_scale_left_unanswered_is_asked_for(cast):
    assignment = assign(cast.alice, "worksheet")
    response = RESPONSES["worksheet"]()
    del response["clarity"]
    page, entry = send(login(cast.alice.portal_user), assignment, response)
    assert entry is None
    assert WARM_SCALE_MESSAGE in page.text


def test_a_row_whose_slider_was_never_touched_counts_as_empty(cast):
    # A browser sends an untouched slider as no answer (""); with nothing else
    # typed in that row, the row is the empty one the page always offers.
    assignment = assign(cast.alice, "boundary_steps")
    posted = posted_form(RESPONSES["boundary_steps"]())
    posted.update(
        {"r-steps-2-boundary": "", "r-steps-2-status": "planned", "r-steps-2-feeling": ""}
    )
    key = uuid.uuid4()
    page = login(cast.alice.portal_user).post(
        reverse("homework:do", args=[assignment.pk]), {"key": str(key), "version": "0", **posted}
    )
    assert page.status_code == 302, page.text[:2000]
    assert len(Entry.objects.get(key=key).response["steps"]) == 2


def test_a_tried_step_sent_with_its_slider_untouched_is_kept(cast):
    """Moving a step to "Tried it" is progress worth keeping as it is: how it
    felt is asked for, not demanded, and the hint says when it is asked."""
    assignment = assign(cast.alice, "boundary_steps")
    http = login(cast.alice.portal_user)
    page = http.get(reverse("homework:do", args=[assignment.pk]))
    assert "Once you have tried it, you can choose how it felt." in page.text
    assert "counted" not in page.text
    response = RESPONSES["boundary_steps"]()
    response["steps"][0].update(status="tried", feeling=None)
    page, entry = send(http, assignment, response)
    assert entry is not None, page.text[:2000]
    assert entry.response["steps"][0]["status"] == "tried"
    assert entry.response["steps"][0].get("feeling") is None


def test_changing_a_sent_entry_shows_the_stored_number(cast):
    assignment = assign(cast.alice, "written_record")
    entry = EntryFactory.create(
        assignment=assignment, response=RESPONSES["written_record"](body_distress=7)
    )
    page = login(cast.alice.portal_user).get(reverse("homework:entry_edit", args=[entry.key]))
    box = scale_html(page.text, "r-body_distress")
    assert re.search(r'<option value="7"[^>]*selected', box)
    assert not re.search(r'<option value=""[^>]*selected', box)


def test_a_stored_answer_without_a_number_still_displays(cast):
    # Optional scales may now be missing from a response: pages must cope.
    assignment = assign(cast.alice, "boundary_steps")
    response = RESPONSES["boundary_steps"]()
    response["steps"][0]["feeling"] = None
    entry = EntryFactory.create(assignment=assignment, response=response)
    page = login(cast.alice.portal_user).get(reverse("homework:entry", args=[entry.key]))
    assert page.status_code == 200
    assert "No calls after 10 pm." in page.text
