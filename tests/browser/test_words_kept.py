"""A client's words in a real browser when the page and the session part ways:
a sign-in or sign-out in another tab, and text longer than a field takes."""

import re
from typing import Any

from playwright.sync_api import expect

from homework.models import Entry
from tests.browser.helpers import (
    changing_a_sent_entry,
    draft_text,
    entry_says,
    leave,
    open_form,
    ready_to_send,
    sign_in,
    wait_for_db,
    when_any,
)
from tests.factories import PASSWORD


def _form_token(context, path: str) -> str:
    page = context.request.get(path).text()
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert match, f"no form token on {path}"
    return match.group(1)


# "Elsewhere" is a request made with this browser's cookies but from no tab:
# an open tab hears of a sign-out in another and clears itself once its words
# are on the server (quick-exit.js), so these stand for the pages that hear
# nothing: a phone's background tab, frozen until it is shown again.
def sign_out_elsewhere(context) -> None:
    """Signs out this browser's session (which clears the site's cookies)."""
    context.request.post("/logout/", form={"csrfmiddlewaretoken": _form_token(context, "/")})


def assert_told_signed_out_on(page, button: str) -> None:
    """``button`` clicked once the session is gone: the page says so, focused, and stays."""
    page.click(f"text={button}")
    failed = page.locator("#send-failed")
    expect(failed).to_contain_text("You have been signed out")
    expect(failed).to_be_focused()


def sign_in_again_elsewhere(context) -> None:
    """Signs out and in again: Django gives the session a new form token."""
    sign_out_elsewhere(context)
    answer = context.request.post(
        "/login/",
        form={
            "csrfmiddlewaretoken": _form_token(context, "/login/"),
            "username": "alice@example.test",
            "password": PASSWORD,
        },
    )
    assert "todo-title" in answer.text(), "signing in again did not reach To do"


def saved_and_ready_to_send(context, alice, words: str):
    """A new page with everything Send needs, its words saved as a draft."""
    page = context.new_page()
    open_form(page, alice)
    ready_to_send(page)
    box = page.locator("textarea[name=r-what_happened]")
    box.fill(words)
    expect(page.locator("#save-status")).to_have_attribute("data-state", "saved")
    return page, box


def sent_words(page, alice) -> str:
    """Sends the page and returns the words of the one entry that arrived."""
    page.click("text=Send to my therapist")
    page.wait_for_selector("text=Sent. Thank you")
    sent = Entry.objects.get(assignment=alice, status="submitted")
    return str(sent.response["what_happened"])


def test_sending_a_saved_page_after_signing_in_again_elsewhere_sends_it(alice, context):
    """Everything was saved, then the client signed in again in another tab:
    Send went out with the page's old token and met "This page had expired"."""
    page, _box = saved_and_ready_to_send(context, alice, "Saved before the other tab.")
    sign_in_again_elsewhere(context)
    page.bring_to_front()
    assert sent_words(page, alice) == "Saved before the other tab."


def test_sending_a_saved_page_after_signing_out_elsewhere_keeps_the_page(alice, context):
    page, box = saved_and_ready_to_send(context, alice, "Saved, then signed out in another tab.")
    sign_out_elsewhere(context)
    page.bring_to_front()
    assert_told_signed_out_on(page, "Send to my therapist")
    assert re.search(rf"/do/{alice.pk}/(\?key=[-0-9a-f]+)?$", page.url)  # the page stayed
    expect(box).to_have_value("Saved, then signed out in another tab.")


def test_changing_a_sent_entry_after_signing_in_again_elsewhere_saves_the_changes(alice, context):
    """The edit page has no autosave: its changes exist only on the page, and
    "This page had expired… reload the page" would have thrown them away."""
    page, entry = changing_a_sent_entry(alice, context)
    sign_in_again_elsewhere(context)
    page.bring_to_front()
    page.locator("textarea[name=r-what_happened]").fill("Changed after a sign-in elsewhere.")
    page.click("text=Save my changes")
    page.wait_for_selector("text=Your changes are saved")
    entry.refresh_from_db()
    assert entry.response["what_happened"] == "Changed after a sign-in elsewhere."


def test_changing_a_sent_entry_after_signing_out_elsewhere_keeps_the_changes(alice, context):
    page, entry = changing_a_sent_entry(alice, context)
    sign_out_elsewhere(context)
    page.bring_to_front()
    box = page.locator("textarea[name=r-what_happened]")
    box.fill("Changed after signing out elsewhere.")
    assert_told_signed_out_on(page, "Save my changes")
    expect(box).to_have_value("Changed after signing out elsewhere.")
    # The idle timeout keeps the page: the changes are on no server yet.
    assert page.evaluate("window.portalDraftPending()") is True
    # Signed in again in another tab (which this page, holding words the
    # server has not, stays open through), the same click saves them.
    other = context.new_page()
    sign_in(other, "alice@example.test", PASSWORD)
    other.wait_for_selector("#todo-title")
    page.bring_to_front()
    page.click("text=Save my changes")
    page.wait_for_selector("text=Your changes are saved")
    entry.refresh_from_db()
    assert entry.response["what_happened"] == "Changed after signing out elsewhere."


def test_text_pasted_past_a_fields_limit_is_kept_whole_and_the_client_is_told(alice, context):
    """The browser used to cut a paste at the field's limit without a word,
    and the page then said "Saved"."""
    page = context.new_page()
    open_form(page, alice)
    box = page.locator("textarea[name=r-what_happened]")
    words = "word " * 4100  # 20,500 characters; the limit is 20,000
    box.focus()
    page.keyboard.insert_text(words)
    expect(box).to_have_value(words)
    status = page.locator("#save-status")
    # Said once, at the field (limits.js); the status says only that it is not saved.
    expect(page.locator("#id_r-what_happened_count")).to_have_text(
        "This can be up to 20,000 characters; it has 20,500. Please shorten it."
    )
    expect(status).to_have_text("Not saved yet")
    assert page.evaluate("window.portalDraftPending()") is True
    # Shortened, it saves.
    box.fill(words[:19_000])
    expect(status).to_have_attribute("data-state", "saved")
    assert draft_text(alice) == words[:19_000]


def test_words_typed_after_a_send_that_was_stopped_are_saved_and_sent(alice, context):
    """A slow send, stopped (the browser's stop button, Escape) or come back to
    (Back restoring the page as it was): the page stayed, and stayed blocked,
    so what the client typed next was never saved and Send did nothing."""
    page, box = saved_and_ready_to_send(context, alice, "Before the slow send.")
    sends: list[Any] = []
    # The page's address carries its key (autosave.js): any query after it.
    do_page = re.compile(rf"/do/{alice.pk}/(\?.*)?$")
    page.route(do_page, lambda route: sends.append(route))  # a server that hangs
    # Clicked from the page: Playwright's own click would wait for the held send to arrive.
    page.evaluate(
        "setTimeout(() => document.querySelector('form.entry-form [type=submit]').click())"
    )
    when_any(page, sends)[0].abort("aborted")  # what the stop button does to a navigation
    page.unroute(do_page)
    box.press("End")
    box.type(" And after it.")
    wait_for_db(lambda: draft_text(alice) == "Before the slow send. And after it.")
    expect(page.locator("#save-status")).to_have_attribute("data-state", "saved")
    assert sent_words(page, alice) == "Before the slow send. And after it."


def test_words_typed_while_send_asks_for_a_fresh_token_go_with_it(alice, context):
    page, box = saved_and_ready_to_send(context, alice, "Before Send.")
    asks: list[Any] = []
    page.route("**/account/token/", lambda route: asks.append(route), times=1)  # a slow answer
    page.evaluate(
        "setTimeout(() => document.querySelector('form.entry-form [type=submit]').click())"
    )
    ask = when_any(page, asks)[0]
    box.press("End")
    box.type(" Typed as it went.")
    ask.continue_()
    wait_for_db(lambda: draft_text(alice) == "Before Send. Typed as it went.")
    assert sent_words(page, alice) == "Before Send. Typed as it went."


def test_closing_the_tab_right_after_signing_in_again_elsewhere_keeps_the_last_words(
    alice, context
):
    """Back from the tab where they signed in again, the client types a few
    words and closes the page before the pause that saves them: the save
    sent as the page goes carried the old token and was refused."""
    page = context.new_page()
    open_form(page, alice)
    box = page.locator("textarea[name=r-what_happened]")
    box.fill("Saved earlier.")
    expect(page.locator("#save-status")).to_have_attribute("data-state", "saved")
    back_after_signing_in_again_elsewhere(page, context)
    box.press("End")
    box.type(" Last words.", delay=5)
    page.close(run_before_unload=True)
    wait_for_db(lambda: draft_text(alice) == "Saved earlier. Last words.")


def test_quick_exit_from_changes_after_signing_in_again_elsewhere_keeps_them(alice, context):
    """The quick exit saves a page's last changes only with the session's
    current token; a page come back to after a sign-in elsewhere had the old one."""
    page, entry = changing_a_sent_entry(alice, context)
    back_after_signing_in_again_elsewhere(page, context)
    page.locator("textarea[name=r-what_happened]").fill("Changed, then I had to leave.")
    leave(page, "quick-exit")
    wait_for_db(entry_says(entry, "Changed, then I had to leave."))


def test_a_note_pasted_past_its_limit_is_kept_whole_and_the_client_is_told(alice, context):
    page, entry = a_sent_entrys_note_page(alice, context)
    box = page.locator("textarea[name=text]")
    words = "note " * 420  # 2,100 characters; a note takes 2,000
    box.focus()
    page.keyboard.insert_text(words)
    expect(box).to_have_value(words)
    page.click("text=Add the note")
    expect(page.locator("main")).to_contain_text("This can be up to 2,000 characters")
    expect(page.locator("textarea[name=text]")).to_have_value(words)
    assert not entry.notes.exists()


HIDDEN = """() => {
    Object.defineProperty(document, "visibilityState", {value: "hidden", configurable: true});
    document.dispatchEvent(new Event("visibilitychange"));
}"""
VISIBLE = """() => {
    Object.defineProperty(document, "visibilityState", {value: "visible", configurable: true});
    document.dispatchEvent(new Event("visibilitychange"));
}"""


def back_after_signing_in_again_elsewhere(page, context) -> None:
    """The tab hidden while the client signs in again in another, then shown again."""
    page.evaluate(HIDDEN)
    sign_in_again_elsewhere(context)
    page.evaluate(VISIBLE)
    page.wait_for_timeout(500)  # (a look at the server, as any tab shown again may take)


def a_sent_entrys_note_page(alice, context):
    page, entry = changing_a_sent_entry(alice, context)
    page.goto(f"/entries/{entry.key}/")
    return page, entry


def test_adding_a_note_after_signing_in_again_elsewhere_adds_it(alice, context):
    """The note form has no autosave: its words are only on the page, which
    stays open through a sign-out elsewhere (quick-exit.js keeps a page with
    words the server has not). Sent with the page's old token, the note met
    "This page had expired" and was gone."""
    page, entry = a_sent_entrys_note_page(alice, context)
    page.locator("textarea[name=text]").fill("Written before the other tab.")
    sign_in_again_elsewhere(context)
    page.bring_to_front()
    page.click("text=Add the note")
    expect(page.locator(".plain-list")).to_contain_text("Written before the other tab.")
    assert [note.text for note in entry.notes.all()] == ["Written before the other tab."]


def test_adding_a_note_after_signing_out_elsewhere_keeps_the_note(alice, context):
    page, entry = a_sent_entrys_note_page(alice, context)
    box = page.locator("textarea[name=text]")
    box.fill("Written, then signed out in another tab.")
    sign_out_elsewhere(context)
    page.bring_to_front()
    assert_told_signed_out_on(page, "Add the note")
    expect(box).to_have_value("Written, then signed out in another tab.")
    assert not entry.notes.exists()


def test_quick_exit_from_a_note_after_signing_in_again_elsewhere_keeps_it(alice, context):
    """The exit adds a note only with the session's current token: the note
    page, come back to after a sign-in elsewhere, had the old one."""
    page, entry = a_sent_entrys_note_page(alice, context)
    back_after_signing_in_again_elsewhere(page, context)
    page.locator("textarea[name=text]").fill("A note, then I had to leave.")
    leave(page, "quick-exit")
    wait_for_db(lambda: any(n.text == "A note, then I had to leave." for n in entry.notes.all()))
