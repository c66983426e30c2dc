"""Print for other dates, on the since-last-session page: a choice the server
would refuse stops on the page, before a new tab opens; one refused all the
same comes back in that tab as the form, the dates kept and why beside them."""

import datetime as dt
import io

from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from clients.models import Client
from homework.selectors.period import as_admin_date
from tests.browser.helpers import assert_accessible, staff_signed_in


def test_a_choice_the_server_would_refuse_stops_on_the_page_and_a_refusal_keeps_the_dates(
    db, live_server, new_context, artifacts
):
    call_command("seed_demo", stdout=io.StringIO())
    alex = Client.objects.get(display_name="Alex")
    context = new_context(1280, 900)
    page = context.new_page()
    staff_signed_in(page, live_server, "therapist@demo.test")
    page.goto(f"/admin/clients/client/{alex.pk}/since-last-session/")
    today = timezone.localdate()
    form = page.locator("form.ws-print-dates")
    # Typed as the admin's date fields take them (the calendar's links sit in the labels).
    form.locator('input[name="since"]').fill(as_admin_date(today))
    until = form.locator('input[name="until"]')
    until.fill(as_admin_date(today - dt.timedelta(days=3)))
    form.get_by_role("button", name="Print").click()
    page.wait_for_timeout(500)
    assert len(context.pages) == 1  # no tab opened
    assert until.evaluate("input => input.validationMessage") == (
        "The end date is before the start date. Choose a later end date."
    )
    # A day after the last the server prints is stopped the same way.
    latest = dt.date.fromisoformat(form.get_attribute("data-latest") or "")
    until.fill(as_admin_date(latest + dt.timedelta(days=1)))
    form.get_by_role("button", name="Print").click()
    page.wait_for_timeout(500)
    assert len(context.pages) == 1
    assert until.evaluate("input => input.validationMessage").startswith(
        "This is after the last day you can print."
    )

    # Refused all the same (a period too long), in the tab the print opens.
    response = page.goto(
        f"/admin/clients/client/{alex.pk}/summary/?since=2024-01-01&until=2026-03-01"
    )
    assert response is not None and response.status == 400
    form = page.locator("form.ws-print-dates")
    # Kept as they were typed (here, in the URL, as ISO dates).
    expect(form.locator('input[name="since"]')).to_have_value("2024-01-01")
    until = form.locator('input[name="until"]')
    expect(until).to_have_value("2026-03-01")
    expect(until).to_have_accessible_description(
        "The period can be at most 400 days long. Move the start and end dates closer together."
    )
    assert form.get_attribute("target") is None  # already in its own tab
    assert_accessible(page)
    page.screenshot(path=artifacts / "admin-print-dates-refused-1280.png", full_page=True)
