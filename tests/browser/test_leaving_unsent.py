"""Changes to a sent entry, and a note added to one, are never autosaved: they
go only when the client presses their button. Left by a link (or Back, a
reload, closing the tab) they were gone without a word. The browser now asks
first (its own "Leave site?" prompt); but not when the page leaves on purpose,
carrying or sending the words: their own button, the quick exit, "Sign out",
the idle end. A page the server sent back refused, with the client's words
in the form to correct, holds words not sent too: it starts as unsaved."""

import time

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from homework.models import EntryNote
from tests.browser.helpers import (
    a_sent_entry_open_with_a_short_idle_timeout,
    another_tab,
    dialogs_on_going_home,
    entry_says,
    go_home,
    leave,
    leave_with_shift,
    record_dialogs,
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


def kept(entry, which: str):
    """Whether the server holds the words: saved into the entry, or added as its note."""
    if which == "changes":
        return entry_says(entry, CHANGED)
    return lambda: any(note.text == CHANGED for note in EntryNote.objects.filter(entry=entry))


@pytest.mark.parametrize("which", ["changes", "note"])
def test_leaving_by_a_link_with_words_unsent_asks_first(alice, context, which):
    page, _entry, box = open_on(alice, context, which)
    url = page.url
    type_into(page, box, CHANGED)
    assert dialogs_on_going_home(page) == ["beforeunload"]
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


def sent_and_left_without_a_question(page, entry, which: str) -> None:
    """Sent by its own button, then Home: no "Leave site?" at either, and the words kept."""
    dialogs = record_dialogs(page)
    page.get_by_role("button", name=FORMS[which][2]).click()
    expect(
        page.get_by_text("Your changes are saved." if which == "changes" else "Your note is added.")
    ).to_be_visible()
    go_home(page)
    page.wait_for_selector("#todo-title")
    assert dialogs == []
    assert kept(entry, which)()


@pytest.mark.parametrize("which", ["changes", "note"])
def test_sending_leaves_without_asking_and_nothing_is_asked_after(alice, context, which):
    page, entry, box = open_on(alice, context, which)
    type_into(page, box, CHANGED)
    sent_and_left_without_a_question(page, entry, which)
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
    leave(first, how, watched=second)
    assert dialogs == []
    wait_for_db(entry_says(entry, CHANGED))


# -- sent, and sent back refused, with the client's words in the form -------------------

IN_THE_FUTURE = "2099-01-01T10:00"  # refused: "That is in the future. When did it happen?"
OVER_LONG_NOTE = ("All of it, as it came back to me. " * 62).rstrip()  # 2,107: a note takes 2,000


def refused_with_words(alice, context, which: str):
    """Words typed and sent, and the page sent back with them in the form, to
    correct: a change with a time in the future, a note longer than a note may be."""
    page, entry, box = open_on(alice, context, which)
    return page, entry, box, send_refused(page, box, which)


def send_refused(page, box, which: str) -> str:
    """Type words the server refuses, send them: the words, back in the box."""
    if which == "changes":
        type_into(page, box, CHANGED)
        page.locator("input[name=r-occurred_at]").fill(IN_THE_FUTURE)
        words, says = CHANGED, "That is in the future."
    else:
        box.focus()
        page.keyboard.insert_text(OVER_LONG_NOTE)
        words, says = OVER_LONG_NOTE, "This can be up to 2,000 characters"
    page.get_by_role("button", name=FORMS[which][2]).click()
    expect(page.locator("main")).to_contain_text(says)
    page.wait_for_load_state("load")  # the page's scripts have all run
    page.wait_for_selector("html[data-quick-exit=ready]", state="attached")
    expect(box).to_have_value(words)
    return words


@pytest.mark.parametrize("which", ["changes", "note"])
def test_words_sent_back_refused_ask_before_leaving_by_a_link(alice, context, which):
    """Sent back to be corrected, the words are still not sent: the new page
    opened with them, and leaving it lost them without a word."""
    page, _entry, box, words = refused_with_words(alice, context, which)
    url = page.url
    assert dialogs_on_going_home(page) == ["beforeunload"]
    page.wait_for_timeout(300)
    assert page.url == url
    expect(box).to_have_value(words)


def test_an_empty_note_sent_back_leaves_without_asking(alice, context):
    """Nothing written, nothing to lose: the page says what to do, and lets go."""
    page, _entry, _box = open_on(alice, context, "note")
    page.get_by_role("button", name="Add the note").click()
    expect(page.locator("main")).to_contain_text("Write a few words here first.")
    page.wait_for_load_state("load")  # session.js has run: it could have asked
    dialogs = record_dialogs(page)
    go_home(page)
    page.wait_for_selector("#todo-title")
    assert dialogs == []


@pytest.mark.parametrize("which", ["changes", "note"])
def test_words_corrected_after_a_refusal_and_sent_leave_without_asking(alice, context, which):
    page, entry, box, _words = refused_with_words(alice, context, which)
    if which == "changes":
        page.locator("input[name=r-occurred_at]").fill(
            timezone.localtime().strftime("%Y-%m-%dT%H:%M")
        )
    else:
        type_into(page, box, CHANGED)
    sent_and_left_without_a_question(page, entry, which)


def test_the_quick_exit_carries_words_sent_back_refused(alice, context):
    """The page sent back holds the client's words: the quick exit takes them
    with it, as it takes words typed since the page opened."""
    page, _entry, _box, words = refused_with_words(alice, context, "note")
    carried: list[str] = []

    def note_what_goes(route) -> None:
        carried.append(route.request.post_data or "")
        route.continue_()

    page.route("**/exit/", note_what_goes)
    dialogs = record_dialogs(page)
    leave_with_shift(page)
    page.wait_for_url("https://www.bbc.co.uk/**", timeout=3_000)
    assert dialogs == []
    assert any("draft-text" in body and words[:30] in body for body in carried)


def server_session_ended(context) -> None:
    from django.contrib.sessions.backends.db import SessionStore

    from clients.middleware import LAST_SEEN

    [cookie] = [c for c in context.cookies() if c["name"] == "sessionid"]
    session = SessionStore(session_key=cookie["value"])
    session[LAST_SEEN] = time.time() - 3 * 60
    session.save()


def test_words_sent_back_refused_at_the_idle_warning_are_not_sent_again_and_the_page_clears(
    alice, context
):
    """The idle warning sends unsent words once. Sent back refused, the same
    words would be refused again: sending them at each warning would keep the
    session alive for ever, with the words on screen. The page that shows them
    warns, does not send, and clears at the idle end (the server has kept the
    words as the entry's unsent note, for next time)."""
    from practice.selectors import forget_practice_settings

    page, entry = a_sent_entry_open_with_a_short_idle_timeout(alice, context, to_change=False)
    box = page.locator("textarea[name=text]")
    box.focus()
    page.keyboard.insert_text(OVER_LONG_NOTE)
    page.clock.fast_forward(31_000)  # the warning's moment: the note goes, and comes back refused
    expect(page.locator("main")).to_contain_text("This can be up to 2,000 characters")
    page.wait_for_load_state("load")
    expect(box).to_have_value(OVER_LONG_NOTE)
    sent_again: list[str] = []
    page.on(
        "request",
        lambda request: sent_again.append(request.url) if request.method == "POST" else None,
    )
    page.clock.fast_forward(31_000)  # this page's warning: shown, and nothing sent
    expect(page.locator("#idle-warning")).to_be_visible()
    server_session_ended(context)  # its clock is the real one: as it would have by now
    page.clock.fast_forward(100_000)  # the idle end: nothing left on screen
    page.wait_for_url("**/login/?ended=idle")
    assert sent_again == []
    entry.refresh_from_db()
    assert entry.note_draft == OVER_LONG_NOTE and not entry.notes.exists()
    forget_practice_settings()


def test_the_quick_exit_as_a_page_sent_back_opens_leaves_without_asking(alice, context):
    """Shift pressed three times as the page sent back opens: the quick exit is
    ready before session.js has run (deferred scripts run one by one, and keys
    are handled between them). session.js, starting after the exit began, must
    still know the page is leaving on purpose: words sent back refused make the
    page unsaved from its start, and the browser would stop the exit to ask."""
    page, _entry, box = open_on(alice, context, "note")

    def session_script_after_the_exit_begins(route) -> None:
        script = route.fetch().text()
        later = (
            "document.addEventListener('portal:ending', function () {"
            f" setTimeout(function () {{ {script} }}, 0); }}, {{ once: true }});"
        )
        route.fulfill(body=later, content_type="text/javascript")

    page.route("**/js/session.js*", session_script_after_the_exit_begins)
    send_refused(page, box, "note")
    dialogs = record_dialogs(page)
    leave_with_shift(page)
    page.wait_for_url("https://www.bbc.co.uk/**", timeout=3_000)
    assert dialogs == []
