"""Changes to a sent entry that could not be saved (the therapist read it
first, another tab changed it, the notebook closed) are on the page alone,
and the ways out of the portal (quick exit, idle end, "Sign out", closing the
tab) send nothing the client has not typed since that page opened. So their
words are kept on the server at once, as the entry's unsent note: back in the
note box next time, in the client's download, never seen by the therapist
until the client sends them."""

import json

import pytest
from django.test import Client as HttpClient
from django.urls import reverse

from clients.services import client_archive
from homework import services
from homework.models import Assignment, Entry, EntryNote
from tests.conftest import login
from tests.factories import (
    RESPONSES,
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    options_for,
    posted_form,
    urge_log,
)
from tests.helpers import form_token
from tests.helpers_entries import TYPED, edit_form, edit_url, read_by_therapist


def quick_exit_from_edit_page(user, form: dict[str, str]) -> None:
    """The quick exit as quick-exit.js sends it from the edit page, carrying
    its changes (session.js: portalPendingDraft, ``edit``)."""
    http = HttpClient(enforce_csrf_checks=True)
    http.force_login(user)
    token = form_token(http.get(reverse("homework:dashboard")).text)
    data = {"csrfmiddlewaretoken": token, "beacon": "1", "draft-edit": "1"}
    data |= {f"draft-{name}": value for name, value in form.items()}
    assert http.post(reverse("homework:quick_exit"), data).status_code == 204


def box_next_time(http: HttpClient, entry: Entry) -> str:
    page = http.get(reverse("homework:entry", args=[entry.key]))
    assert page.status_code == 200
    assert "it has not been sent yet" in page.text
    return str(page.context["note_form"]["text"].value())


# -- read by the therapist before the changes arrived ---------------------------------


def test_changes_refused_because_it_was_read_are_kept_as_the_unsent_note(cast):
    """Saved (or sent by the idle warning, or by "Sign out" as it goes), then
    the client leaves: the note box the page showed them in is gone."""
    entry = cast.alice_entry
    before = dict(entry.response)
    http = login(cast.alice.portal_user)
    http.get(edit_url(entry))
    read_by_therapist(entry)
    refused = http.post(edit_url(entry), edit_form(entry, what_happened=TYPED))
    assert refused.status_code == 409
    assert refused.context["note_form"]["text"].value() == TYPED
    assert "kept here for you" in refused.text
    entry.refresh_from_db()
    assert entry.note_draft == TYPED
    assert entry.response == before and not EntryNote.objects.exists()
    assert box_next_time(login(cast.alice.portal_user), entry) == TYPED


def test_a_quick_exit_from_the_edit_page_after_it_was_read_keeps_the_changes(cast):
    entry = cast.alice_entry
    form = edit_form(entry, what_happened=TYPED)
    read_by_therapist(entry)
    quick_exit_from_edit_page(cast.alice.portal_user, form)
    entry.refresh_from_db()
    assert entry.note_draft == TYPED
    assert not EntryNote.objects.exists()  # sent only when the client sends it
    assert box_next_time(login(cast.alice.portal_user), entry) == TYPED


def test_refused_changes_join_a_note_already_waiting_and_are_kept_once(cast):
    """The idle warning sends the changes, and "Sign out" may send them again."""
    entry = cast.alice_entry
    http = login(cast.alice.portal_user)
    http.post(reverse("homework:entry_add_note", args=[entry.key]), {"text": "x" * 2001})
    read_by_therapist(entry)
    for _ in range(2):
        http.post(edit_url(entry), edit_form(entry, what_happened=TYPED))
    entry.refresh_from_db()
    assert entry.note_draft == "x" * 2001 + "\n\n" + TYPED
    assert box_next_time(http, entry) == entry.note_draft


def test_the_therapist_never_sees_refused_changes_until_sent_as_a_note(cast):
    entry = cast.alice_entry
    read_by_therapist(entry)
    login(cast.alice.portal_user).post(edit_url(entry), edit_form(entry, what_happened=TYPED))
    tara = login(cast.tara)
    page = tara.get(reverse("admin:homework_entry_change", args=[entry.pk]))
    assert page.status_code == 200 and "the door was locked" not in page.text
    sent = login(cast.alice.portal_user).post(
        reverse("homework:entry_add_note", args=[entry.key]), {"text": TYPED}
    )
    assert sent.status_code == 302
    entry.refresh_from_db()
    assert entry.note_draft == "" and [n.text for n in entry.notes.all()] == [TYPED]


# -- changed in another tab since the page opened -------------------------------------------


def test_changes_refused_as_changed_elsewhere_are_kept_until_saved(cast):
    entry = cast.alice_entry
    http = login(cast.alice.portal_user)
    http.post(edit_url(entry), edit_form(entry, what_happened="Edited on the phone."))
    stale = http.post(edit_url(entry), edit_form(entry, version=1, what_happened=TYPED))
    assert stale.status_code == 409
    assert "waits, unsent, in the note box" in stale.text
    entry.refresh_from_db()
    assert entry.response["what_happened"] == "Edited on the phone."
    assert entry.note_draft == TYPED
    # Saved again from the page, the words are in the entry: nothing waits twice.
    again = http.post(edit_url(entry), edit_form(entry, version=2, what_happened=TYPED))
    assert again.status_code == 302
    entry.refresh_from_db()
    assert entry.response["what_happened"] == TYPED and entry.note_draft == ""


def test_a_quick_exit_with_changes_made_before_another_tabs_keeps_both(cast):
    entry = cast.alice_entry
    form = edit_form(entry, what_happened=TYPED)
    login(cast.alice.portal_user).post(
        edit_url(entry), edit_form(entry, what_happened="Edited on the phone.")
    )
    quick_exit_from_edit_page(cast.alice.portal_user, form)
    entry.refresh_from_db()
    assert entry.response["what_happened"] == "Edited on the phone."  # not overwritten
    assert entry.note_draft == TYPED


def test_a_quick_exit_with_changes_that_need_another_look_keeps_their_words(cast):
    """An answer out of range on the page as the client leaves: nothing to
    correct it on any more, so the words wait as the note."""
    entry = cast.alice_entry
    form = edit_form(entry, what_happened=TYPED, body_distress="11")
    quick_exit_from_edit_page(cast.alice.portal_user, form)
    entry.refresh_from_db()
    assert entry.version == 1 and entry.note_draft == TYPED


def test_changes_that_need_another_look_are_kept_until_saved(cast):
    """Sent by the idle warning or by "Sign out" as the page goes, and refused
    for an answer out of range: the page that shows them is the last."""
    entry = cast.alice_entry
    http = login(cast.alice.portal_user)
    refused = http.post(edit_url(entry), edit_form(entry, what_happened=TYPED, body_distress="11"))
    assert refused.status_code == 400 and "Nothing you wrote has been lost." in refused.text
    entry.refresh_from_db()
    assert entry.version == 1 and entry.note_draft == TYPED
    # Corrected and saved: the words are in the entry, and nothing waits twice.
    saved = http.post(edit_url(entry), edit_form(entry, what_happened=TYPED))
    assert saved.status_code == 302
    entry.refresh_from_db()
    assert entry.response["what_happened"] == TYPED and entry.note_draft == ""


def test_a_change_of_choices_only_refused_as_changed_elsewhere_keeps_no_note(cast):
    entry = cast.alice_entry
    http = login(cast.alice.portal_user)
    http.post(edit_url(entry), edit_form(entry, what_happened="Edited on the phone."))
    stale = http.post(
        edit_url(entry),
        edit_form(entry, version=1, what_happened="Edited on the phone.", body_distress="3"),
    )
    assert stale.status_code == 409 and "waits, unsent" not in stale.text
    entry.refresh_from_db()
    assert entry.note_draft == ""


def test_an_entry_of_cancelled_work_is_still_changed_as_before(cast):
    """Closing the work does not refuse changes to what was sent for it."""
    entry = cast.alice_entry
    Assignment.objects.filter(pk=entry.assignment_id).update(status="cancelled")
    http = login(cast.alice.portal_user)
    assert http.post(edit_url(entry), edit_form(entry, what_happened=TYPED)).status_code == 302
    entry.refresh_from_db()
    assert entry.response["what_happened"] == TYPED and entry.note_draft == ""


# -- the notebook closed (the client archived) ----------------------------------------------


def test_changes_sent_after_archiving_are_kept_for_the_download(cast):
    entry = cast.alice_entry
    http = login(cast.alice.portal_user)
    client_archive(actor=cast.tara, client=cast.alice)
    before = (entry.version, dict(entry.response))
    response = http.post(edit_url(entry), edit_form(entry, what_happened=TYPED))
    assert (response.status_code, response["Location"]) == (302, "/account/closed/")
    entry.refresh_from_db()
    assert (entry.version, entry.response) == before
    assert entry.note_draft == TYPED and not EntryNote.objects.exists()
    assert "kept as an unsent draft" in http.get("/account/closed/").text
    download = json.loads(http.get(reverse("homework:export_json")).content)
    (mine,) = [item for item in download["entries"] if item["id"] == str(entry.key)]
    assert mine["my_note_not_sent_yet"] == TYPED


def test_refused_changes_keep_nothing_on_another_clients_entry(cast):
    bob_entry = cast.bob_entry
    http = login(cast.alice.portal_user)
    assert http.post(edit_url(bob_entry), edit_form(bob_entry)).status_code == 404
    quick_exit_from_edit_page(cast.alice.portal_user, edit_form(bob_entry, version=7))
    bob_entry.refresh_from_db()
    assert bob_entry.note_draft == ""


def test_a_note_sent_after_archiving_is_kept_unsent_for_the_download(cast):
    """The page a refused change turns to offers a note; sent (or carried by
    the quick exit) after the therapist archived the client, it was refused
    and gone."""
    entry = cast.alice_entry
    http = login(cast.alice.portal_user)
    client_archive(actor=cast.tara, client=cast.alice)
    response = http.post(reverse("homework:entry_add_note", args=[entry.key]), {"text": TYPED})
    assert (response.status_code, response["Location"]) == (302, "/account/closed/")
    entry.refresh_from_db()
    assert entry.note_draft == TYPED and not EntryNote.objects.exists()
    assert "kept as an unsent draft" in http.get("/account/closed/").text

    other = EntryFactory.create(assignment=cast.alice_assignment)
    quick = HttpClient(enforce_csrf_checks=True)
    quick.force_login(cast.alice.portal_user)
    token = form_token(quick.get("/account/closed/").text)
    note = {"draft-edit": "1", "draft-note": "1", "draft-key": str(other.key), "draft-text": TYPED}
    quick.post(
        reverse("homework:quick_exit"), {"csrfmiddlewaretoken": token, "beacon": "1", **note}
    )
    other.refresh_from_db()
    assert other.note_draft == TYPED and not other.notes.exists()


def test_changes_too_long_to_keep_are_not_said_to_be_kept(cast, monkeypatch):
    """Past what an unsent note keeps, the words are on the page alone: the
    page says so, and what to do, rather than that they are kept."""
    from homework.services import notes

    monkeypatch.setattr(notes, "NOTE_DRAFT_MAX_CHARS", len(TYPED) - 1)
    entry = cast.alice_entry
    http = login(cast.alice.portal_user)
    read_by_therapist(entry)
    refused = http.post(edit_url(entry), edit_form(entry, what_happened=TYPED))
    assert refused.status_code == 409
    assert refused.context["note_form"]["text"].value() == TYPED
    assert "kept here for you" not in refused.text
    assert "only on this page" in refused.text
    entry.refresh_from_db()
    assert entry.note_draft == ""


def test_changes_elsewhere_too_long_to_keep_are_not_said_to_wait(cast, monkeypatch):
    from homework.services import notes

    monkeypatch.setattr(notes, "NOTE_DRAFT_MAX_CHARS", len(TYPED) - 1)
    entry = cast.alice_entry
    http = login(cast.alice.portal_user)
    refused = http.post(
        edit_url(entry), edit_form(entry, version=entry.version - 1, what_happened=TYPED)
    )
    assert refused.status_code == 409
    assert "waits, unsent, in the note box" not in refused.text
    entry.refresh_from_db()
    assert entry.note_draft == ""


# -- only typed words: a changed choice is not words the client wrote ---------------


def kind_entry(cast, slug: str) -> Entry:
    exercise = ExerciseFactory.create(kind=slug, options=options_for(slug))
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    return EntryFactory.create(assignment=assignment, response=RESPONSES[slug]())


@pytest.mark.parametrize(
    ("slug", "changed", "typed"),
    [
        (
            "urge_log",
            {"trigger": "memory", "contact_initiated_by": "them", "did_instead": "Went out."},
            ["Went out."],
        ),
        (
            "boundary_steps",
            {
                "steps": [
                    {"boundary": "No calls after 9 pm.", "status": "not_yet"},
                    {"boundary": "Sunday lunch with my sister.", "status": "tried"},
                ]
            },
            ["No calls after 9 pm."],
        ),
        (
            "support_network",
            {"people": [{"name": "Jo", "circle": "outer", "roles": ["warmth", "practical_help"]}]},
            [],
        ),
    ],
)
def test_a_changed_choice_never_lands_in_the_note_as_a_code(cast, slug, changed, typed):
    """ "them", "not_yet" or "practical_help" in a note would read as
    gibberish to the client, and to the therapist if they send it."""
    entry = kind_entry(cast, slug)
    posted = {
        key.removeprefix("r-"): value
        for key, value in posted_form(RESPONSES[slug](**changed)).items()
    }
    assert services.edit_words(entry, posted) == typed


def test_a_refused_change_of_a_choice_and_some_words_keeps_only_the_words(cast):
    entry = kind_entry(cast, "urge_log")
    http = login(cast.alice.portal_user)
    read_by_therapist(entry)
    changed = urge_log(contact_initiated_by="them", did_instead=TYPED)
    form = {"key": str(entry.key), "version": str(entry.version), **posted_form(changed)}
    assert http.post(edit_url(entry), form).status_code == 409
    entry.refresh_from_db()
    assert entry.note_draft == TYPED
