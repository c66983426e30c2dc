"""A note longer than a note may be, written on a sent entry, when the client
leaves (quick exit, "Sign out", the idle end): kept on the server, and back
in the note box when they next open the entry."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from homework.models import Entry
from tests.browser.helpers import (
    a_sent_entry_open_with_a_short_idle_timeout,
    leave,
    note_box_after_signing_in_again,
    note_draft_holds,
    signed_in_tab,
    wait_for_db,
)
from tests.factories import EntryFactory

WORDS = ("Everything I did not say in the session. " * 52).rstrip()  # 2,131 characters


def writing_a_long_note(alice, context):
    entry = EntryFactory.create(assignment=alice, submitted_at=timezone.now())
    page = signed_in_tab(context)
    page.goto(f"/entries/{entry.key}/")
    page.wait_for_load_state("load")
    box = page.locator("textarea[name=text]")
    box.focus()
    page.keyboard.insert_text(WORDS)
    expect(box).to_have_value(WORDS)
    return page, entry


def finds_the_words_after_signing_in_again(context, entry: Entry) -> None:
    page = note_box_after_signing_in_again(
        context,
        entry,
        WORDS,
        "This can be up to 2,000 characters; it has 2,131.",
        "did not say",
    )
    # Shortened, it goes as a note, and nothing is left waiting.
    page.locator("textarea[name=text]").fill(WORDS[:1500])
    page.click("text=Add the note")
    expect(page.get_by_text("Your note is added.")).to_be_visible()
    entry.refresh_from_db()
    assert entry.note_draft == ""
    assert [note.text for note in entry.notes.all()] == [WORDS[:1500].strip()]


@pytest.mark.parametrize("how", ["quick-exit", "sign-out"])
def test_leaving_keeps_an_over_long_note_for_next_time(alice, context, how):
    page, entry = writing_a_long_note(alice, context)
    leave(page, how)
    wait_for_db(note_draft_holds(entry, WORDS))
    assert not entry.notes.exists()
    finds_the_words_after_signing_in_again(context, entry)


def test_the_idle_end_keeps_an_over_long_note_for_next_time(alice, context):
    """The note goes to the server as the idle warning shows (session.js):
    refused there for its length, it was on the page alone, and the page
    clears at the idle end."""
    from practice.selectors import forget_practice_settings

    page, entry = a_sent_entry_open_with_a_short_idle_timeout(alice, context, to_change=False)
    page.locator("textarea[name=text]").fill(WORDS)
    page.clock.fast_forward(31_000)  # the warning's moment
    expect(page.locator("main")).to_contain_text("This can be up to 2,000 characters")
    wait_for_db(note_draft_holds(entry, WORDS))
    forget_practice_settings()
    page.close()
    context.clear_cookies()  # the session over, as the idle end leaves it
    finds_the_words_after_signing_in_again(context, entry)
