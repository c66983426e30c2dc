"""A note the client could not send (longer than a note may be, or on its way
as they left) is kept on the server as the entry's unsent note: shown back in
their note box next time, in their own download, never to the practice."""

import datetime as dt
import json

import pytest
from django.core.exceptions import ValidationError
from django.test import Client as HttpClient
from django.urls import reverse
from django.utils import timezone

from homework import services
from homework.models import Entry, EntryNote
from homework.selectors.period import period_for_dates
from tests.conftest import login
from tests.factories import EntryFactory
from tests.helpers import form_token
from tests.helpers_entries import OVER_LONG, note_url
from tests.helpers_summary import summary_document


def sent(entry: Entry) -> Entry:
    assert entry.is_submitted  # the cast's entries are sent ones
    return entry


def quick_exit_with_note(cast, text: str) -> HttpClient:
    """The quick exit as quick-exit.js sends it, carrying the note box's words."""
    http = HttpClient(enforce_csrf_checks=True)
    http.force_login(cast.alice.portal_user)
    token = form_token(http.get(reverse("homework:entry", args=[cast.alice_entry.key])).text)
    response = http.post(
        reverse("homework:quick_exit"),
        {
            "csrfmiddlewaretoken": token,
            "beacon": "1",
            "draft-edit": "1",
            "draft-note": "1",
            "draft-key": str(cast.alice_entry.key),
            "draft-text": text,
        },
    )
    assert response.status_code == 204
    return http


# -- the service -------------------------------------------------------------------------


def test_a_note_too_long_to_send_is_kept_unsent_on_the_entry(cast):
    entry = sent(cast.alice_entry)
    user = cast.alice.portal_user
    with pytest.raises(ValidationError):
        services.entry_add_note(user=user, key=entry.key, text=OVER_LONG)
    services.entry_keep_note_draft(user=user, key=entry.key, text=OVER_LONG)
    entry.refresh_from_db()
    assert entry.note_draft == OVER_LONG
    assert entry.version == 1  # an edit open in another tab is not in conflict with it
    assert not entry.notes.exists()


def test_sending_the_note_clears_what_was_kept(cast):
    entry = sent(cast.alice_entry)
    user = cast.alice.portal_user
    services.entry_keep_note_draft(user=user, key=entry.key, text=OVER_LONG)
    services.entry_add_note(user=user, key=entry.key, text=OVER_LONG[:1900])
    entry.refresh_from_db()
    assert entry.note_draft == ""
    assert [note.text for note in entry.notes.all()] == [OVER_LONG[:1900].strip()]


def test_an_emptied_note_box_clears_what_was_kept(cast):
    entry = sent(cast.alice_entry)
    user = cast.alice.portal_user
    services.entry_keep_note_draft(user=user, key=entry.key, text=OVER_LONG)
    services.entry_keep_note_draft(user=user, key=entry.key, text="  \n ")
    entry.refresh_from_db()
    assert entry.note_draft == ""


def test_a_note_is_kept_unsent_only_on_the_clients_own_sent_entry(cast):
    bob_entry = sent(cast.bob_entry)
    with pytest.raises(Entry.DoesNotExist):
        services.entry_keep_note_draft(user=cast.alice.portal_user, key=bob_entry.key, text="x")
    draft = EntryFactory.create(
        assignment=cast.alice_assignment, status=Entry.Status.DRAFT, submitted_at=None
    )
    with pytest.raises(Entry.DoesNotExist):  # a draft takes no note
        services.entry_keep_note_draft(user=cast.alice.portal_user, key=draft.key, text="x")
    with pytest.raises(Entry.DoesNotExist):  # nor does the therapist write one
        services.entry_keep_note_draft(user=cast.tara, key=bob_entry.key, text="x")
    assert not any(entry.note_draft for entry in Entry.objects.all())


def test_a_kept_note_has_a_generous_bound_and_says_so(cast):
    entry = sent(cast.alice_entry)
    with pytest.raises(ValidationError) as refused:
        services.entry_keep_note_draft(
            user=cast.alice.portal_user, key=entry.key, text="x" * 20_001
        )
    assert "20,000" in str(refused.value) and "20,001" in str(refused.value)
    entry.refresh_from_db()
    assert entry.note_draft == ""


# -- the ways out: quick exit, idle warning, "Sign out" -----------------------------------


def test_a_quick_exit_keeps_an_over_long_note_and_the_next_visit_shows_it_back(cast):
    entry = sent(cast.alice_entry)
    quick_exit_with_note(cast, OVER_LONG)
    entry.refresh_from_db()
    assert entry.note_draft == OVER_LONG and not entry.notes.exists()

    page = login(cast.alice.portal_user).get(reverse("homework:entry", args=[entry.key]))
    assert page.status_code == 200
    assert page.context["note_form"]["text"].value() == OVER_LONG
    assert (
        "You started this note earlier and it has not been sent yet. "
        "This can be up to 2,000 characters; it has 2,185." in page.text
    )
    assert "field-error" not in page.text  # said calmly, beside the box, not as a mistake


def test_a_quick_exit_still_adds_a_note_of_normal_length(cast):
    """The note form has no autosave: its words reach the server only with
    the exit (static/js/session.js gives them to static/js/quick-exit.js),
    which signs the client out as well."""
    entry = sent(cast.alice_entry)
    http = quick_exit_with_note(cast, "Only a few words.")
    entry.refresh_from_db()
    assert [note.text for note in entry.notes.all()] == ["Only a few words."]
    assert entry.note_draft == ""
    assert http.get(reverse("homework:dashboard")).status_code == 302


def test_an_over_long_note_sent_as_the_page_leaves_is_kept_with_its_clear_message(cast):
    """The idle warning sends the note form, and "Sign out" sends it as it goes
    (static/js/session.js): a refusal there was the words' last sight."""
    entry = sent(cast.alice_entry)
    http = login(cast.alice.portal_user)
    response = http.post(note_url(entry), {"text": OVER_LONG})
    assert response.status_code == 400
    assert "This can be up to 2,000 characters; it has 2,185." in response.text
    assert not EntryNote.objects.exists()
    entry.refresh_from_db()
    assert entry.note_draft == OVER_LONG
    # Shortened and sent: a note, and nothing left waiting.
    assert http.post(note_url(entry), {"text": OVER_LONG[:2000]}).status_code == 302
    entry.refresh_from_db()
    assert entry.note_draft == "" and entry.notes.count() == 1
    page = http.get(reverse("homework:entry", args=[entry.key]))
    assert page.context["note_form"]["text"].value() in (None, "")
    assert "not been sent yet" not in page.text


def test_a_normal_note_is_added_as_before_and_keeps_nothing(cast):
    entry = sent(cast.alice_entry)
    response = login(cast.alice.portal_user).post(note_url(entry), {"text": "One more thing."})
    assert response.status_code == 302
    entry.refresh_from_db()
    assert [note.text for note in entry.notes.all()] == ["One more thing."]
    assert entry.note_draft == ""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Write a few words here first."),
        ("x" * 2001, "This can be up to 2,000 characters; it has 2,001."),
    ],
    ids=["empty", "too-long"],
)
def test_bad_note_still_gets_its_clear_message(cast, text, message):
    entry = sent(cast.alice_entry)
    response = login(cast.alice.portal_user).post(note_url(entry), {"text": text})
    assert response.status_code == 400 and message in response.text
    assert not EntryNote.objects.exists()


def test_another_clients_entry_takes_no_unsent_note(cast):
    bob_entry = sent(cast.bob_entry)
    http = login(cast.alice.portal_user)
    assert http.post(note_url(bob_entry), {"text": OVER_LONG}).status_code == 404
    quick_exit = HttpClient(enforce_csrf_checks=True)
    quick_exit.force_login(cast.alice.portal_user)
    token = form_token(quick_exit.get(reverse("homework:dashboard")).text)
    quick_exit.post(
        reverse("homework:quick_exit"),
        {
            "csrfmiddlewaretoken": token,
            "beacon": "1",
            "draft-edit": "1",
            "draft-note": "1",
            "draft-key": str(bob_entry.key),
            "draft-text": OVER_LONG,
        },
    )
    bob_entry.refresh_from_db()
    assert bob_entry.note_draft == ""


# -- who sees it ---------------------------------------------------------------------------


def test_the_therapist_never_sees_a_note_not_sent(cast):
    entry = sent(cast.alice_entry)
    EntryNote.objects.create(entry=entry, text="SENT-NOTE for my therapist")
    unsent = "UNSENT-NOTE " * 200
    services.entry_keep_note_draft(user=cast.alice.portal_user, key=entry.key, text=unsent)
    tara = login(cast.tara)
    pages = [
        tara.get(reverse("admin:homework_entry_change", args=[entry.pk])),
        tara.get(reverse("admin:homework_entry_changelist")),
        tara.get(reverse("admin:clients_client_change", args=[cast.alice.pk])),
        # A hand-made filter on the field cannot test its words either.
        tara.get(reverse("admin:homework_entry_changelist") + "?note_draft__contains=UNSENT"),
    ]
    assert pages[0].status_code == 200 and "SENT-NOTE" in pages[0].text
    for page in pages:
        assert "UNSENT-NOTE" not in page.content.decode()
    today = timezone.localdate()
    period = period_for_dates(since=today - dt.timedelta(days=21), until=today, session=None)
    for full_detail in (False, True):
        document = summary_document(cast, period, full_detail=full_detail)
        assert "UNSENT-NOTE" not in document.html


def test_the_clients_download_holds_the_unsent_note_labelled_as_not_sent(cast):
    entry = sent(cast.alice_entry)
    EntryNote.objects.create(entry=entry, text="A note I sent.")
    services.entry_keep_note_draft(user=cast.alice.portal_user, key=entry.key, text=OVER_LONG)
    response = login(cast.alice.portal_user).get(reverse("homework:export_json"))
    exported = json.loads(response.content)
    (mine,) = [item for item in exported["entries"] if item["id"] == str(entry.key)]
    assert [note["text"] for note in mine["my_notes"]] == ["A note I sent."]
    assert mine["my_note_not_sent_yet"] == OVER_LONG
    others = [item for item in exported["entries"] if item["id"] != str(entry.key)]
    assert all(item["my_note_not_sent_yet"] is None for item in others)
