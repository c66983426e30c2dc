"""Changes to a sent entry, and a note added to one, are never autosaved: they
go only when the client presses their button. Left by a link (or Back, a
reload, closing the tab) they were gone without a word. The browser now asks
first (its own "Leave site?" prompt); but not when the page leaves on purpose,
carrying or sending the words: their own button, the quick exit, "Sign out",
the idle end."""

import pytest
from django.utils import timezone
from playwright.sync_api import Dialog, expect

from homework.models import EntryNote
from tests.browser.test_portal import (
    a_sent_entry_open_with_a_short_idle_timeout,
    another_tab,
    entry_says,
    leave_with_shift,
    signed_in_tab,
    wait_for_db,
)
from tests.factories import EntryFactory

CHANGED = "Changed, and not saved yet."

# The two forms with no autosave: where they are, the box, and their button.
FORMS = {
    "changes": ("/entries/{key}/edit/", "textarea[name=r-what_happened]", "Save my changes"),
    "note": ("/entries/{key}/", "textarea[name=text]", "Add the note"),
}


def open_on(alice, context, which: str):
    entry = EntryFactory.create(assignment=alice, submitted_at=timezone.now())
    path, box, _button = FORMS[which]
    page = signed_in_tab(context)
    page.goto(path.format(key=entry.key))
    page.wait_for_load_state("load")
    page.wait_for_selector("html[data-quick-exit=ready]", state="attached")
    return page, entry, page.locator(box)


def type_into(page, box, words: str) -> None:
    # Typed as a person does: browsers ask before leaving only a page the
    # client has used (Chromium's "user activation").
    box.click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type(words)


def record_dialogs(page) -> list[str]:
    """Every dialog the page opens, by type; each is dismissed (the page stays)."""
    seen: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        seen.append(dialog.type)
        dialog.dismiss()

    page.on("dialog", dismiss)
    return seen


def kept(entry, which: str):
    """Whether the server holds the words: saved into the entry, or added as its note."""
    if which == "changes":
        return entry_says(entry, CHANGED)
    return lambda: EntryNote.objects.filter(entry=entry, text=CHANGED).exists()


def go_home(page) -> None:
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Home").click()


@pytest.mark.parametrize("which", ["changes", "note"])
def test_leaving_by_a_link_with_words_unsent_asks_first(alice, context, which):
    page, _entry, box = open_on(alice, context, which)
    url = page.url
    type_into(page, box, CHANGED)
    dialogs = record_dialogs(page)
    go_home(page)
    for _ in range(50):
        if dialogs:
            break
        page.wait_for_timeout(100)
    assert dialogs == ["beforeunload"]
    # Asked to stay, the page stays, and the words with it.
    page.wait_for_timeout(300)
    assert page.url == url
    expect(box).to_have_value(CHANGED)


@pytest.mark.parametrize("which", ["changes", "note"])
def test_nothing_typed_leaves_without_asking(alice, context, which):
    page, _entry, _box = open_on(alice, context, which)
    page.locator("h1").click()  # used, but nothing written
    dialogs = record_dialogs(page)
    go_home(page)
    page.wait_for_selector("#todo-title")
    assert dialogs == []


def test_leave_it_as_it_was_discards_the_changes_without_asking_again(alice, context):
    """The link that says it throws the changes away is the client's answer
    already: the browser's prompt after it would ask the same thing twice."""
    page, entry, box = open_on(alice, context, "changes")
    type_into(page, box, CHANGED)
    dialogs = record_dialogs(page)
    page.get_by_role("link", name="Leave it as it was").click()
    page.wait_for_url(f"**/entries/{entry.key}/")
    assert dialogs == []
    assert not entry_says(entry, CHANGED)()


@pytest.mark.parametrize("which", ["changes", "note"])
def test_sending_leaves_without_asking_and_nothing_is_asked_after(alice, context, which):
    page, entry, box = open_on(alice, context, which)
    type_into(page, box, CHANGED)
    dialogs = record_dialogs(page)
    page.get_by_role("button", name=FORMS[which][2]).click()
    expect(
        page.get_by_text("Your changes are saved." if which == "changes" else "Your note is added.")
    ).to_be_visible()
    go_home(page)
    page.wait_for_selector("#todo-title")
    assert dialogs == []
    assert kept(entry, which)()
    assert EntryNote.objects.filter(entry=entry).count() == (which == "note")  # sent once


@pytest.mark.parametrize("which", ["changes", "note"])
def test_the_quick_exit_leaves_at_once_and_keeps_the_words(alice, context, which):
    page, entry, box = open_on(alice, context, which)
    type_into(page, box, CHANGED)
    dialogs = record_dialogs(page)
    leave_with_shift(page)
    page.wait_for_url("https://www.bbc.co.uk/**", timeout=3_000)
    assert dialogs == []
    wait_for_db(kept(entry, which))


@pytest.mark.parametrize("which", ["changes", "note"])
def test_signing_out_sends_the_words_without_asking(alice, context, which):
    page, entry, box = open_on(alice, context, which)
    type_into(page, box, CHANGED)
    dialogs = record_dialogs(page)
    page.get_by_role("button", name="Sign out", exact=True).click()
    page.wait_for_url("**/login/**")
    assert dialogs == []
    wait_for_db(kept(entry, which))


@pytest.mark.parametrize("which", ["changes", "note"])
def test_the_idle_warning_sends_the_words_without_asking(alice, context, which):
    from practice.selectors import forget_practice_settings

    page, _entry = a_sent_entry_open_with_a_short_idle_timeout(
        alice, context, to_change=which == "changes"
    )
    type_into(page, page.locator(FORMS[which][1]), CHANGED)
    dialogs = record_dialogs(page)
    page.clock.fast_forward(31_000)  # the warning's moment: the words are sent
    expect(
        page.get_by_text("Your changes are saved." if which == "changes" else "Your note is added.")
    ).to_be_visible()
    assert dialogs == []
    forget_practice_settings()


@pytest.mark.parametrize("how", ["quick-exit", "sign-out"])
def test_leaving_from_another_tab_takes_this_one_without_asking(alice, context, how):
    """Another tab's quick exit, or "Sign out" there, clears this tab too,
    which carries or sends its words on the way: it must not stop to ask."""
    entry = EntryFactory.create(assignment=alice, submitted_at=timezone.now())
    first = signed_in_tab(context)
    second = another_tab(context, f"/entries/{entry.key}/edit/")
    type_into(second, second.locator(FORMS["changes"][1]), CHANGED)
    dialogs = record_dialogs(second)
    first.wait_for_selector("html[data-quick-exit=ready]", state="attached")
    if how == "quick-exit":
        leave_with_shift(first)
        second.wait_for_url("https://www.bbc.co.uk/**")
    else:
        first.get_by_role("button", name="Sign out", exact=True).click()
        second.wait_for_url("**/login/**")
    assert dialogs == []
    wait_for_db(entry_says(entry, CHANGED))
