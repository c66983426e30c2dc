"""A form sent back with what to fix is an answer, not a fault.

The portal and the workspace answer a refused form with 400 (the autosave
script and the tests read it), and Django logged each one as a "Bad Request"
warning: every mistyped date and empty comment, burying the requests that
really were bad. Those still are logged.
"""

import logging
import uuid

import pytest
from django.conf import settings
from django.urls import reverse

from tests.conftest import login
from tests.helpers import do_url, posted


@pytest.fixture
def warnings(caplog):
    caplog.set_level(logging.WARNING, logger="django.request")

    def bad_requests() -> list[str]:
        return [
            record.getMessage()
            for record in caplog.records
            if record.name == "django.request" and record.getMessage().startswith("Bad Request")
        ]

    return bad_requests


def test_an_answer_refused_beside_its_field_logs_no_bad_request(cast, warnings):
    http = login(cast.alice.portal_user)
    response = http.post(do_url(cast.alice_assignment), posted(uuid.uuid4(), body_distress="11"))
    assert response.status_code == 400
    assert warnings() == []


def test_a_draft_refused_while_typing_logs_no_bad_request(cast, warnings):
    http = login(cast.alice.portal_user)
    response = http.post(
        reverse("homework:autosave", args=[cast.alice_assignment.pk]),
        posted(uuid.uuid4(), what_happened="x" * (settings.LONG_TEXT_MAX_CHARS + 1)),
    )
    assert response.status_code == 400
    assert warnings() == []


def test_a_refused_note_and_password_change_log_no_bad_request(cast, warnings):
    http = login(cast.alice.portal_user)
    note = http.post(reverse("homework:entry_add_note", args=[cast.alice_entry.key]), {"text": ""})
    password = http.post(
        reverse("clients:change_password"),
        {"old_password": "not it", "new_password1": "x", "new_password2": "y"},
    )
    assert (note.status_code, password.status_code) == (400, 400)
    assert warnings() == []


def test_a_therapists_refused_comment_logs_no_bad_request(cast, warnings):
    response = login(cast.tara).post(
        reverse("admin:homework_entry_comment", args=[cast.alice_entry.pk]), {"text": "  "}
    )
    assert response.status_code == 400
    assert warnings() == []


def test_a_malformed_request_is_still_logged(cast, warnings):
    http = login(cast.alice.portal_user)
    # Hidden fields no page of ours sends, and a choice no button makes.
    envelope = http.post(
        reverse("homework:autosave", args=[cast.alice_assignment.pk]), {"key": "not-a-uuid"}
    )
    privacy = http.post(
        reverse("homework:entry_privacy", args=[cast.alice_entry.key]), {"private": "maybe"}
    )
    assert (envelope.status_code, privacy.status_code) == (400, 400)
    autosave_path = reverse("homework:autosave", args=[cast.alice_assignment.pk])
    privacy_path = reverse("homework:entry_privacy", args=[cast.alice_entry.key])
    assert warnings() == [f"Bad Request: {autosave_path}", f"Bad Request: {privacy_path}"]
