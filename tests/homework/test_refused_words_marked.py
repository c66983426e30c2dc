"""A form with no autosave (changes to a sent entry, a note added to one),
sent back refused with words the client typed in it, is marked so
(``data-refused-words``): the page's script then treats those words as not
sent (static/js/session.js: leaving asks first; the quick exit and "Sign out"
carry them). Only where there are words to lose, and only on a refusal."""

import re
from typing import Any

from django.urls import reverse

from homework.models import Entry
from tests.conftest import login
from tests.helpers_entries import OVER_LONG, TYPED, edit_form, edit_url, note_url, read_by_therapist

FORM_TAG = re.compile(r"<form\b[^>]*\bdata-save-before-idle\b[^>]*>")


def marked(page: Any) -> bool:
    """Whether the page's form with no autosave says it holds refused words."""
    [tag] = FORM_TAG.findall(page.content.decode())
    return "data-refused-words" in tag


# -- a note ----------------------------------------------------------------------------------


def test_a_note_sent_back_refused_with_words_is_marked(cast):
    response = login(cast.alice.portal_user).post(note_url(cast.alice_entry), {"text": OVER_LONG})
    assert response.status_code == 400 and marked(response)


def test_an_empty_note_sent_back_is_not_marked(cast):
    """Nothing written, nothing to lose: no "Leave site?" over an empty box."""
    http = login(cast.alice.portal_user)
    for text in ("", "  \n "):
        response = http.post(note_url(cast.alice_entry), {"text": text})
        assert response.status_code == 400 and not marked(response)


def test_a_note_kept_from_before_opens_unmarked(cast):
    """Words the server keeps as the entry's unsent note, shown on opening
    the entry, are not a refusal: the script sends nothing of them unasked."""
    http = login(cast.alice.portal_user)
    http.post(note_url(cast.alice_entry), {"text": OVER_LONG})
    page = http.get(reverse("homework:entry", args=[cast.alice_entry.key]))
    assert page.status_code == 200 and "not been sent yet" in page.text
    assert not marked(page)


def test_changes_turned_into_a_note_after_reading_are_not_marked(cast):
    """The therapist read the entry before the changes came: their words wait in
    the note box, unsent. Marked, the quick exit or the idle warning would send
    that note for the client, who has not chosen to send it."""
    entry = cast.alice_entry
    read_by_therapist(entry)
    response = login(cast.alice.portal_user).post(
        edit_url(entry), edit_form(entry, what_happened=TYPED)
    )
    assert response.status_code == 409 and "kept here for you" in response.text
    assert not marked(response)


# -- changes to a sent entry -----------------------------------------------------------------


def test_changes_sent_back_refused_with_new_words_are_marked(cast):
    entry = cast.alice_entry
    response = login(cast.alice.portal_user).post(
        edit_url(entry), edit_form(entry, what_happened=TYPED, body_distress="11")
    )
    assert response.status_code == 400 and marked(response)


def test_changes_sent_back_refused_with_no_new_words_are_not_marked(cast):
    """An answer out of range, or a box emptied: no words that the entry does
    not already hold, nothing to write again."""
    entry: Entry = cast.alice_entry
    http = login(cast.alice.portal_user)
    out_of_range = http.post(edit_url(entry), edit_form(entry, body_distress="11"))
    assert out_of_range.status_code == 400 and not marked(out_of_range)
    emptied = http.post(edit_url(entry), edit_form(entry, what_happened=""))
    assert emptied.status_code == 400 and not marked(emptied)


def test_changes_with_a_form_from_another_entry_are_marked_when_they_hold_words(cast):
    entry = cast.alice_entry
    form = edit_form(entry, what_happened=TYPED) | {"key": str(cast.bob_entry.key)}
    response = login(cast.alice.portal_user).post(edit_url(entry), form)
    assert response.status_code == 400 and marked(response)


def test_the_change_page_opens_unmarked_and_a_conflict_is_not_marked(cast):
    """A conflict shows both versions for the client to choose: carried by the
    quick exit, this page's version would replace the other unasked."""
    entry = cast.alice_entry
    http = login(cast.alice.portal_user)
    assert not marked(http.get(edit_url(entry)))
    http.post(edit_url(entry), edit_form(entry, what_happened="Edited on the phone."))
    stale = http.post(edit_url(entry), edit_form(entry, version=1, what_happened=TYPED))
    assert stale.status_code == 409 and not marked(stale)


def test_changes_saved_leave_nothing_marked(cast):
    entry = cast.alice_entry
    http = login(cast.alice.portal_user)
    saved = http.post(edit_url(entry), edit_form(entry, what_happened=TYPED), follow=True)
    assert saved.status_code == 200 and "Your changes are saved." in saved.text
    assert not marked(saved)
