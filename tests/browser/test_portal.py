"""The client portal in a real browser: getting in, never losing a word, leaving safely."""

import datetime as dt
import time

import pytest
from django.contrib.sessions.models import Session
from django.core import mail
from django.utils import timezone
from playwright.sync_api import APIResponse, Route, expect

from homework.models import Entry
from practice.models import User
from practice.selectors import practice_settings
from tests.browser.helpers import (
    TEXT_STORED_IN_BROWSER,
    a_sent_entry_open_with_a_short_idle_timeout,
    another_tab,
    another_tab_sends,
    assert_accessible,
    changing_a_sent_entry,
    choose_distress,
    draft_text,
    entry_says,
    leave,
    leave_with_shift,
    neutral_site,
    open_form,
    ready_to_send,
    send_once_saved,
    sign_in,
    signed_in_tab,
    wait_for_db,
)
from tests.factories import (
    PASSWORD,
    AssignmentFactory,
    EntryFactory,
)
from tests.helpers import finish_link

# -- getting in ----------------------------------------------------------------------


def test_invitation_to_first_record_to_the_therapists_admin(
    casey, new_context, artifacts, live_server, settings
):
    settings.SITE_URL = live_server.url  # the link the therapist copies
    client = casey
    AssignmentFactory.create(client=client, exercise__title="Keep the full picture")

    admin = new_context(1280, 900).new_page()
    sign_in(admin, "tara@example.test", PASSWORD, admin=True)
    admin.goto(f"/admin/clients/client/{client.pk}/change/")
    admin.click("text=Invite to portal")
    admin.click("input[type=submit][value='Make the link']")
    link = admin.input_value("#invite-link")
    admin.screenshot(path=artifacts / "admin-invite-1280.png", full_page=True)

    portal = new_context(360, 780).new_page()
    portal.goto(link)
    assert "/welcome/" in portal.url and link.rsplit("/", 2)[-2] not in portal.url
    assert_accessible(portal, "welcome")
    portal.fill("input[name=password1]", "quiet harbour 42")
    portal.fill("input[name=password2]", "not the same one")
    portal.click("form.stack button[type=submit]")
    expect(portal.locator("#id_password2_error")).to_contain_text("not the same")
    expect(portal.locator("#id_password2")).to_have_attribute("aria-invalid", "true")
    assert_accessible(portal, "welcome with errors")
    portal.screenshot(path=artifacts / "welcome-errors-360.png", full_page=True)
    portal.fill("input[name=password1]", "quiet harbour 42")
    portal.fill("input[name=password2]", "quiet harbour 42")
    portal.click("form.stack button[type=submit]")
    # The same page for any address; the email finishes (clients.services.invitation_acceptance).
    expect(portal.get_by_role("heading", name="Check your email")).to_be_visible()
    assert_accessible(portal, "check your email")
    [message] = mail.outbox
    portal.goto(finish_link(message))
    assert "/welcome/finish/" in portal.url and finish_link(message) not in portal.url
    assert_accessible(portal, "finish")
    portal.click("text=Open my notebook")
    portal.wait_for_selector("text=Your notebook is ready")
    expect(portal.locator("#exit-note")).to_be_visible()
    portal.screenshot(path=artifacts / "dashboard-first-visit-360.png", full_page=True)

    portal.click("a.button:has-text('Open')")
    portal.fill("textarea[name=r-what_happened]", "The first thing I wrote down.")
    ready_to_send(portal)
    portal.click("text=Send to my therapist")
    portal.wait_for_selector("text=Sent. Thank you")

    # The used link now gets a kind message.
    again = new_context().new_page()
    again.goto(link)
    expect(again.get_by_text("already been used")).to_be_visible()

    admin.goto("/admin/homework/entry/")
    expect(admin.get_by_text("The first thing I wrote down.")).to_be_visible()


# -- never losing a word -------------------------------------------------------------


def test_closing_the_page_before_the_debounce_keeps_the_words_on_the_server_only(alice, context):
    page = context.new_page()
    open_form(page, alice)
    secret = "Words typed just before the tab closed"
    page.fill("textarea[name=r-what_happened]", secret)  # then close at once: no debounce yet
    assert draft_text(alice) == ""
    page.close(run_before_unload=True)
    wait_for_db(lambda: draft_text(alice) == secret)

    again = context.new_page()
    again.goto(f"/do/{alice.pk}/")
    expect(again.locator("textarea[name=r-what_happened]")).to_have_value(secret)
    assert again.evaluate(TEXT_STORED_IN_BROWSER, secret) == []
    assert again.evaluate(TEXT_STORED_IN_BROWSER, "Words typed") == []
    assert all(secret not in cookie["value"] for cookie in context.cookies())


def test_changes_saved_offline_stay_on_the_page_until_the_connection_is_back(alice, context):
    page, entry = changing_a_sent_entry(alice, context)
    box = page.locator("textarea[name=r-what_happened]")
    box.fill("Changed on the train, where the signal comes and goes.")
    context.set_offline(True)
    page.click("text=Save my changes")
    expect(page.locator("#send-offline")).to_be_visible()
    expect(page.locator("#send-offline")).to_be_focused()
    assert page.url.endswith(f"/entries/{entry.key}/edit/")
    expect(box).to_have_value("Changed on the train, where the signal comes and goes.")
    assert page.evaluate(TEXT_STORED_IN_BROWSER, "signal comes") == []
    context.set_offline(False)
    expect(page.locator("#send-offline")).to_be_hidden()
    page.click("text=Save my changes")
    page.wait_for_url(f"**/entries/{entry.key}/")
    entry.refresh_from_db()
    assert (
        entry.response["what_happened"] == "Changed on the train, where the signal comes and goes."
    )


def test_changes_left_unsaved_are_saved_before_the_idle_end(alice, context):
    """Changing a sent entry has no autosave: the changes go to the server as
    the idle warning shows, while the session still runs."""
    from practice.selectors import forget_practice_settings

    page, entry = a_sent_entry_open_with_a_short_idle_timeout(alice, context, to_change=True)
    page.locator("textarea[name=r-what_happened]").fill(
        "Started to change this, then stepped away."
    )
    page.clock.fast_forward(31_000)  # the warning's moment
    page.wait_for_url(f"**/entries/{entry.key}/")
    expect(page.get_by_text("Your changes are saved.")).to_be_visible()
    entry.refresh_from_db()
    assert entry.response["what_happened"] == "Started to change this, then stepped away."
    forget_practice_settings()


def test_a_note_left_unsent_is_kept_before_the_idle_end(alice, context):
    """A note added to a sent entry has no autosave either: the page cleared
    at the idle end with the note on it, and it was gone. It now goes to the
    server as the warning shows, as changes to a sent entry do."""
    from homework.models import EntryNote
    from practice.selectors import forget_practice_settings

    page, entry = a_sent_entry_open_with_a_short_idle_timeout(alice, context, to_change=False)
    page.locator("textarea[name=text]").fill("One more thing I remembered.")
    page.clock.fast_forward(31_000)  # the warning's moment
    expect(page.get_by_text("Your note is added.")).to_be_visible()
    assert [note.text for note in EntryNote.objects.filter(entry=entry)] == [
        "One more thing I remembered."
    ]
    forget_practice_settings()


def test_offline_typing_is_kept_said_plainly_and_saved_when_back(alice, context, artifacts):
    page = context.new_page()
    open_form(page, alice)
    box = page.locator("textarea[name=r-what_happened]")
    box.type("Before the tunnel. ")
    expect(page.locator("#save-status")).to_have_attribute("data-state", "saved")
    context.set_offline(True)
    box.type("In the tunnel, still writing.")
    expect(page.locator("#save-status")).to_have_attribute("data-state", "offline", timeout=15_000)
    expect(page.locator("#save-status")).to_contain_text("offline")
    page.screenshot(path=artifacts / "autosave-offline-360.png", full_page=False)
    assert "In the tunnel" not in draft_text(alice)
    assert page.evaluate(TEXT_STORED_IN_BROWSER, "tunnel") == []
    # Sending now would leave for the browser's error page: the page stays.
    page.click("text=Send to my therapist")
    expect(page.locator("#send-offline")).to_be_visible()
    expect(box).to_have_value("Before the tunnel. In the tunnel, still writing.")
    context.set_offline(False)
    expect(page.locator("#send-offline")).to_be_hidden()
    expect(page.locator("#save-status")).to_have_attribute("data-state", "saved", timeout=15_000)
    assert draft_text(alice) == "Before the tunnel. In the tunnel, still writing."
    ready_to_send(page)
    send = page.locator("text=Send to my therapist")
    send.dblclick()
    page.wait_for_selector("text=Sent. Thank you")
    entries = Entry.objects.filter(assignment=alice)
    assert entries.count() == 1 and entries.get().is_submitted


LISTEN_TO_LIVE_REGIONS = """() => {
    window.__heard = [];
    const regions = document.querySelectorAll(
        "[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log]");
    const observer = new MutationObserver((records) => {
        const changed = new Set(records.map(r => [...regions].find(
            region => region.contains(r.target.nodeType === 1 ? r.target : r.target.parentNode))));
        for (const region of changed) if (region) window.__heard.push(region.textContent.trim());
    });
    regions.forEach(region => observer.observe(
        region, {childList: true, characterData: true, subtree: true}));
}"""


def test_autosave_speaks_once_when_saved_and_not_at_every_keystroke(alice, context):
    page = context.new_page()
    open_form(page, alice)
    page.evaluate(LISTEN_TO_LIVE_REGIONS)
    box = page.locator("textarea[name=r-what_happened]")
    status = page.locator("#save-status")
    for word in ("Four ", "words, ", "with ", "pauses."):
        box.press_sequentially(word, delay=40)
        expect(status).to_have_attribute("data-state", "saved")
    heard = [text for text in page.evaluate("window.__heard") if text]
    # Typing, waiting and saving are not news; that the words are safe is, once.
    assert heard == ["Saved."], heard
    # The time on screen reads as the server writes it (24-hour, the client's zone).
    shown = status.inner_text().strip()
    page.reload()
    expect(page.locator("#save-status")).to_have_text(shown)

    # Going offline is news, said once however often the page retries; so is being back.
    page.evaluate(LISTEN_TO_LIVE_REGIONS)
    context.set_offline(True)
    box.press_sequentially(" In the tunnel.", delay=40)
    expect(status).to_have_attribute("data-state", "offline", timeout=15_000)
    page.wait_for_timeout(2500)  # a retry or two
    context.set_offline(False)
    expect(status).to_have_attribute("data-state", "saved", timeout=15_000)
    heard = [text for text in page.evaluate("window.__heard") if text]
    assert len(heard) == 2 and "offline" in heard[0] and heard[1] == "Saved.", heard


def test_two_tabs_editing_one_draft_get_a_choice_with_both_texts(alice, context, artifacts):
    phone = context.new_page()
    open_form(phone, alice)
    phone.fill("textarea[name=r-what_happened]", "Started on the phone.")
    expect(phone.locator("#save-status")).to_have_attribute("data-state", "saved")
    laptop = context.new_page()
    laptop.goto(f"/do/{alice.pk}/")
    expect(laptop.locator("textarea[name=r-what_happened]")).to_have_value("Started on the phone.")

    laptop.fill("textarea[name=r-what_happened]", "Carried on at the laptop.")
    expect(laptop.locator("#save-status")).to_have_attribute("data-state", "saved")
    phone.fill("textarea[name=r-what_happened]", "Phone, an older tab, typing on.")
    conflict = phone.locator("#autosave-conflict")
    expect(conflict).to_be_visible()
    expect(conflict).to_contain_text("Phone, an older tab, typing on.")
    expect(conflict).to_contain_text("Carried on at the laptop.")
    expect(phone.locator("#save-status")).to_have_attribute("data-state", "conflict")
    assert_accessible(phone, "autosave conflict")
    phone.screenshot(path=artifacts / "conflict-360.png", full_page=True)
    assert draft_text(alice) == "Carried on at the laptop."  # nothing overwritten yet

    phone.click("text=Keep what is on this page")
    expect(phone.locator("#save-status")).to_have_attribute("data-state", "saved")
    assert draft_text(alice) == "Phone, an older tab, typing on."
    assert Entry.objects.filter(assignment=alice).count() == 1


def test_stale_tab_sending_after_another_tab_sent_keeps_both(alice, context):
    first = context.new_page()
    open_form(first, alice)
    first.fill("textarea[name=r-what_happened]", "Sent from the first tab.")
    choose_distress(first)
    expect(first.locator("#save-status")).to_have_attribute("data-state", "saved")
    another_tab_sends(context, alice)
    first.fill("textarea[name=r-what_happened]", "The first tab kept going.")
    expect(first.locator("#autosave-conflict")).to_contain_text("already sent")
    first.click("text=Keep mine as a separate entry")
    expect(first.locator("#save-status")).to_have_attribute("data-state", "saved")
    texts = sorted(e.response["what_happened"] for e in Entry.objects.filter(assignment=alice))
    assert texts == ["Sent from the first tab.", "The first tab kept going."]


# -- leaving safely ------------------------------------------------------------------


@pytest.mark.parametrize("how", ["button", "shift-three-times"])
def test_quick_exit_leaves_nothing_behind(alice, context, how):
    page = context.new_page()
    hits: list[str] = []
    neutral_site(page, hits)
    open_form(page, alice)
    page.fill("textarea[name=r-what_happened]", "Something private")
    page.wait_for_selector("html[data-quick-exit=ready]", state="attached")
    if how == "button":
        page.click("#quick-exit button")
    else:
        page.keyboard.press("Shift")
        page.keyboard.press("Shift")
        page.keyboard.press("Shift")
    page.wait_for_url("https://www.bbc.co.uk/**")
    assert hits
    page.go_back()
    page.wait_for_load_state()
    assert "Something private" not in page.content()
    assert "Keep the full picture" not in page.content()
    again = context.new_page()
    again.goto("/")
    assert "/login/" in again.url
    # The words typed just before leaving reached the server first.
    wait_for_db(lambda: draft_text(alice) == "Something private")


@pytest.mark.parametrize("how", ["quick-exit", "sign-out"])
def test_back_after_leaving_shows_no_helpline_by_name_until_asked(alice, context, how):
    """Back, after leaving, finds the sign-in page. Its footer listed the
    practice's crisis lines by name ("National Domestic Abuse Helpline…"),
    which says what the site is for to whoever picks up the device, and its
    address named the page just left (?next=/history/). The lines are one
    press away under "Urgent help"; the address names nothing."""
    lines = practice_settings().crisis_lines
    page = signed_in_tab(context)
    page.goto("/history/")
    page.wait_for_selector("html[data-quick-exit=ready]", state="attached")
    expect(page.get_by_text(lines[1])).to_be_visible()  # signed in: open, as before
    leave(page, how)
    if how != "quick-exit":
        page.goto("/help-now/")  # somewhere else, so that Back is Back
    page.go_back()
    page.wait_for_selector("[data-signed-out-page]")
    assert page.url.endswith("/login/"), page.url
    for line in lines:
        expect(page.get_by_text(line)).to_be_hidden()
    expect(page.get_by_text("If you need someone now")).to_have_count(0)
    assert_accessible(page, "the sign-in page, help folded")

    # Reached with the keyboard, and heard as something that opens.
    urgent = page.locator("summary", has_text="Urgent help")
    urgent.focus()
    page.keyboard.press("Enter")
    expect(page.locator("details.urgent-help")).to_have_attribute("open", "")
    for line in lines:
        expect(page.get_by_text(line)).to_be_visible()
    assert_accessible(page, "the sign-in page, help open")


def first_save_on_the_way(page, words: str) -> None:
    """Type ``words``: the autosave that follows reaches the server, and its
    reply is held, so the page goes on counting that save as on the way."""
    held: list[APIResponse] = []
    # Only the first: the page's later saves go straight through.
    page.route("**/save/", lambda route: held.append(route.fetch()), times=1)
    page.locator("textarea[name=r-what_happened]").fill(words)
    while not held:
        page.wait_for_timeout(100)  # (route handlers run while Playwright waits)


def test_quick_exit_keeps_the_last_words_while_a_save_is_still_on_the_way(alice, context):
    page = context.new_page()
    neutral_site(page)
    open_form(page, alice)
    first_save_on_the_way(page, "The first words")
    assert draft_text(alice) == "The first words"
    page.locator("textarea[name=r-what_happened]").fill("The first words, and the last ones")
    leave_with_shift(page)
    page.wait_for_url("https://www.bbc.co.uk/**")
    wait_for_db(lambda: draft_text(alice) == "The first words, and the last ones")


def test_closing_the_tab_keeps_the_last_words_while_a_save_is_still_on_the_way(alice, context):
    page = context.new_page()
    open_form(page, alice)
    first_save_on_the_way(page, "The first words")
    assert draft_text(alice) == "The first words"
    page.locator("textarea[name=r-what_happened]").fill("The first words, and the last ones")
    page.close(run_before_unload=True)
    wait_for_db(lambda: draft_text(alice) == "The first words, and the last ones")


def test_a_save_the_server_cannot_take_stops_and_says_where_the_words_are(alice, context):
    page = context.new_page()
    open_form(page, alice)
    page.route("**/save/", lambda route: route.fulfill(status=404, body="<html>Not found</html>"))
    box = page.locator("textarea[name=r-what_happened]")
    box.fill("Words with nowhere to go")
    status = page.locator("#save-status")
    expect(status).to_contain_text("can no longer be saved here")
    expect(status).to_have_attribute("data-state", "error")
    expect(box).to_have_value("Words with nowhere to go")


def test_quick_exit_from_changing_a_sent_entry_keeps_the_changes(alice, context):
    page, entry = changing_a_sent_entry(alice, context)
    page.locator("textarea[name=r-what_happened]").fill("Added just before I had to leave.")
    leave_with_shift(page)
    page.wait_for_url("https://www.bbc.co.uk/**")
    wait_for_db(entry_says(entry, "Added just before I had to leave."))


def test_quick_exit_keeps_a_note_being_added(alice, context):
    from homework.models import EntryNote

    entry = EntryFactory.create(assignment=alice, submitted_at=timezone.now())
    page = signed_in_tab(context)
    page.goto(f"/entries/{entry.key}/")
    page.wait_for_load_state("load")
    page.locator("textarea[name=text]").fill("Adding this as I had to leave.")
    leave_with_shift(page)
    page.wait_for_url("https://www.bbc.co.uk/**")
    wait_for_db(lambda: EntryNote.objects.filter(entry=entry).exists())
    assert EntryNote.objects.get(entry=entry).text == "Adding this as I had to leave."


def test_quick_exit_keeps_the_changes_left_unsaved_in_another_tab_when_the_server_is_slow(
    alice, context
):
    """Each tab once sent its own unsaved words as the exit began: the other
    tab's request, slower to reach the server than the one that signs out
    (a loaded machine), found the session over, and its words were lost."""
    entry = EntryFactory.create(assignment=alice, submitted_at=timezone.now())
    first = signed_in_tab(context)
    second = another_tab(context, f"/entries/{entry.key}/edit/")
    held: list[Route] = []
    # The slow server: whatever the second tab sends waits until the session has ended.
    second.route(
        "**/*",
        lambda route: held.append(route) if route.request.method == "POST" else route.fallback(),
    )
    second.locator("textarea[name=r-what_happened]").fill("Written in the other tab.")
    leave_with_shift(first)
    first.wait_for_url("https://www.bbc.co.uk/**")
    second.wait_for_url("https://www.bbc.co.uk/**")
    wait_for_db(lambda: not Session.objects.exists())
    for route in held:
        route.continue_()
    assert entry_says(entry, "Written in the other tab.")()


def test_quick_exit_takes_the_other_open_tabs_away_too(alice, context):
    first = signed_in_tab(context)
    second = another_tab(context, "/history/")
    leave_with_shift(first)
    first.wait_for_url("https://www.bbc.co.uk/**")
    second.wait_for_url("https://www.bbc.co.uk/**")


@pytest.mark.parametrize(
    ("where", "button"),
    [("/", "Sign out"), ("/account/", "Sign out on every device")],
)
def test_signing_out_takes_the_other_open_tabs_to_the_sign_in_page(alice, context, where, button):
    """A second tab left open on what the client wrote stayed on screen after
    they signed out in the first, for whoever picks up the device next."""
    first = signed_in_tab(context)
    first.goto(where)
    second = another_tab(context, "/history/")
    first.wait_for_selector("html[data-quick-exit=ready]", state="attached")
    first.get_by_role("button", name=button, exact=True).click()
    first.wait_for_url("**/login/**")
    second.wait_for_url("**/login/**")
    assert "Keep the full picture" not in second.content()


def slow_saves_and_the_sign_out(signing_out, saving, order: list[str]) -> None:
    """The slow server: ``saving``'s saves wait until ``signing_out`` says it
    waits for them, or has signed out without waiting (the sign-in page
    opened); ``order`` records each save let through and the sign-out.

    The pages' timers run only when told, so a sign-out cannot go at the end
    of its wait (5 s) instead of on the saves' answers; a second passes as a
    save arrives (a tenth was all the sign-out once waited)."""
    clock = signing_out.context.clock
    clock.pause_at(dt.datetime.now(dt.UTC) + dt.timedelta(seconds=1))

    def signs_out(url: str) -> bool:
        return url.endswith(("/logout/", "/sign-out-everywhere/"))

    def slow_save(route: Route) -> None:
        if route.request.method != "POST" or signs_out(route.request.url):
            route.fallback()
            return
        clock.run_for(1000)
        signing_out.locator("html[data-signing-out=waiting], [data-signed-out-page]").wait_for(
            state="attached"
        )
        order.append("save let through")
        route.continue_()

    def sign_out(route: Route) -> None:
        order.append("signed out")
        route.fallback()

    saving.route("**/*", slow_save)
    signing_out.route(signs_out, sign_out)


@pytest.mark.parametrize(
    ("where", "button"),
    [("/", "Sign out"), ("/account/", "Sign out on every device")],
)
def test_signing_out_keeps_the_words_another_tab_had_not_saved_yet(alice, context, where, button):
    """The sign-out once went a tenth of a second after asking the other tabs
    to save: on a slow server the other tab's save arrived after the session
    had ended, and its words were lost."""
    entry = EntryFactory.create(assignment=alice, submitted_at=timezone.now())
    context.clock.install()
    first = signed_in_tab(context)
    first.goto(where)
    second = another_tab(context, f"/entries/{entry.key}/edit/")
    first.wait_for_selector("html[data-quick-exit=ready]", state="attached")
    order: list[str] = []
    slow_saves_and_the_sign_out(first, second, order)
    second.locator("textarea[name=r-what_happened]").fill("Written before signing out.")
    first.get_by_role("button", name=button, exact=True).click()
    first.wait_for_url("**/login/**")
    second.wait_for_url("**/login/**")
    assert order == ["save let through", "signed out"]
    assert entry_says(entry, "Written before signing out.")()


def test_signing_out_waits_for_this_tabs_own_save_when_the_server_is_slow(alice, context):
    context.clock.install()
    page = context.new_page()
    open_form(page, alice)
    order: list[str] = []
    slow_saves_and_the_sign_out(page, page, order)
    page.locator("textarea[name=r-what_happened]").fill("Typed just before signing out.")
    page.get_by_role("button", name="Sign out", exact=True).click()
    page.wait_for_url("**/login/**")
    assert order == ["save let through", "signed out"]
    assert draft_text(alice) == "Typed just before signing out."


def test_a_session_ended_in_another_tab_clears_the_open_pages_without_unsaved_words(alice, context):
    """The session ends in one tab without its "Sign out" button (its idle
    timer runs out and it opens the sign-in page; the sign-out address is
    typed): the history left open in another tab stayed on screen, a second
    idle period or more, though the notebook was closed. A page holding words
    not yet on the server keeps them (test_signing_in_again_in_another_tab_...)."""
    first = signed_in_tab(context)
    history = another_tab(context, "/history/")
    first.goto("/login/?ended=idle")  # as its idle timer does, once the session has ended
    first.wait_for_url("**/")  # still running: the sign-in page sends it home
    first.goto("/logout/")
    first.wait_for_url("**/login/")
    history.wait_for_url("**/login/**")


def test_signing_out_at_once_after_typing_keeps_the_words(alice, context):
    page = context.new_page()
    open_form(page, alice)
    page.locator("textarea[name=r-what_happened]").fill("Typed just before signing out.")
    page.get_by_role("button", name="Sign out", exact=True).click()
    page.wait_for_url("**/login/**")
    wait_for_db(lambda: draft_text(alice) == "Typed just before signing out.")


def test_quick_exit_is_the_first_thing_the_keyboard_reaches(alice, context):
    page = context.new_page()
    neutral_site(page)
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")
    page.wait_for_selector("html[data-quick-exit=ready]", state="attached")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.closest('#quick-exit') !== null")
    assert focused
    page.keyboard.press("Enter")
    page.wait_for_url("https://www.bbc.co.uk/**")


def test_exit_note_is_dismissed_once_and_for_all(alice, context):
    User.objects.filter(email="alice@example.test").update(exit_note_dismissed_at=None)
    page = context.new_page()
    sign_in(page, "alice@example.test", PASSWORD)
    note = page.locator("#exit-note")
    expect(note).to_contain_text("does not clear your browser's history")
    page.click("#exit-note button")
    expect(note).to_have_count(0)
    wait_for_db(lambda: User.objects.get(email="alice@example.test").exit_note_dismissed_at)
    page.reload()
    expect(page.locator("#exit-note")).to_have_count(0)
    assert page.evaluate("localStorage.length + sessionStorage.length") == 0


def test_idle_warning_then_the_screen_clears(alice, context, artifacts):
    from django.contrib.sessions.backends.db import SessionStore

    from clients.middleware import LAST_SEEN
    from practice.models import PracticeSettings
    from practice.selectors import forget_practice_settings

    PracticeSettings.objects.update_or_create(pk=1, defaults={"idle_timeout_minutes": 2})
    forget_practice_settings()
    page = context.new_page()
    page.clock.install()
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")
    page.wait_for_load_state("load")  # the idle timer is set by a deferred script
    warning = page.locator("#idle-warning")
    expect(warning).to_be_hidden()
    # A minute before the earliest the server may end it: the server notes
    # activity at most every 30 s, so 2 min - 30 s - 60 s after the last request.
    page.clock.fast_forward(31_000)
    expect(warning).to_be_visible()
    expect(page.locator("#idle-title")).to_be_focused()
    assert_accessible(page, "idle warning")
    page.screenshot(path=artifacts / "idle-warning-360.png")
    page.click("text=Stay signed in")
    expect(warning).to_be_hidden()

    # Now nobody answers: the server's clock runs out too, and the screen clears.
    [cookie] = [c for c in context.cookies() if c["name"] == "sessionid"]
    session = SessionStore(session_key=cookie["value"])
    session[LAST_SEEN] = time.time() - 3 * 60
    session.save()
    page.clock.fast_forward(140_000)
    page.wait_for_url("**/login/?ended=idle")
    expect(page.get_by_text("signed out after a quiet while")).to_be_visible()
    assert "Keep the full picture" not in page.content()
    forget_practice_settings()


def test_staying_signed_in_puts_focus_back_where_it_was(alice, context):
    from practice.models import PracticeSettings
    from practice.selectors import forget_practice_settings

    PracticeSettings.objects.update_or_create(pk=1, defaults={"idle_timeout_minutes": 2})
    forget_practice_settings()
    page = context.new_page()
    page.clock.install()
    open_form(page, alice)
    box = page.locator("textarea[name=r-what_happened]")
    box.focus()
    page.clock.fast_forward(31_000)  # the warning's moment
    expect(page.locator("#idle-warning")).to_be_visible()
    expect(page.locator("#idle-title")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator("#stay-signed-in button")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#idle-warning")).to_be_hidden()
    # Back in the box the client was writing in, not at the top of the page.
    expect(box).to_be_focused()
    forget_practice_settings()


def test_sending_when_the_server_cannot_be_reached_keeps_the_page_and_the_words(alice, context):
    """The browser says it is online, but nothing gets through (a dead Wi-Fi,
    a server down): Send must not leave for an error page with the words."""
    page = context.new_page()
    open_form(page, alice)
    choose_distress(page)
    page.route("**/save/", lambda route: route.abort("connectionreset"))
    box = page.locator("textarea[name=r-what_happened]")
    box.fill("Typed where nothing gets through.")
    page.click("text=Send to my therapist")
    failed = page.locator("#send-failed")
    expect(failed).to_be_visible()
    expect(failed).to_be_focused()
    expect(failed).to_contain_text("Not sent yet")
    assert page.url.split("?")[0].endswith(f"/do/{alice.pk}/")  # the page stayed
    expect(box).to_have_value("Typed where nothing gets through.")
    page.unroute("**/save/")
    page.click("text=Send to my therapist")
    page.wait_for_url("**/entries/**")
    sent = wait_for_db(lambda: Entry.objects.filter(assignment=alice, status="submitted").first())
    assert sent.response["what_happened"] == "Typed where nothing gets through."


def test_signing_in_again_in_another_tab_lets_an_open_page_carry_on_saving(alice, context):
    """Signing in gives a new form token; the open page fetches it rather than
    stopping with the words unsaved. (A page whose words are all saved goes
    to the sign-in page when the session ends: this one holds words the
    server does not have yet, which keep it.)"""
    page = context.new_page()
    open_form(page, alice)
    box = page.locator("textarea[name=r-what_happened]")
    box.type("Before. ")
    expect(page.locator("#save-status")).to_have_attribute("data-state", "saved")
    page.route("**/save/", lambda route: route.abort())
    box.type("Not saved yet. ")
    expect(page.locator("#save-status")).not_to_have_attribute("data-state", "saved")
    other = context.new_page()
    other.goto("/logout/")
    sign_in(other, "alice@example.test", PASSWORD)
    page.unroute("**/save/")
    other.wait_for_selector("#todo-title")
    box.type("After signing in again elsewhere.")
    wait_for_db(lambda: "After signing in again" in draft_text(alice))
    expect(page.locator("#save-status")).to_have_attribute("data-state", "saved")


def test_words_the_server_refused_keep_the_page_from_clearing(alice, context):
    page = context.new_page()
    open_form(page, alice)
    page.route(
        "**/save/",
        lambda route: route.fulfill(
            status=400,
            content_type="application/json",
            body='{"errors": {"what_happened": ["Too long."]}}',
        ),
    )
    page.locator("textarea[name=r-what_happened]").fill("Refused words.")
    expect(page.locator("#save-status")).to_have_attribute("data-state", "error")
    assert page.evaluate("window.portalDraftPending()") is True
    # Nor does Send take them off the page: it says what to change first.
    page.locator("form.entry-form button[type=submit]").click()
    expect(page.locator("#send-failed")).to_contain_text("Too long.")
    assert page.url.split("?")[0].endswith(f"/do/{alice.pk}/")  # the page stayed


def test_changes_stopped_offline_stay_marked_as_not_saved(alice, context):
    page, _entry = changing_a_sent_entry(alice, context)
    page.locator("textarea[name=r-what_happened]").fill("Changed offline.")
    context.set_offline(True)
    page.evaluate("document.querySelector('form[data-save-before-idle]').requestSubmit()")
    expect(page.locator("#send-offline")).to_be_visible()
    # The idle timeout must keep this page: its changes are on no server.
    assert page.evaluate("window.portalDraftPending()") is True
    context.set_offline(False)


def test_sending_after_the_page_was_hidden_mid_save_is_not_a_conflict(alice, context):
    """Hidden while a save is on the way (switching app, another tab), the
    page sends its words again; back, the client sends without typing more.
    The server holds the page's own later save: no "changed elsewhere"."""
    page = context.new_page()
    open_form(page, alice)
    ready_to_send(page)
    held: list[tuple[Route, APIResponse]] = []
    page.route("**/save/", lambda route: held.append((route, route.fetch())), times=1)
    page.locator("textarea[name=r-what_happened]").fill("Written before I looked away.")
    while not held:
        page.wait_for_timeout(100)  # (route handlers run while Playwright waits)
    saved = Entry.objects.get(assignment=alice, status="draft")
    page.evaluate(
        """() => {
            Object.defineProperty(document, "visibilityState", {value: "hidden", configurable: true});
            document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )
    # (Waiting in the page, not in Python: the route is looked at only while Playwright waits.)
    for _ in range(100):
        if Entry.objects.get(pk=saved.pk).version > saved.version:
            break
        page.wait_for_timeout(100)
    assert Entry.objects.get(pk=saved.pk).version == saved.version + 1
    page.evaluate(
        """() => {
            Object.defineProperty(document, "visibilityState", {value: "visible", configurable: true});
            document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )
    route, reply = held[0]
    route.fulfill(response=reply)  # the first save's answer comes after all
    send_once_saved(page)
    assert Entry.objects.get(pk=saved.pk).is_submitted
