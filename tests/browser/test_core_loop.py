"""The core loop in a real browser: admin assign → portal write and send → admin reads."""

import datetime as dt

from django.utils import timezone
from playwright.sync_api import expect

from homework.models import Entry
from tests.browser.helpers import assert_accessible, choose_exercise, sign_in
from tests.factories import PASSWORD, ClientFactory, ExerciseFactory, TherapistFactory


def test_assign_write_send_and_read_back(db, new_context, artifacts):
    therapist = TherapistFactory.create(email="tara@example.test")
    client = ClientFactory.create(
        therapist=therapist, display_name="Alice", portal_user__email="alice@example.test"
    )
    ExerciseFactory.create(title="Keep the full picture")

    # The therapist assigns from the client's page.
    admin = new_context(1280, 900).new_page()
    sign_in(admin, "tara@example.test", PASSWORD, admin=True)
    admin.goto(f"/admin/clients/client/{client.pk}/change/")
    admin.click("text=Assign exercise")
    choose_exercise(admin, "Keep the full picture")
    admin.fill("input[name=starts_on]", timezone.localdate().isoformat())
    admin.fill("input[name=due_on]", (timezone.localdate() + dt.timedelta(days=7)).isoformat())
    admin.click("input[name=_save]")
    admin.wait_for_selector("text=is assigned to Alice")

    # The client finds it under "To do", writes, and sends it.
    portal = new_context().new_page()
    sign_in(portal, "alice@example.test", PASSWORD)
    assert portal.title() == "Home · Notebook"
    assert_accessible(portal)
    portal.click('a.button:has-text("Open")')
    # The page's scripts are deferred: the slider exists (and autosave
    # listens) once they have run.
    portal.wait_for_selector("input[type=range]#id_r-body_distress")
    portal.fill(
        "textarea[name=r-what_happened]", "They read my messages and went quiet all evening."
    )
    portal.fill(
        "input[name=r-occurred_at]",
        (timezone.localtime() - dt.timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M"),
    )
    portal.locator("#id_r-body_distress").fill("8")
    portal.check("input[name=felt_unsafe]")
    portal.wait_for_selector("#save-status[data-state=saved]")
    assert_accessible(portal)
    portal.screenshot(path=artifacts / "written-record-form-390.png", full_page=True)
    portal.click("text=Send to my therapist")
    portal.wait_for_selector("text=Sent. Thank you")
    entry = Entry.objects.get(assignment__client=client)
    assert entry.is_submitted and entry.felt_unsafe and entry.response["body_distress"] == 8

    # The therapist reads it in the admin.
    admin.goto("/admin/homework/entry/")
    admin.click("text=Keep the full picture")
    admin.screenshot(path=artifacts / "admin-entry-1280.png", full_page=True)
    expect(admin.get_by_text("They read my messages and went quiet all evening.")).to_be_visible()
