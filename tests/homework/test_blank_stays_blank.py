"""A blank stays a blank: "When did it happen?" in a written record is never
filled in for the client, and a record sent without it says so everywhere
rather than showing a time the client never gave (CLINICAL.md, Honesty)."""

import re
import uuid

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from homework.kinds import get_kind
from homework.models import Entry
from tests.conftest import login
from tests.helpers import do_url, posted

TIME_INPUT = re.compile(r'<input[^>]*name="r-occurred_at"[^>]*>')
FILLED = re.compile(r'value="[^"]+"')


def time_input(html: str) -> str:
    found = TIME_INPUT.search(html)
    assert found is not None
    return found.group(0)


def test_a_new_written_record_opens_with_no_time_filled_in(cast):
    page = login(cast.alice.portal_user).get(do_url(cast.alice_assignment))
    assert page.status_code == 200
    assert not FILLED.search(time_input(page.text))
    # The client's own way to give the time now, on their own clock.
    assert "data-fill-now" in page.text and cast.alice.timezone in page.text


def test_a_blank_time_stays_blank_through_autosave_and_reopening(cast):
    http = login(cast.alice.portal_user)
    key = uuid.uuid4()
    saved = http.post(
        reverse("homework:autosave", args=[cast.alice_assignment.pk]),
        posted(key, occurred_at="", what_happened="Half of it, for now."),
    )
    assert saved.status_code == 200, saved.content
    draft = Entry.objects.get(key=key)
    assert not draft.response.get("occurred_at")
    again = http.get(do_url(cast.alice_assignment))
    assert "Half of it, for now." in again.text
    assert not FILLED.search(time_input(again.text))


def test_a_record_sent_without_a_time_says_so_in_the_portal_and_the_summary(cast):
    http = login(cast.alice.portal_user)
    key = uuid.uuid4()
    sent = http.post(do_url(cast.alice_assignment), posted(key, occurred_at=""))
    assert sent.status_code == 302
    entry = Entry.objects.get(key=key)
    assert entry.is_submitted and not entry.response.get("occurred_at")

    shown = http.get(reverse("homework:entry", args=[key]))
    assert "Not given" in shown.text

    kind = get_kind("written_record")
    summary = render_to_string(kind.summary_template, kind.summary_context([entry]))
    assert "when: not given" in summary
    assert "sent" in summary


@pytest.mark.parametrize("typed", ["yesterday", "2999-01-01T10:00"])
def test_a_time_that_is_not_a_past_time_is_refused_and_nothing_is_sent(cast, typed):
    http = login(cast.alice.portal_user)
    key = uuid.uuid4()
    refused = http.post(do_url(cast.alice_assignment), posted(key, occurred_at=typed))
    assert refused.status_code == 400
    assert not Entry.objects.filter(key=key, status=Entry.Status.SUBMITTED).exists()
