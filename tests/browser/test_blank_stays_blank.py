"""A blank stays a blank, in a real browser: "When did it happen?" opens
empty, autosaves empty, and takes a time only from the client's own press of
"It is happening now"."""

from playwright.sync_api import expect

from homework.models import Entry
from tests.browser.helpers import open_form, wait_for_db


def draft_of(assignment) -> Entry | None:
    return Entry.objects.filter(assignment=assignment, status=Entry.Status.DRAFT).first()


def test_the_time_stays_blank_until_the_client_gives_it(alice, context):
    page = context.new_page()
    open_form(page, alice)
    when = page.locator("input[name=r-occurred_at]")
    expect(when).to_have_value("")
    page.locator("textarea[name=r-what_happened]").fill("It started at dinner.")
    wait_for_db(
        lambda: (d := draft_of(alice)) is not None and "dinner" in d.response["what_happened"]
    )
    draft = draft_of(alice)
    assert draft is not None and not draft.response.get("occurred_at")

    page.get_by_role("button", name="It is happening now").click()
    expect(when).not_to_have_value("")
    wait_for_db(lambda: bool((d := draft_of(alice)) and d.response.get("occurred_at")))
