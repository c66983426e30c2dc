"""Changing the password from Settings, with the keyboard alone."""

from playwright.sync_api import expect

from tests.browser.helpers import assert_accessible, sign_in
from tests.factories import PASSWORD, ClientFactory

NEW = "a quiet river morning"


def type_passwords(page, current: str, new: str, again: str) -> None:
    """From the current-password box: type, Tab on, and send with Enter."""
    for words in (current, new, again):
        page.keyboard.type(words)
        page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Change my password")).to_be_focused()
    page.keyboard.press("Enter")


def test_a_client_changes_their_password_with_the_keyboard_alone(db, new_context):
    """Other devices signed out and the boxes sent back empty are shown over HTTP
    (tests/clients/test_password_change.py); here, the keyboard's way through."""
    ClientFactory.create(portal_user__email="alice@example.test")
    page = new_context().new_page()
    sign_in(page, "alice@example.test", PASSWORD)
    page.goto("/account/")
    page.focus("#id_old_password")

    # A slip: the summary opens with focus and leads back to the box.
    type_passwords(page, "not my password", NEW, NEW)
    summary = page.locator("#error-summary")
    expect(summary).to_be_focused()
    expect(summary).to_contain_text("That password is not right.")
    assert_accessible(page)
    page.keyboard.press("Tab")
    expect(summary.locator("a[href='#id_old_password']")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#id_old_password")).to_be_focused()
    # Nothing typed comes back from the server: every box is empty again.
    for name in ("old_password", "new_password1", "new_password2"):
        expect(page.locator(f"input[name={name}]")).to_have_value("")

    type_passwords(page, PASSWORD, NEW, NEW)
    expect(page.locator(".messages")).to_contain_text(
        "Anyone signed in with your old password, on any device, has been signed out."
    )
    assert_accessible(page)
    page.goto("/")  # this device carries on
    assert "/login/" not in page.url
