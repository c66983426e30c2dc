"""Removing a row in the page names it clearly and leaves no two rows with one name."""

from playwright.sync_api import expect

from tests.browser.helpers import assert_accessible, opened_by_a_new_client
from tests.factories import ExerciseFactory


def legends(page) -> list[str]:
    return [
        " ".join(text.split()) for text in page.locator("[data-row] > legend").all_inner_texts()
    ]


def test_a_removed_step_keeps_its_name_and_says_which_one_it_was(db, page):
    opened_by_a_new_client(
        page, ExerciseFactory.create(kind="boundary_steps", title="One small boundary")
    )
    page.fill("textarea[name=r-steps-0-boundary]", "No calls after 10 pm.")
    page.click("text=Add a step")
    page.keyboard.type("Sunday lunch with my sister.")
    page.click("text=Add a step")
    page.keyboard.type("A walk on my own.")
    assert legends(page) == ["Step 1", "Step 2", "Step 3"]

    page.get_by_role("button", name="Remove Step 2").click()
    assert legends(page) == ["Step 1", "Step 2 (removed)", "Step 3"]
    undo = page.get_by_role("button", name="Undo removing Step 2")
    expect(undo).to_be_focused()
    expect(page.locator("[data-rows-status]")).to_have_text("Step 2 removed. You can undo this.")
    assert_accessible(page)

    page.click("text=Add a step")
    assert legends(page) == ["Step 1", "Step 2 (removed)", "Step 3", "Step 4"]
    expect(page.locator("[data-rows-status]")).to_have_text("Step 4 added.")

    undo.click()
    assert legends(page) == ["Step 1", "Step 2", "Step 3", "Step 4"]
    expect(page.get_by_role("button", name="Remove Step 2")).to_be_focused()
    expect(page.locator("[data-rows-status]")).to_have_text("Step 2 is back.")
