"""Two tabs on a plan that continues the last one sent: the older tab is told,
sees both versions, and chooses; no change is undone without a word."""

import pytest
from playwright.sync_api import expect

from homework.models import Entry
from tests.browser.helpers import (
    assert_accessible,
    leave_with_shift,
    neutral_site,
    send_once_saved,
    sign_in,
    wait_for_db,
)
from tests.factories import PASSWORD, AssignmentFactory, EntryFactory, ExerciseFactory, safety_plan
from tests.helpers_entries import first_saying, newest_sent_response


@pytest.fixture
def plan(alice):
    """Alice's safety plan, sent once: each page opens on a copy of it."""
    assignment = AssignmentFactory.create(
        client=alice.client, exercise=ExerciseFactory.create(kind="safety_plan")
    )
    EntryFactory.create(
        assignment=assignment, response=safety_plan(people_to_call="Jo, then my sister.")
    )
    return assignment


def open_plan(page, assignment) -> None:
    page.goto(f"/do/{assignment.pk}/")
    page.wait_for_selector("textarea[name=r-people_to_call]")
    page.wait_for_load_state("load")  # the deferred scripts hear the typing


def two_tabs_then_the_first_sends(context, assignment):
    first = context.new_page()
    sign_in(first, "alice@example.test", PASSWORD)
    first.wait_for_selector("#todo-title")
    open_plan(first, assignment)
    second = context.new_page()
    open_plan(second, assignment)
    first.fill("textarea[name=r-people_to_call]", "Jo, my cousin Lina.")
    send_once_saved(first)
    return second


def older_tab_in_conflict(context, assignment):
    """The first tab sends; the second, opened before it, types a code word and is told."""
    second = two_tabs_then_the_first_sends(context, assignment)
    second.fill("input[name=r-code_word]", "mango")
    expect(second.locator("#autosave-conflict")).to_be_visible()
    return second


def sent_from(page, assignment) -> tuple[object, object]:
    """Sends the page; the plan's newest sent people to call and code word."""
    send_once_saved(page)
    latest = newest_sent_response(assignment)
    return latest["people_to_call"], latest["code_word"]


def test_an_older_tab_is_told_a_newer_plan_was_sent_and_keeps_its_words_merged(
    plan, context, artifacts
):
    second = older_tab_in_conflict(context, plan)
    conflict = second.locator("#autosave-conflict")
    expect(conflict).to_contain_text("A newer version was sent since you opened this page")
    expect(conflict).to_contain_text("Jo, my cousin Lina.")
    expect(conflict).to_contain_text("Jo, then my sister.")
    expect(second.locator("#save-status")).to_have_attribute("data-state", "conflict")
    assert_accessible(second, "a newer version sent")
    second.screenshot(path=artifacts / "stale-update-conflict.png", full_page=True)
    assert newest_sent_response(plan)["people_to_call"] == "Jo, my cousin Lina."

    # Merged by hand: the newer words brought in, then this page kept.
    second.fill("textarea[name=r-people_to_call]", "Jo, my cousin Lina.")
    second.get_by_role("button", name="Keep what is on this page").click()
    assert sent_from(second, plan) == ("Jo, my cousin Lina.", "mango")


def test_an_older_tab_can_take_the_newer_plan_instead(plan, context):
    second = older_tab_in_conflict(context, plan)
    second.get_by_role("link", name="Use the newer version").click()
    expect(second.locator("textarea[name=r-people_to_call]")).to_have_value("Jo, my cousin Lina.")
    second.fill("input[name=r-code_word]", "kiwi")
    assert sent_from(second, plan) == ("Jo, my cousin Lina.", "kiwi")


def test_the_quick_exit_from_an_older_tab_keeps_its_words_and_the_newer_plan(plan, context):
    second = older_tab_in_conflict(context, plan)
    neutral_site(second)
    leave_with_shift(second)
    second.wait_for_url("https://www.bbc.co.uk/**")

    def kept_draft():
        return first_saying(
            Entry.objects.filter(assignment=plan, status=Entry.Status.DRAFT), code_word="mango"
        )

    kept = wait_for_db(kept_draft)
    assert kept.response["people_to_call"] == "Jo, then my sister."
    assert newest_sent_response(plan)["people_to_call"] == "Jo, my cousin Lina."
