"""The assign form's one schedule control in a real browser: the fields a kind does not use stay
hidden, a weekly schedule with no day ticked comes on the start's weekday, and the preview follows
the form as it changes without its button being pressed."""

import io

import pytest
from django.core.management import call_command
from django.utils import formats, timezone
from playwright.sync_api import expect

from clients.models import Client
from homework.models import Assignment
from tests.browser.helpers import assert_accessible, choose_exercise, staff_signed_in


@pytest.mark.parametrize("width", [1280, 390])
def test_the_assign_form_shows_what_the_kind_uses_defaults_the_day_and_previews_live(
    db, live_server, new_context, artifacts, width
):
    call_command("seed_demo", stdout=io.StringIO())
    sam = Client.objects.get(display_name="Sam")
    page = new_context(width, 900).new_page()
    staff_signed_in(page, live_server, "therapist@demo.test")
    page.goto(f"/admin/homework/assignment/add/?client={sam.pk}")
    no_contact = page.locator(".field-no_contact_since")
    expect(no_contact).to_be_hidden()
    # The picker is a native select, grouped by what each item is.
    picker = page.get_by_label("Exercise")
    expect(picker.locator("optgroup[label='Standard measures']")).to_have_count(1)
    choose_exercise(page, "30 days of no contact")
    expect(no_contact).to_be_visible()
    choose_exercise(page, "Keep the full picture")
    expect(no_contact).to_be_hidden()

    # Weekly, no day ticked: the preview already says the start's weekday.
    page.check("input[name=schedule][value=weekly]")
    start = timezone.localdate()
    weekday = formats.date_format(start, "l")
    preview = page.frame_locator("iframe[name=assign-preview]")
    expect(preview.get_by_text(f"Every {weekday}")).to_be_visible()
    # Words typed show in the preview once typing pauses, the button untouched.
    page.locator("textarea[name=instructions]").fill("Just the one from Friday's call, Sam.")
    expect(preview.get_by_text("Just the one from Friday's call, Sam.")).to_be_visible()
    assert_accessible(page)
    page.screenshot(path=artifacts / f"admin-assign-schedule-{width}.png", full_page=True)

    page.click("input[name=_save]")
    expect(page.get_by_text(f"is assigned to Sam: Every {weekday}")).to_be_visible()
    assignment = Assignment.objects.get(client=sam, exercise__title="Keep the full picture")
    assert (assignment.schedule, assignment.weekdays) == ("weekly", [start.weekday()])
    assert assignment.no_contact_since is None
