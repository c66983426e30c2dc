"""The link shown once has a button that copies it and says so, to a screen reader too."""

from playwright.sync_api import expect

from tests.browser.helpers import assert_accessible, staff_signed_in


def test_copy_the_link_copies_it_and_announces_copied(casey, new_context, live_server):
    context = new_context(1280, 900)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    staff_signed_in(page, live_server, "tara@example.test")
    page.goto(f"/admin/clients/client/{casey.pk}/invite/")
    page.click("input[type=submit][value='Make the link']")
    link = page.locator("#invite-link").input_value()
    copy = page.get_by_role("button", name="Copy the link")
    copy.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("status")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == link
    assert_accessible(page, "the invitation's link")
