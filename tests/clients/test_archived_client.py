"""A client their therapist archived: an archived client, never a bare 403.

Their words stay theirs to download (CLINICAL.md: the written record may
matter for a protection order); nothing else in the portal opens or changes.
"""

import io
import json
import uuid

import pytest
from django.test import Client as HttpClient
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice
from pypdf import PdfReader

from clients.services import client_archive, client_restore
from homework.models import Assignment, Entry, EntryNote
from tests.conftest import login
from tests.factories import PASSWORD, EntryFactory, written_record
from tests.helpers_entries import first_saying, submit_written_record

CLOSED = "/account/closed/"


@pytest.fixture
def archived(cast):
    """Alice, signed in, and then archived by her therapist."""
    http = login(cast.alice.portal_user)
    client_archive(actor=cast.tara, client=cast.alice)
    return http


def sent_form(key: uuid.UUID | None = None, version: int = 0, **overrides) -> dict[str, str]:
    return {
        "key": str(key or uuid.uuid4()),
        "version": str(version),
        **{f"r-{k}": str(v) for k, v in written_record(**overrides).items()},
    }


def test_an_archived_client_who_signs_in_reaches_the_closed_page(cast):
    client_archive(actor=cast.tara, client=cast.alice)
    http = HttpClient()
    signed_in = http.post(
        reverse("clients:login"), {"username": "alice@example.test", "password": PASSWORD}
    )
    page = http.get(signed_in["Location"], follow=True)
    assert page.redirect_chain[-1] == (CLOSED, 302)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Your notebook is closed" in html
    assert "Everything you wrote is kept" in html
    # The portal's shell: quick exit first, help now, sign out, the crisis lines.
    assert html.index('id="quick-exit"') < html.index("<main")
    assert reverse("crisis") in html and reverse("clients:logout") in html
    assert "If you need someone now" in html
    # The download, the password and signing out everywhere; no links into the rest.
    for name in (
        "homework:download_ask",
        "homework:export_json",
        "clients:change_password",
        "clients:log_out_everywhere",
    ):
        assert reverse(name) in html
    for name in ("homework:history", "homework:progress", "clients:account"):
        assert f'href="{reverse(name)}"' not in html
    assert reverse("clients:two_step_setup") not in html


@pytest.mark.parametrize(
    "path",
    [
        lambda c: "/",
        lambda c: "/history/",
        lambda c: "/progress/",
        lambda c: f"/do/{c.alice_assignment.pk}/",
        lambda c: f"/entries/{c.alice_entry.key}/",
        lambda c: f"/entries/{c.alice_entry.key}/edit/",
        lambda c: "/account/",
        lambda c: "/account/two-step/",
    ],
    ids=["home", "history", "progress", "do", "entry", "edit", "settings", "two-step"],
)
def test_every_other_portal_page_sends_an_archived_client_to_the_closed_page(cast, archived, path):
    response = archived.get(path(cast))
    assert response.status_code == 302 and response["Location"] == CLOSED


def test_an_archived_clients_posts_change_nothing_and_say_why(cast, archived):
    entry = cast.alice_entry
    before = (entry.version, entry.private, dict(entry.response))
    posts = {
        f"/entries/{entry.key}/privacy/": {"private": "1"},
        f"/entries/{entry.key}/notes/": {"text": "one more thing"},
        f"/entries/{entry.key}/edit/": sent_form(entry.key, entry.version, what_happened="new"),
        "/account/two-step/": {"start": "1"},
        "/account/two-step/off/": {"password": PASSWORD},
    }
    for path, data in posts.items():
        response = archived.post(path, data)
        assert (response.status_code, response["Location"]) == (302, CLOSED), path
    entry.refresh_from_db()
    assert (entry.version, entry.private, entry.response) == before
    assert not EntryNote.objects.filter(entry=entry).exists()
    assert not TOTPDevice.objects.filter(user=cast.alice.portal_user).exists()
    page = archived.get(CLOSED)
    assert "Your notebook with the practice is closed, so nothing was changed." in page.text


def test_a_draft_saved_after_the_archive_is_kept_and_the_page_told(cast, archived):
    """The autosave script shows a 400's first error as "Not saved yet. …" and
    keeps the words on the page (static/js/autosave.js); the server keeps them too."""
    key = uuid.uuid4()
    response = archived.post(
        reverse("homework:autosave", args=[cast.alice_assignment.pk]),
        {"key": str(key), "version": "0", "r-what_happened": "typed as it closed"},
        headers={"Accept": "application/json"},
    )
    assert response.status_code == 400
    [message] = response.json()["errors"]["__all__"]
    assert "notebook with the practice is closed" in message and "kept" in message
    draft = Entry.objects.get(key=key)
    assert draft.status == Entry.Status.DRAFT
    assert draft.response["what_happened"] == "typed as it closed"
    download = json.loads(archived.get(reverse("homework:export_json")).content)
    assert "typed as it closed" in {e["response"].get("what_happened") for e in download["entries"]}


def test_an_autosave_that_cannot_be_kept_says_the_words_are_still_on_the_page(cast, archived):
    response = archived.post(
        reverse("homework:autosave", args=[cast.alice_assignment.pk]),
        {"key": "not-a-key", "version": "0", "r-what_happened": "typed as it closed"},
        headers={"Accept": "application/json"},
    )
    assert response.status_code == 400
    [message] = response.json()["errors"]["__all__"]
    assert "still on this page" in message
    assert not first_saying(Entry.objects.all(), what_happened="typed as it closed")


def test_sending_after_the_archive_keeps_the_words_as_an_unsent_draft(cast, archived):
    key = uuid.uuid4()
    response = archived.post(
        reverse("homework:do", args=[cast.alice_assignment.pk]),
        sent_form(key, what_happened="sent as it closed"),
    )
    assert (response.status_code, response["Location"]) == (302, CLOSED)
    kept = Entry.objects.get(key=key)
    assert kept.status == Entry.Status.DRAFT and kept.submitted_at is None
    assert kept.response["what_happened"] == "sent as it closed"
    assert "kept as an unsent draft" in archived.get(CLOSED).text


def test_an_archived_client_downloads_everything_they_wrote(cast, archived):
    private = EntryFactory.create(
        assignment=cast.alice_assignment,
        private=True,
        response={**cast.alice_entry.response, "what_happened": "Only for me."},
    )
    as_json = archived.get(reverse("homework:export_json"))
    assert as_json.status_code == 200
    assert as_json["Content-Disposition"].startswith('attachment; filename="notebook-')
    entries = {e["id"]: e for e in json.loads(as_json.content)["entries"]}
    assert set(entries) == {str(cast.alice_entry.key), str(private.key)}
    assert str(cast.bob_entry.key) not in as_json.text
    as_pdf = archived.get(reverse("homework:export_pdf"))
    assert as_pdf.status_code == 200 and as_pdf["Content-Type"] == "application/pdf"
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(as_pdf.content)).pages)
    assert cast.alice_entry.response["what_happened"] in text and "Only for me." in text


def test_an_archived_clients_choice_of_exercises_is_offered_and_checked(cast, archived):
    chosen = archived.get(
        reverse("homework:export_pdf"), {"chosen": "yes", "include": cast.alice_assignment.pk}
    )
    assert chosen.status_code == 200 and chosen["Content-Type"] == "application/pdf"
    # Someone else's exercise is no choice of theirs: the closed page says so.
    refused = archived.get(
        reverse("homework:export_pdf"), {"chosen": "yes", "include": cast.bob_assignment.pk}
    )
    assert refused.status_code == 400
    assert "Your notebook is closed" in refused.text


def test_an_archived_client_can_change_their_password_and_sign_out_everywhere(cast, archived):
    refused = archived.post(reverse("clients:change_password"), {"old_password": "wrong"})
    assert refused.status_code == 400 and "Your notebook is closed" in refused.text
    changed = archived.post(
        reverse("clients:change_password"),
        {
            "old_password": PASSWORD,
            "new_password1": "another long password 7",
            "new_password2": "another long password 7",
        },
        follow=True,
    )
    assert changed.redirect_chain[-1] == (CLOSED, 302)
    assert "Your password is changed" in changed.text
    cast.alice.portal_user.refresh_from_db()
    assert cast.alice.portal_user.check_password("another long password 7")
    ended = archived.post(reverse("clients:log_out_everywhere"))
    assert ended.status_code == 302 and ended["Location"].startswith(reverse("clients:login"))
    assert archived.get(CLOSED).status_code == 302  # signed out


def test_restoring_the_client_reopens_the_whole_portal(cast, archived):
    client_restore(actor=cast.tara, client=cast.alice)
    assert archived.get("/").status_code == 200
    assert archived.get(f"/entries/{cast.alice_entry.key}/").status_code == 200
    reopened = archived.get(CLOSED)
    assert (reopened.status_code, reopened["Location"]) == (302, "/")


def test_an_archived_clients_records_stay_hidden_from_other_clients(cast, archived):
    bob = login(cast.bob.portal_user)
    assert bob.get(f"/entries/{cast.alice_entry.key}/").status_code == 404
    assert bob.get(f"/do/{cast.alice_assignment.pk}/").status_code == 404
    # And alice learns nothing of bob's: the same closed page as for her own.
    response = archived.get(f"/entries/{cast.bob_entry.key}/")
    assert (response.status_code, response["Location"]) == (302, CLOSED)


def test_nothing_can_be_sent_by_an_archived_client_even_past_the_views(cast, archived):
    """Drafts are kept after the archive; sending stays refused in the service too."""

    with pytest.raises(Assignment.DoesNotExist):
        submit_written_record(cast.alice_assignment)
