"""The therapist's workspace in a real browser, on the demo practice.

Signs in as the demo therapist: the home shows tomorrow's session with Alex
and Alex's felt-unsafe entry; the since-last-session page reads calmly; an
exercise is assigned to Sam in well under a minute.
"""

import datetime as dt
import io
import re
import time

from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from clients.models import Client
from homework.models import Assignment
from tests.browser.helpers import assert_accessible, choose_exercise, staff_signed_in


def test_demo_therapist_home_since_last_session_and_assigning(
    db, live_server, new_context, artifacts
):
    call_command("seed_demo", stdout=io.StringIO())
    page = new_context(1280, 900).new_page()
    staff_signed_in(page, live_server, "therapist@demo.test")

    # The home: the alerts to acknowledge first, then the flags (felt unsafe, then the watched
    # answer), tomorrow's session with Alex.
    alerts = page.locator("section.ws-card--flag").first
    expect(alerts).to_have_attribute("aria-labelledby", "alerts-title")
    expect(alerts).to_contain_text("Alex")
    expect(page.locator("section[aria-labelledby=unsafe-title]")).to_contain_text(
        "Keep the full picture"
    )
    watched = page.locator("section[aria-labelledby=review-title]")
    expect(watched).to_contain_text("How safe have you felt? 3 / 10")
    tomorrow = page.locator("section[aria-labelledby=tomorrow-title]")
    expect(tomorrow).to_contain_text("Alex")
    expect(tomorrow).to_contain_text("10:00")
    assert_accessible(page)
    page.screenshot(path=artifacts / "admin-home-1280.png", full_page=True)

    # Since last session, from tomorrow's session.
    tomorrow.get_by_role("link", name="Since last session").click()
    expect(page.get_by_role("heading", name="Since last session: Alex")).to_be_visible()
    # Flagged to talk about, it leads the page, a link from its entry.
    flagged = page.locator("p.flag-text", has_text="A kind message after three days of silence.")
    expect(flagged).to_be_visible()
    assert_accessible(page)
    page.screenshot(path=artifacts / "admin-since-last-session-1280.png", full_page=True)

    # A short comment, which Alex will see beside the entry: on the entry's page.
    flagged.locator("xpath=preceding-sibling::p[1]").get_by_role(
        "link", name="Read the entry"
    ).click()
    page.get_by_label("A short note for the client").fill("Calling your sister took strength.")
    page.get_by_role("button", name="Save comment").click()
    expect(page.get_by_text("Comment saved. Alex will see it beside their entry.")).to_be_visible()
    expect(page.get_by_text("Calling your sister took strength.")).to_be_visible()

    # Assign an exercise to Sam, from Sam's page, against the clock.
    started = time.monotonic()
    page.goto("/admin/clients/client/")
    page.get_by_role("link", name="Sam").click()
    page.get_by_role("link", name="Assign exercise").click()
    choose_exercise(page, "Keep the full picture")
    # The library's words, offered to make personal.
    expect(page.locator("textarea[name=instructions]")).to_have_value(
        re.compile("^When something hard happens")
    )
    page.check("input[name=schedule][value=weekly]")
    page.check("input[name=weekdays][value='0']")
    page.check("input[name=weekdays][value='3']")
    # Two months on (a schedule runs at most about two years: MAX_SCHEDULE_DAYS).
    page.fill("input[name=ends_on]", (timezone.localdate() + dt.timedelta(days=60)).isoformat())
    preview = page.frame_locator("iframe[name=assign-preview]")
    expect(preview.get_by_text("Every Monday and Thursday until")).to_be_visible()
    assert_accessible(page)
    page.screenshot(path=artifacts / "admin-assign-1280.png", full_page=True)
    page.click("input[name=_save]")
    expect(page.get_by_text("is assigned to Sam: Every Monday and Thursday")).to_be_visible()
    elapsed = time.monotonic() - started
    assert elapsed < 60, f"assigning took {elapsed:.0f}s"
    assignment = Assignment.objects.get(client__display_name="Sam")
    assert (assignment.schedule, assignment.weekdays) == ("weekly", [0, 3])


def test_a_repeating_schedules_own_fields_are_labelled_as_needed(db, live_server, new_context):
    """A weekly schedule's "On these days" and "Repeats until" show only for
    the schedules that need them, yet were labelled as optional fields are:
    the therapist learned the end date was needed only when Save refused the form."""
    call_command("seed_demo", stdout=io.StringIO())
    page = new_context(1280, 900).new_page()
    staff_signed_in(page, live_server, "therapist@demo.test")
    page.goto("/admin/homework/assignment/add/")
    page.check("input[name=schedule][value=weekly]")
    weight = "el => getComputedStyle(el).fontWeight"
    needed = page.locator(".field-starts_on .flex-container > label").evaluate(weight)
    for field in ("weekdays", "ends_on"):
        label = page.locator(f".field-{field} .flex-container > label")
        expect(label).to_be_visible()
        expect(label).to_have_class("required")
        assert label.evaluate(weight) == needed, field
    # The one-off's own date stays optional, as it is.
    page.check("input[name=schedule][value=once]")
    expect(page.locator(".field-due_on .flex-container > label")).not_to_have_class("required")


def test_assigning_to_several_clients_can_leave_one_out(db, live_server, new_context, artifacts):
    """Each chosen client is a ticked box on the page: unticking one (say, a
    client whose own today a due date is before) assigns to the others."""
    call_command("seed_demo", stdout=io.StringIO())
    page = new_context(1280, 900).new_page()
    staff_signed_in(page, live_server, "therapist@demo.test")
    page.goto("/admin/clients/client/")
    for name in ("Alex", "Sam"):
        page.get_by_role("row", name=re.compile(name)).get_by_role("checkbox").check()
    page.select_option("select[name=action]", "assign_exercise")
    page.get_by_role("button", name="Go").click()
    expect(page.get_by_role("group", name=re.compile("For 2 clients"))).to_be_visible()
    assert_accessible(page)
    page.screenshot(path=artifacts / "admin-assign-several-1280.png", full_page=True)
    page.get_by_role("checkbox", name="Sam").uncheck()
    choose_exercise(page, "Keep the full picture")
    page.get_by_role("button", name="Assign").click()
    expect(page.get_by_text("was assigned to 1 client")).to_be_visible()
    latest = Assignment.objects.latest("pk")
    assert latest.client.display_name == "Alex"
    assert latest.exercise.title == "Keep the full picture"


def test_a_refused_save_comes_back_with_the_therapists_words_and_their_preview(
    db, live_server, new_context
):
    """Save refused over a date that is no date: the page came back with the
    preview empty until something changed, and on opening it put the library's
    words back over the therapist's own."""
    call_command("seed_demo", stdout=io.StringIO())
    sam = Client.objects.get(display_name="Sam")
    page = new_context(1280, 900).new_page()
    staff_signed_in(page, live_server, "therapist@demo.test")
    page.goto(f"/admin/homework/assignment/add/?client={sam.pk}")
    choose_exercise(page, "Keep the full picture")
    page.fill("textarea[name=instructions]", "Just the one from Friday's call, Sam.")
    page.fill("input[name=due_on]", "next Friday")
    # From here the preview may not be asked for again: what shows is the page's own.
    page.route("**/admin/homework/assignment/preview/", lambda route: route.abort())
    page.click("input[name=_save]")
    expect(page.locator(".errornote")).to_be_visible()
    expect(page.locator("textarea[name=instructions]")).to_have_value(
        "Just the one from Friday's call, Sam."
    )
    preview = page.frame_locator("iframe[name=assign-preview]")
    expect(preview.get_by_text("Just the one from Friday's call, Sam.")).to_be_visible()
    expect(preview.get_by_role("heading", name="Keep the full picture", level=1)).to_be_visible()
    assert_accessible(page)
    assert not Assignment.objects.filter(client=sam).exists()


def test_opening_work_with_personal_words_keeps_them_in_the_box(db, live_server, new_context):
    """The page offered the library's words over whatever the box held when
    it opened: work set with the therapist's own words showed the library's,
    and saving it (to change a date) would have replaced theirs."""
    call_command("seed_demo", stdout=io.StringIO())
    work = Assignment.objects.filter(client__display_name="Alex").first()
    assert work is not None
    Assignment.objects.filter(pk=work.pk).update(instructions="Only the evenings, Alex.")
    page = new_context(1280, 900).new_page()
    staff_signed_in(page, live_server, "therapist@demo.test")
    page.goto(f"/admin/homework/assignment/{work.pk}/change/")
    preview = page.frame_locator("iframe[name=assign-preview]")
    expect(preview.get_by_text("Only the evenings, Alex.")).to_be_visible()
    expect(page.locator("textarea[name=instructions]")).to_have_value("Only the evenings, Alex.")
