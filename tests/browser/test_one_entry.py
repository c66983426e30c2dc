"""The portal keeps to one entry in the browser's history (static/js/one-entry.js),
so that Back after the quick exit reaches the page before it, not ours."""

from playwright.sync_api import expect

from tests.browser.helpers import assert_accessible, leave_with_shift, neutral_site
from tests.factories import PASSWORD

BEFORE = "https://before.example.test/"


def history_length(page) -> int:
    return int(page.evaluate("history.length"))


def replaces_itself(page) -> None:
    page.wait_for_selector("html[data-one-entry=ready]", state="attached")


def test_back_after_the_quick_exit_reaches_the_page_before_the_portal(alice, context):
    page = context.new_page()
    neutral_site(page)
    page.route(
        BEFORE + "**",
        lambda route: route.fulfill(
            body="<title>Recipes</title><p>Soup</p>", content_type="text/html"
        ),
    )
    page.goto(BEFORE)
    page.goto("/login/")
    replaces_itself(page)
    portal_entries = history_length(page)

    # A form sent back with its message takes the page's place, message and all.
    page.fill("input[name=username]", "alice@example.test")
    page.fill("input[name=password]", "not the password")
    page.click("[type=submit]:not(#quick-exit button)")
    expect(page.locator("#login-error")).to_be_visible()
    replaces_itself(page)
    page.fill("input[name=password]", PASSWORD)
    page.click("[type=submit]:not(#quick-exit button)")
    page.wait_for_selector("#todo-title")
    replaces_itself(page)

    page.get_by_role("link", name="Settings").click()
    page.wait_for_url("**/account/")
    replaces_itself(page)
    page.get_by_role("link", name="What I've written").click()
    page.wait_for_url("**/history/")
    replaces_itself(page)
    page.get_by_role("link", name="Settings").click()
    replaces_itself(page)
    # A POST answered with a page, the pressed button's name sent with it.
    page.get_by_role("button", name="Set up two-step sign-in").click()
    page.wait_for_url("**/two-step/**")
    expect(page.locator("input[name=token]")).to_be_visible()
    replaces_itself(page)
    assert_accessible(page, "a POST's answer written in place")
    assert history_length(page) == portal_entries

    leave_with_shift(page)
    page.wait_for_url("https://www.bbc.co.uk/**")
    page.go_back()
    assert page.url == BEFORE
    expect(page.get_by_text("Soup")).to_be_visible()
