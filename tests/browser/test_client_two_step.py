"""A client's two-step sign-in on a phone (390 px): turned on with the
tap-to-add link beside the picture, recovery codes shown once, then back in
with a recovery code from the lost-phone page, which works once."""

from base64 import b32decode

from django_otp.oath import TOTP
from playwright.sync_api import Page, expect

from tests.browser.helpers import assert_accessible, sign_in
from tests.factories import PASSWORD


def sign_out(page: Page) -> None:
    page.locator("form[data-sign-out] button").first.click()
    page.wait_for_url("**/login/**")


def lost_phone_step(page: Page, code: str) -> None:
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_url("**/login/code/")
    page.get_by_role("link", name="Lost your phone? Use a recovery code").click()
    page.wait_for_url("**/login/lost-phone/")
    page.fill("input[name=code]", code)
    page.get_by_role("button", name="Sign in").click()


def test_turn_on_take_the_codes_then_sign_in_with_one_once(alice, new_context):
    page = new_context(390, 844).new_page()
    sign_in(page, "alice@example.test", PASSWORD)
    page.goto("/account/")
    page.get_by_role("button", name="Set up two-step sign-in").click()
    page.wait_for_url("**/account/two-step/")
    expect(page.locator(".qr-box svg")).to_be_visible()
    tap = page.get_by_role("link", name="On this phone? Add it to your app")
    expect(tap).to_be_visible()
    assert (tap.get_attribute("href") or "").startswith("otpauth://totp/")
    assert_accessible(page, "set-up, on a phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    secret = page.locator(".secret").inner_text().replace(" ", "")
    page.fill("input[name=token]", str(TOTP(b32decode(secret)).token()).zfill(6))
    page.get_by_role("button", name="Turn it on").click()
    # Sent by fetch and written in place (one-entry.js): the click does not wait for it.
    expect(page.locator("#recovery-codes code")).to_have_count(10)
    codes = page.locator("#recovery-codes code").all_inner_texts()
    assert len(set(codes)) == 10
    assert_accessible(page, "the recovery codes")
    page.get_by_role("link", name="I have kept them somewhere safe").click()
    page.wait_for_url("**/account/")
    expect(page.locator("body")).to_contain_text("10 recovery codes left")
    assert_accessible(page, "settings, two-step on")
    assert not any(code in page.content() for code in codes)  # shown once only

    sign_out(page)
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_url("**/login/code/")
    assert_accessible(page, "the second step")
    page.get_by_role("link", name="Lost your phone? Use a recovery code").click()
    page.wait_for_url("**/login/lost-phone/")
    expect(page.get_by_role("heading", name="No codes to hand?")).to_be_visible()
    assert_accessible(page, "the lost-phone page")
    page.fill("input[name=code]", codes[0])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/")
    expect(page.locator(".messages")).to_contain_text("9 are left")

    sign_out(page)
    lost_phone_step(page, codes[0])
    expect(page.locator("body")).to_contain_text("each works once")
    expect(page.locator("input[name=code]")).to_have_attribute("aria-invalid", "true")
    assert_accessible(page, "a used code refused")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_signing_out_keeps_only_the_device_cookie(alice, new_context):
    """Chrome itself: after signing out, the session is gone and the browser
    still counts as one this account signed in from (clients.lockout)."""
    context = new_context(390, 844)
    page = context.new_page()
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_url("**/")
    assert {"sessionid", "device"} <= {c["name"] for c in context.cookies()}
    sign_out(page)
    left = {c["name"] for c in context.cookies()}
    assert "sessionid" not in left and "device" in left
