"""Back, after leaving, in a browser with its back/forward cache on.

Playwright launches Chromium with that cache off (--disable-back-forward-cache),
so Back in the other browser tests always asks the server again, and proves
nothing about the cache: a page restored from it would come back as it was
left, what the client wrote included, with no request at all. Here the
cache is on, as in the browsers clients use. What keeps portal pages out of
it is ``Cache-Control: no-store`` (practice.middleware.private_pages_middleware).
"""

import pytest
from django.utils import timezone

from practice.models import User
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.browser.helpers import sign_in
from tests.factories import PASSWORD, AssignmentFactory, ClientFactory, TherapistFactory

TITLE = "Keep the full picture"


@pytest.fixture(scope="module")
def browser_with_back_cache(playwright):
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        ignore_default_args=["--disable-back-forward-cache"],
    )
    yield browser
    browser.close()


@pytest.fixture
def page(browser_with_back_cache, live_server, db):
    therapist = TherapistFactory.create()
    client = ClientFactory.create(therapist=therapist, portal_user__email="alice@example.test")
    User.objects.filter(email="alice@example.test").update(exit_note_dismissed_at=timezone.now())
    AssignmentFactory.create(client=client, exercise__title=TITLE)
    context = browser_with_back_cache.new_context(base_url=live_server.url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.route(
        "https://www.bbc.co.uk/**",
        lambda route: route.fulfill(body="<title>Weather</title>", content_type="text/html"),
    )
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")
    # Left before its "load" (a loaded machine), the page is also kept out
    # as still loading, Chromium's "navigating", whatever its headers say.
    page.wait_for_load_state("load")
    yield page
    context.close()


def back(page) -> None:
    # A page restored from the cache fires no "load": wait for the commit.
    page.go_back(wait_until="commit")
    page.wait_for_timeout(500)
    page.wait_for_load_state("domcontentloaded")


def test_the_cache_is_on_here_and_only_no_store_keeps_portal_pages_out(page):
    page.goto("/history/")
    back(page)
    reasons = page.evaluate(
        "performance.getEntriesByType('navigation')[0].notRestoredReasons.reasons"
    )
    assert [reason["reason"] for reason in reasons] == ["response-cache-control-no-store"]


@pytest.mark.parametrize("how", ["sign-out", "quick-exit"])
def test_back_after_leaving_brings_back_no_page_of_the_notebook(page, how):
    page.evaluate("window.leftAsItWas = true")  # the To do page, with the exercise's title
    page.goto("/history/")
    page.wait_for_selector("html[data-quick-exit=ready]", state="attached")
    page.evaluate("window.leftAsItWas = true")
    if how == "sign-out":
        page.get_by_role("button", name="Sign out", exact=True).click()
        page.wait_for_url("**/login/")
    else:
        for _ in range(3):
            page.keyboard.press("Shift")
        page.wait_for_url("https://www.bbc.co.uk/**")
    back(page)
    assert "/login/" in page.url
    assert page.evaluate("window.leftAsItWas === undefined")
    assert TITLE not in page.content()


def test_back_after_sending_shows_what_was_sent_not_a_blank_form(page):
    from homework.models import Assignment, Entry
    from tests.browser.helpers import choose_distress

    words = "He took my keys and laughed."
    assignment = Assignment.objects.get(exercise__title=TITLE)
    page.goto(f"/do/{assignment.pk}/")
    page.wait_for_selector("textarea[name=r-what_happened]")
    page.wait_for_load_state("load")
    assert "key=" in page.url  # the page names itself in its address (autosave.js)
    page.fill("textarea[name=r-what_happened]", words)
    choose_distress(page)
    page.get_by_role("button", name="Send to my therapist").click()
    page.wait_for_url("**/entries/**")
    sent = Entry.objects.get(assignment=assignment, status=Entry.Status.SUBMITTED)
    back(page)
    page.wait_for_url(f"**/entries/{sent.key}/")
    assert words in page.content()
    assert page.locator("textarea[name=r-what_happened]").count() == 0
    assert page.get_by_text("This was sent. Here it is, just as you sent it.").is_visible()
