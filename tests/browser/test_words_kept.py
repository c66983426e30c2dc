"""A client's words in a real browser when the page and the session part ways:
a sign-in or sign-out in another tab, and text longer than a field takes."""

from playwright.sync_api import expect

from tests.browser.test_portal import (
    draft_text,
    open_form,
)


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
    expect(status).to_have_attribute("data-state", "error")
    expect(status).to_contain_text("20,000")
    # Shortened, it saves.
    box.fill(words[:19_000])
    expect(status).to_have_attribute("data-state", "saved")
    assert draft_text(alice) == words[:19_000]
