"""Details found on a phone (390 x 844): a text's limit said once at the field, the support
network at five people, and the browser's history kept to one entry for the portal."""

from playwright.sync_api import expect

from tests.browser.helpers import assert_accessible, opened_by_a_new_client
from tests.browser.test_kinds_browser import exercise_of


def test_a_text_past_its_limit_says_so_once_at_the_field_with_a_count_before(db, page):
    """The message showed twice beside Send, in two styles: the autosave's status and the
    refused send's box. Now the field counts as the limit nears, and past it says the
    server's sentence there, once; Send takes the client to it."""
    opened_by_a_new_client(page, exercise_of("support_network"))
    name = page.locator("input[name=r-people-0-name]")
    count = page.locator("#id_r-people-0-name_count")
    name.fill("x" * 30)
    expect(count).to_be_hidden()
    name.fill("x" * 37)
    expect(count).to_have_text("37 of 40 characters")
    name.fill("x" * 45)
    message = "This can be up to 40 characters; it has 45. Please shorten it."
    expect(count).to_have_text(message)
    expect(page.locator("#save-status")).to_have_text("Not saved yet")
    expect(name).to_have_attribute("aria-invalid", "true")

    page.get_by_role("button", name="Send to my therapist").click()
    expect(name).to_be_focused()
    expect(page.locator("#send-failed")).to_be_hidden()
    shown = page.get_by_text(message).locator("visible=true")
    expect(shown.and_(page.locator(":not(.visually-hidden)"))).to_have_count(1)
    assert_accessible(page, "a name past its limit")

    name.fill("Jo")
    expect(count).to_be_hidden()
    expect(page.locator("#save-status")).to_have_attribute("data-state", "saved")


NETWORK = [
    ("Jo", "inner"),
    ("Sam", "middle"),
    ("Priya", "inner"),
    ("Alex", "outer"),
    ("Mo", "inner"),
]


def test_five_people_fold_to_a_line_each_and_open_to_be_changed(db, page):
    """At five people the form was 7,348 px long at 390 px wide: each written person now
    folds to one line (name and how close) as the next is added, and when the page opens."""
    assignment = opened_by_a_new_client(page, exercise_of("support_network"))
    page.wait_for_load_state("load")
    for i, (name, circle) in enumerate(NETWORK):
        if i:
            page.get_by_role("button", name="Add a person").click()
        page.fill(f"input[name=r-people-{i}-name]", name)
        page.check(f"input[name=r-people-{i}-circle][value={circle}]")
    expect(page.locator("#save-status")).to_have_attribute("data-state", "saved")
    expect(page.locator("input[name=r-people-0-name]")).to_be_hidden()
    expect(page.locator("#r-people-0 summary")).to_have_text("Jo · Closest")
    expect(page.locator("input[name=r-people-4-name]")).to_be_visible()  # the one being written

    page.goto(f"/do/{assignment.pk}/")
    page.wait_for_load_state("load")
    summaries = page.locator("[data-row-summary]:visible")
    expect(summaries).to_have_text(
        ["Jo · Closest", "Sam · Close", "Priya · Closest", "Alex · Around me", "Mo · Closest"]
    )
    assert page.evaluate("document.documentElement.scrollHeight") < 4_500  # 3,672 measured
    assert_accessible(page, "five people folded")

    # Opened from the keyboard, changed, and its line follows.
    page.locator("#r-people-1 summary").focus()
    page.keyboard.press("Enter")
    name = page.locator("input[name=r-people-1-name]")
    expect(name).to_have_value("Sam")
    name.fill("Sammy")
    expect(page.locator("#r-people-1 summary")).to_have_text("Sammy · Close")
    expect(page.locator("#save-status")).to_have_attribute("data-state", "saved")
