"""The quick exit reaches the neutral site whatever the request carries: the
session ends, Clear-Site-Data is sent, and the words that can be kept are."""

import uuid
from typing import Any

import pytest
from django import forms
from django.conf import settings
from django.test import Client as HttpClient
from django.urls import reverse

from homework.kinds import get_kind
from homework.models import Entry
from homework.services.notes import NOTE_DRAFT_MAX_CHARS
from practice.selectors import practice_settings
from tests.helpers import form_token

EXIT = "/exit/"


@pytest.fixture
def page(cast):
    """Alice's portal open in a browser that checks the security token, and the page's token."""
    http = HttpClient(enforce_csrf_checks=True)
    http.force_login(cast.alice.portal_user)
    return http, form_token(http.get(reverse("homework:dashboard")).text)


def assert_left(http: HttpClient, response, *, beacon: bool = False) -> None:
    if beacon:
        assert response.status_code == 204
    else:
        assert response.status_code == 302
        assert response["Location"] == practice_settings().quick_exit_url
    assert '"cookies"' in response["Clear-Site-Data"]
    assert response.cookies[settings.SESSION_COOKIE_NAME].value == ""
    assert http.get(reverse("homework:dashboard")).status_code == 302  # signed out


def draft_post(cast, token: str, **fields: str) -> dict[str, str]:
    return {
        "csrfmiddlewaretoken": token,
        "beacon": "1",
        "draft-assignment": str(cast.alice_assignment.pk),
        "draft-key": str(uuid.uuid4()),
        "draft-version": "0",
        **{f"draft-r-{name}": value for name, value in fields.items()},
    }


def field_limit(cast, name: str) -> int:
    exercise = cast.alice_assignment.exercise
    field = get_kind(exercise.kind).form(exercise=exercise).fields[name]
    assert isinstance(field, forms.CharField) and field.max_length is not None
    return field.max_length


@pytest.mark.parametrize("too_much", ["too_big", "too_many_fields", "too_many_files"])
def test_a_body_over_the_servers_limits_still_leaves(cast, settings, page, too_much):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1_000
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 20
    settings.DATA_UPLOAD_MAX_NUMBER_FILES = 2
    http, token = page
    from django.core.files.uploadedfile import SimpleUploadedFile

    bodies: dict[str, dict[str, Any]] = {
        "too_big": {"draft-r-what_happened": "x" * 2_000},
        "too_many_fields": {f"draft-r-field{i}": "x" for i in range(30)},
        "too_many_files": {f"f{i}": SimpleUploadedFile(f"{i}.txt", b"x") for i in range(3)},
    }
    response = http.post(EXIT, {"csrfmiddlewaretoken": token, **bodies[too_much]})
    assert_left(http, response)


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("multipart/form-data", b"no boundary given"),
        ("multipart/form-data; boundary=zz", b"--zz\r\nbroken header line\r\n\r\nx\r\n--zz--"),
        ("application/x-www-form-urlencoded", b"draft-r-what_happened=%FF%FE%00&&=&beacon"),
        ("application/json", b"{not json"),
    ],
)
def test_a_malformed_body_still_leaves(cast, page, content_type, body):
    http, _token = page
    response = http.post(EXIT, body, content_type=content_type)
    assert_left(http, response)


@pytest.mark.parametrize("token", ["", "stale-or-forged-token" * 3])
def test_a_missing_or_wrong_token_still_leaves_and_keeps_no_draft(cast, page, token):
    http, _token = page
    response = http.post(EXIT, draft_post(cast, token, what_happened="typed elsewhere"))
    assert_left(http, response, beacon=True)
    assert Entry.objects.count() == 2  # the cast's two


@pytest.mark.parametrize("method", ["put", "delete", "patch", "head", "options"])
def test_any_method_leaves(cast, page, method):
    http, _token = page
    response = getattr(http, method)(EXIT)
    assert_left(http, response)


def test_an_answer_over_its_length_keeps_the_draft_and_its_words_up_to_the_length(cast, page):
    """Dropping the whole draft for one long answer lost every other answer too."""
    http, token = page
    limit = field_limit(cast, "what_happened")
    long_words = "I kept writing. " * (limit // 16 + 10)
    post = draft_post(cast, token, what_happened=long_words, what_i_told_myself="That I overreact.")
    response = http.post(EXIT, post)
    assert_left(http, response, beacon=True)
    draft = Entry.objects.get(key=post["draft-key"])
    assert draft.status == Entry.Status.DRAFT
    assert draft.response["what_i_told_myself"] == "That I overreact."
    assert draft.response["what_happened"] == long_words[:limit]


def test_a_note_over_what_an_unsent_note_holds_is_kept_up_to_it(cast, page):
    http, token = page
    entry = cast.alice_entry
    assert entry.is_submitted
    words = "More to say. " * (NOTE_DRAFT_MAX_CHARS // 13 + 10)
    response = http.post(
        EXIT,
        {
            "csrfmiddlewaretoken": token,
            "beacon": "1",
            "draft-edit": "1",
            "draft-note": "1",
            "draft-key": str(entry.key),
            "draft-text": words,
        },
    )
    assert_left(http, response, beacon=True)
    entry.refresh_from_db()
    assert entry.note_draft == words[:NOTE_DRAFT_MAX_CHARS]
    assert not entry.notes.exists()


def test_a_refused_change_over_its_length_is_kept_as_the_unsent_note(cast, page):
    """A change to a sent entry whose answer is over its length cannot be
    saved: its words become the entry's unsent note rather than being lost."""
    http, token = page
    entry = cast.alice_entry
    before = dict(entry.response)
    words = "Changed my mind. " * (field_limit(cast, "what_happened") // 17 + 10)
    response = http.post(
        EXIT,
        {
            "csrfmiddlewaretoken": token,
            "beacon": "1",
            "draft-edit": "1",
            "draft-key": str(entry.key),
            "draft-version": str(entry.version),
            **{f"draft-r-{name}": str(value) for name, value in before.items()},
            "draft-r-what_happened": words,
        },
    )
    assert_left(http, response, beacon=True)
    entry.refresh_from_db()
    assert entry.response == before
    assert entry.note_draft == words.strip()[:NOTE_DRAFT_MAX_CHARS]


def test_a_session_over_its_idle_time_leaves_for_the_neutral_site_not_the_sign_in(cast, page):
    """The portal's session check answered the exit with the sign-in page
    ("your session ended"), not the neutral site, once the client had been
    away longer than the idle timeout."""
    from clients.middleware import LAST_SEEN

    http, _token = page
    session = http.session
    session[LAST_SEEN] = 1.0  # long ago
    session.save()
    response = http.post(EXIT)
    assert_left(http, response)


def test_the_exit_leaves_even_when_the_practice_settings_cannot_be_read(cast, page, monkeypatch):
    from homework.portal import quick_exit
    from practice.models import PracticeSettings

    def unreadable():
        raise RuntimeError("database down")

    monkeypatch.setattr(quick_exit, "practice_settings", unreadable)
    http, _token = page
    response = http.post(EXIT)
    assert response.status_code == 302
    assert response["Location"] == PracticeSettings._meta.get_field("quick_exit_url").default
    assert '"cookies"' in response["Clear-Site-Data"]


def test_the_exit_clears_the_session_cookie_even_when_the_server_cannot_end_it(
    cast, page, monkeypatch
):
    from homework.portal import quick_exit

    def store_down(request):
        raise ConnectionError("session store down")

    monkeypatch.setattr(quick_exit, "logout", store_down)
    http, _token = page
    response = http.post(EXIT)
    assert response.status_code == 302
    assert response["Location"] == practice_settings().quick_exit_url
    assert '"cookies"' in response["Clear-Site-Data"]
    assert response.cookies[settings.SESSION_COOKIE_NAME].value == ""


def test_words_handed_over_by_other_tabs_are_kept_each_on_its_own(cast, page):
    """The other open tabs hand their unsaved words to the tab that leaves
    (quick-exit.js): they come as draft2-, draft3-..., each saved before the
    session ends, and one that cannot be saved costs the others nothing."""
    http, token = page
    entry = cast.alice_entry
    post = draft_post(cast, token, what_happened="Typed in this tab.")
    post |= {
        "draft2-assignment": "999999",  # gone meanwhile: not saved, and nothing else lost
        "draft2-key": str(uuid.uuid4()),
        "draft2-version": "0",
        "draft2-r-what_happened": "Nowhere to go.",
        "draft3-edit": "1",
        "draft3-note": "1",
        "draft3-key": str(entry.key),
        "draft3-text": "A note from the other tab.",
    }
    response = http.post(EXIT, post)
    assert_left(http, response, beacon=True)
    assert (
        Entry.objects.get(key=post["draft-key"]).response["what_happened"] == "Typed in this tab."
    )
    assert not Entry.objects.filter(key=post["draft2-key"]).exists()
    assert [note.text for note in entry.notes.all()] == ["A note from the other tab."]
