"""Changes to a sent entry that the server refused (the therapist read it
meanwhile, or another tab changed it), when the client then leaves (quick
exit, "Sign out", closing the tab): kept on the server as the entry's unsent
note, and back in the note box when they next open the entry."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from homework.models import Entry
from tests.browser.helpers import (
    a_sent_entry_open_with_a_short_idle_timeout,
    changing_a_sent_entry,
    leave,
    note_box_after_signing_in_again,
    note_draft_holds,
    wait_for_db,
)

TYPED = "Now I remember more: the door was locked."


def typed_then_read_meanwhile(alice, context):
    page, entry = changing_a_sent_entry(alice, context)
    page.locator("textarea[name=r-what_happened]").fill(TYPED)
    Entry.objects.filter(pk=entry.pk).update(seen_at=timezone.now())
    return page, entry


def refused_as_read(alice, context):
    """Saved after the therapist read it: the page turns the words toward a note."""
    page, entry = typed_then_read_meanwhile(alice, context)
    page.click("text=Save my changes")
    expect(page.locator("textarea[name=text]")).to_have_value(TYPED)
    expect(page.locator("main")).to_contain_text("kept here for you")
    return page, entry


def note_kept(entry: Entry):
    return note_draft_holds(entry, TYPED)


def finds_the_words_after_signing_in_again(context, entry: Entry) -> None:
    note_box_after_signing_in_again(
        context, entry, TYPED, "it has not been sent yet", "door was locked"
    )
    assert not entry.notes.exists()  # the therapist has nothing of it until it is sent


@pytest.mark.parametrize("how", ["quick-exit", "sign-out"])
def test_leaving_after_a_change_refused_as_read_keeps_the_words(alice, context, how):
    page, entry = refused_as_read(alice, context)
    leave(page, how)
    wait_for_db(note_kept(entry))
    finds_the_words_after_signing_in_again(context, entry)


def test_closing_the_tab_after_a_change_refused_as_read_keeps_the_words(alice, context):
    page, entry = refused_as_read(alice, context)
    page.close()
    wait_for_db(note_kept(entry))
    context.clear_cookies()  # later, the session long over
    finds_the_words_after_signing_in_again(context, entry)


def test_quick_exit_from_a_change_read_meanwhile_keeps_the_words(alice, context):
    """Not saved yet: the quick exit carries the changes, and they are refused."""
    page, entry = typed_then_read_meanwhile(alice, context)
    leave(page, "quick-exit")
    wait_for_db(note_kept(entry))
    finds_the_words_after_signing_in_again(context, entry)


def test_quick_exit_after_a_change_refused_as_changed_elsewhere_keeps_both(alice, context):
    page, entry = changing_a_sent_entry(alice, context)
    page.locator("textarea[name=r-what_happened]").fill(TYPED)
    other = context.new_page()
    other.goto(f"/entries/{entry.key}/edit/")
    other.locator("textarea[name=r-what_happened]").fill("Changed on the other tab.")
    other.click("text=Save my changes")
    other.wait_for_selector("text=Your changes are saved")
    other.close()
    page.bring_to_front()
    page.click("text=Save my changes")
    expect(page.locator("main")).to_contain_text("This changed somewhere else")
    leave(page, "quick-exit")
    wait_for_db(note_kept(entry))
    assert entry.response["what_happened"] == "Changed on the other tab."
    finds_the_words_after_signing_in_again(context, entry)


def test_the_idle_end_after_a_change_read_meanwhile_keeps_the_words(alice, context):
    """The changes go to the server as the idle warning shows (session.js),
    are refused there, and the page that shows them clears at the idle end."""
    from practice.selectors import forget_practice_settings

    page, entry = a_sent_entry_open_with_a_short_idle_timeout(alice, context, to_change=True)
    page.locator("textarea[name=r-what_happened]").fill(TYPED)
    Entry.objects.filter(pk=entry.pk).update(seen_at=timezone.now())
    page.clock.fast_forward(31_000)  # the warning's moment
    expect(page.locator("main")).to_contain_text("kept here for you")
    wait_for_db(note_kept(entry))
    forget_practice_settings()
    page.close()
    context.clear_cookies()  # the session over, as the idle end leaves it
    finds_the_words_after_signing_in_again(context, entry)
