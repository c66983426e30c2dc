"""A therapist's first sign-in in a real browser: set up the authenticator app,
sign in again with its code, then with a recovery code, which works once."""

import time
from base64 import b32decode

from django_otp.oath import TOTP
from playwright.sync_api import Page, expect

from tests.factories import PASSWORD, TherapistFactory


def password_step(page: Page) -> None:
    page.goto("/admin/login/")
    page.fill("input[name=username]", "tara@example.test")
    page.fill("input[name=password]", PASSWORD)
    page.click("#login-form [type=submit]")


def second_step(page: Page, code: str) -> None:
    page.wait_for_url("**/admin/login/code/")
    page.fill("input[name=code]", code)
    page.click("#login-form [type=submit]")


def sign_out(page: Page) -> None:
    page.click("#logout-form button")
    page.goto("/admin/login/")


def test_enrol_then_sign_in_with_the_apps_code_then_with_a_recovery_code_once(db, new_context):
    TherapistFactory.create(email="tara@example.test", name="Tara")
    page = new_context(1280, 900).new_page()

    password_step(page)
    page.wait_for_url("**/admin/login/enrol/")
    expect(page.locator(".qr-code svg")).to_be_visible()
    app = TOTP(b32decode(page.locator("#totp-secret").inner_text()))
    page.fill("input[name=code]", str(app.token()).zfill(6))
    page.click("#login-form [type=submit]")
    codes = page.locator("#recovery-codes code").all_inner_texts()
    assert len(codes) == 10
    page.get_by_role("link", name="I have kept them: continue").click()
    expect(page.locator("#logout-form")).to_be_visible()

    # The next code the app shows (its clock may run a step ahead, which django-otp
    # allows): the one just used to set it up cannot be used again.
    sign_out(page)
    password_step(page)
    app.time = time.time() + 30
    second_step(page, str(app.token()).zfill(6))
    expect(page.locator("#logout-form")).to_be_visible()

    sign_out(page)
    password_step(page)
    second_step(page, codes[0])
    expect(page.locator("#logout-form")).to_be_visible()

    sign_out(page)
    password_step(page)
    second_step(page, codes[0])
    expect(page.locator(".errorlist")).to_contain_text("each works once")
    page.goto("/admin/")
    page.wait_for_url("**/admin/login/**")
