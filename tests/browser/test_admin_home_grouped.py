"""The admin home at a full caseload: a week of daily logs from twenty-five clients, one row each."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import assert_accessible, staff_signed_in
from tests.factories import TherapistFactory
from tests.helpers_home import a_week_of_daily_logs

DESKTOP = (1440, 900)
PHONE = (390, 844)


def bottom(page, selector: str) -> float:
    return float(page.eval_on_selector(selector, "e => e.getBoundingClientRect().bottom"))


@pytest.mark.parametrize(("width", "height"), [DESKTOP, PHONE])
def test_a_weeks_work_from_twenty_five_clients_is_one_row_each(
    db, live_server, new_context, artifacts, width, height
):
    tara = TherapistFactory.create(email="tara@example.test", name="Tara")
    a_week_of_daily_logs(tara)
    page = new_context(width, height).new_page()
    staff_signed_in(page, live_server, tara.email)
    rows = page.locator(".ws-news__row")
    expect(rows).to_have_count(25)
    # The alert first, its client's row first among the new work.
    expect(page.locator("section.ws-card").first).to_have_attribute(
        "aria-labelledby", "alerts-title"
    )
    expect(rows.first).to_contain_text("1 alert open")
    expect(rows.nth(2)).to_contain_text("Urge log: 7")
    page.screenshot(path=artifacts / f"admin-home-grouped-{width}.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if (width, height) == DESKTOP:
        # Everything but the admin's own index, in one window without scrolling.
        for card in ("alerts-title", "tomorrow-title", "new-title", "overdue-title"):
            assert bottom(page, f"section[aria-labelledby={card}]") <= height, card
    else:
        # Each quiet client in a line or two.
        assert rows.nth(5).bounding_box()["height"] < 60
    assert_accessible(page, f"home at {width}")
    rows.nth(2).get_by_role("link").click()
    expect(page.get_by_role("heading", name="Since last session: Casey")).to_be_visible()


@pytest.mark.parametrize(("width", "height"), [DESKTOP, PHONE])
def test_entries_are_worked_through_from_since_last_session(
    db, live_server, new_context, artifacts, width, height
):
    tara = TherapistFactory.create(email="tara@example.test", name="Tara")
    alex = a_week_of_daily_logs(tara, clients=1)[0]
    page = new_context(width, height).new_page()
    staff_signed_in(page, live_server, tara.email)
    page.goto(f"/admin/clients/client/{alex.pk}/since-last-session/")
    # The alert's entry comes first on the page, so it opens first.
    page.locator("section[aria-labelledby=alerts-title]").get_by_role(
        "link", name="Read it"
    ).click()
    walk = page.get_by_role("navigation", name="Since last session: entry 1 of 8")
    expect(walk).to_contain_text("The first entry on the page")
    walk.get_by_role("link", name=re.compile("^Next")).click()
    expect(page.get_by_role("navigation", name="Since last session: entry 2 of 8")).to_be_visible()
    page.get_by_label("A short note for the client").fill("Noticing this took care.")
    page.get_by_role("button", name="Save comment").click()
    expect(page.get_by_text("Comment saved.")).to_be_visible()
    page.screenshot(path=artifacts / f"admin-entry-walk-{width}.png", full_page=True)
    assert_accessible(page, f"entry walk at {width}")
    # After the comment box: back to where the entry is on the page.
    page.locator(".ws-walk--end").get_by_role("link", name=re.compile("^Previous")).click()
    expect(page.get_by_role("navigation", name="Since last session: entry 1 of 8")).to_be_visible()
    page.get_by_role("link", name="Close", exact=True).click()
    expect(
        page.get_by_role("heading", name=re.compile("^Since last session: Alex"))
    ).to_be_visible()
