"""Two ways an audit lost a client's words on a page that autosaves.

- Two tabs on one draft: the other tab's save makes this one's refused, and
  the box showing both versions took the keyboard's focus as it opened.
  Whatever the client typed on went nowhere.
- A reload within a second of typing: the words went only as the page left,
  arriving after the reloaded page was built blank. The next words then met
  them as "saved from another tab or device" (there was one tab), and
  leaving again lost them without a prompt.
"""

import uuid

import pytest
from playwright.sync_api import Dialog, expect

from homework.models import Entry
from homework.services import Flags, PageSave, entry_save_draft
from tests.browser.helpers import (
    another_tab,
    dialogs_on_going_home,
    draft_text,
    leave,
    open_form,
    wait_for_db,
)

BOX = "textarea[name=r-what_happened]"


def saved(page) -> None:
    expect(page.locator("#save-status")).to_have_attribute("data-state", "saved")


def type_at_the_end(page, words: str) -> None:
    """Typed as a person does (the browser asks before leaving only a page
    the client has used: Chromium's "user activation")."""
    page.locator(BOX).click()
    page.keyboard.press("ControlOrMeta+End")
    page.keyboard.type(words)


def two_tabs_on_one_draft(alice, context):
    """Tab A saves a draft; tab B opens it; A saves again: B is now stale."""
    first = context.new_page()
    open_form(first, alice)
    first.locator(BOX).fill("Started.")
    saved(first)
    second = another_tab(context, f"/do/{alice.pk}/")
    expect(second.locator(BOX)).to_have_value("Started.")
    first.locator(BOX).fill("Started. Then the first tab went on.")
    saved(first)
    return first, second


def test_typing_on_as_the_conflict_box_opens_keeps_the_cursor_and_every_word(alice, context):
    _first, second = two_tabs_on_one_draft(alice, context)
    box = second.locator(BOX)
    type_at_the_end(second, " FIRST-PART")
    conflict = second.locator("#autosave-conflict")
    expect(conflict).to_be_visible()
    # Announced, not focused: the cursor stays where the client is typing.
    expect(box).to_be_focused()
    expect(second.locator("#save-announce")).to_contain_text("just before the Send button")
    second.keyboard.type(" SECOND-PART")
    expect(box).to_have_value("Started. FIRST-PART SECOND-PART")
    # The words typed on are on no server: the page says so, and leaving asks first.
    assert second.evaluate("window.portalDraftPending()") is True
    assert dialogs_on_going_home(second) == ["beforeunload"]
    expect(box).to_have_value("Started. FIRST-PART SECOND-PART")

    second.get_by_role("button", name="Keep what is on this page").click()
    saved(second)
    assert draft_text(alice) == "Started. FIRST-PART SECOND-PART"
    assert Entry.objects.filter(assignment=alice).count() == 1


def drafts_of(assignment) -> list[tuple[str, int]]:
    return sorted(
        (entry.response.get("what_happened", ""), entry.version)
        for entry in Entry.objects.filter(assignment=assignment, status=Entry.Status.DRAFT)
    )


@pytest.mark.parametrize("how", ["quick-exit", "sign-out"])
def test_leaving_in_a_hurry_while_the_conflict_box_is_open_keeps_both_versions(alice, context, how):
    """The box waits for a choice, and the client leaves at once: this page's
    words are kept as a draft of their own, the other tab's stays as it was,
    and nothing is sent."""
    _first, second = two_tabs_on_one_draft(alice, context)
    type_at_the_end(second, " FIRST-PART")
    expect(second.locator("#autosave-conflict")).to_be_visible()
    second.keyboard.type(" SECOND-PART")
    leave(second, how)
    both = [("Started. FIRST-PART SECOND-PART", 1), ("Started. Then the first tab went on.", 2)]
    wait_for_db(lambda: drafts_of(alice) == both)
    assert not Entry.objects.filter(assignment=alice, status=Entry.Status.SUBMITTED).exists()


@pytest.mark.parametrize("save", ["lost", "answered-late"])
def test_signing_out_keeps_the_words_whose_save_is_still_on_its_way_when_the_wait_ends(
    alice, context, save
):
    """A slow network or server: the page's last words are not answered when
    the sign-out can wait no longer (5 s). Sent on their own, they met a
    session already ended and were lost (a CI run on a busy machine); the
    sign-out now carries that same save, kept before the session ends, and a
    save the server did get in time is not written again as a new version."""
    _first, second = two_tabs_on_one_draft(alice, context)
    type_at_the_end(second, " FIRST-PART")
    expect(second.locator("#autosave-conflict")).to_be_visible()
    second.keyboard.type(" SECOND-PART")
    held = []
    if save == "lost":
        second.route("**/save/", lambda route: held.append(route), times=1)  # lost on its way
    else:
        # The server has it; its answer is what is late.
        second.route("**/save/", lambda route: held.append((route, route.fetch())), times=1)
    leave(second, "sign-out")
    assert len(held) == 1
    if save == "lost":
        held[0].abort()
    else:
        route, answer = held[0]
        route.fulfill(response=answer)  # to a page already gone
    both = [("Started. FIRST-PART SECOND-PART", 1), ("Started. Then the first tab went on.", 2)]
    wait_for_db(lambda: drafts_of(alice) == both)
    assert not Entry.objects.filter(assignment=alice, status=Entry.Status.SUBMITTED).exists()


def test_the_conflict_box_takes_focus_when_the_client_was_not_typing(alice, context):
    """A tick in a box, then the refusal: nothing is being typed, so a keyboard
    or screen-reader user is taken to the choice, where it is read out."""
    _first, second = two_tabs_on_one_draft(alice, context)
    second.get_by_label("I want to talk about this in session").check()
    expect(second.locator("#autosave-conflict h2")).to_be_focused()


def test_reloading_at_once_after_typing_asks_first_and_reopens_with_the_words(alice, context):
    page = context.new_page()
    open_form(page, alice)
    sentence = "A sentence typed just before the reload."
    type_at_the_end(page, sentence)
    asked: list[str] = []

    def answer_as_a_person_does(dialog: Dialog) -> None:
        asked.append(dialog.type)
        # The question takes a moment to read: the words go as it is asked.
        wait_for_db(lambda: draft_text(alice) == sentence)
        dialog.accept()

    page.on("dialog", answer_as_a_person_does)
    page.reload()
    page.wait_for_load_state("load")
    assert asked == ["beforeunload"]
    expect(page.locator(BOX)).to_have_value(sentence)
    assert Entry.objects.filter(assignment=alice).count() == 1


def test_a_draft_begun_after_the_page_opened_is_shown_beside_it_without_blaming_a_tab(
    alice, context
):
    """The reload's race, when it is lost all the same (no prompt, or a slow
    network): the old page's last words arrive after the new page was built
    blank. Both versions are shown, in words that allow it was this page."""
    page = context.new_page()
    open_form(page, alice)
    entry_save_draft(
        user=alice.client.portal_user,
        assignment_id=alice.pk,
        key=uuid.uuid4(),
        base_version=0,
        data={"what_happened": "The first sentence."},
        flags=Flags(),
        page_save=PageSave(page="thepagebeforethereload", number=1),
    )
    type_at_the_end(page, "Typed again after the reload.")
    conflict = page.locator("#autosave-conflict")
    expect(conflict).to_be_visible()
    expect(conflict).to_contain_text("The first sentence.")
    expect(conflict).to_contain_text("Typed again after the reload.")
    expect(conflict).to_contain_text("just before it was reloaded")
    expect(conflict).not_to_contain_text("another tab or device")
    expect(page.locator("#save-status")).not_to_contain_text("somewhere else")
    # This page's words are on no server yet: leaving asks first.
    asked = dialogs_on_going_home(page)
    assert asked == ["beforeunload"]
    assert draft_text(alice) == "The first sentence."
    # Choosing the other version lets them go, as it says: not asked again.
    page.get_by_role("link", name="Use the other version").click()
    page.wait_for_load_state("load")
    expect(page.locator(BOX)).to_have_value("The first sentence.")
    assert asked == ["beforeunload"]


def test_a_save_sent_to_outlive_the_page_is_not_sent_again_as_the_page_goes(alice, context):
    """Hidden (another app, another tab), the page sends its words in a save
    that finishes without it. Leaving while that save was on its way, it sent
    the same words again: only a newer version of the same words, which a
    page reopened meanwhile, holding the one before, met as a change made
    elsewhere."""
    page = context.new_page()
    open_form(page, alice)
    held = []
    page.route("**/save/", lambda route: held.append(route), times=1)  # on its way, held there
    saves: list[str] = []
    page.on(
        "request", lambda request: saves.append(request.url) if "/save/" in request.url else None
    )
    type_at_the_end(page, "Words on their way as the page was hidden.")
    page.evaluate(
        """() => {
            Object.defineProperty(document, "visibilityState", {value: "hidden", configurable: true});
            document.dispatchEvent(new Event("visibilitychange"));
        }"""
    )
    while not held:
        page.wait_for_timeout(100)  # (route handlers run while Playwright waits)
    # The page goes; anything it sends as it goes is sent before this marker.
    page.evaluate("""async () => {
        window.dispatchEvent(new Event("pagehide"));
        await fetch("/login/", {credentials: "same-origin"});
    }""")
    assert len(saves) == 1
