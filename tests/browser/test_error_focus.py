"""A page that opens on a problem opens with focus on it.

After a refused form, focus used to stay on <body>: a screen reader heard
nothing (role=alert is not reliably read as a page loads) and the keyboard
started from the top of the page, far from the problem.
"""

from django.utils import timezone
from playwright.sync_api import expect

from clients import services as client_services
from homework.models import Entry
from tests.browser.helpers import (
    another_tab_sends,
    assert_accessible,
    choose_distress,
    opened_by_a_new_client,
    sign_in,
)
from tests.factories import (
    PASSWORD,
    AssignmentFactory,
    ClientFactory,
    EntryFactory,
    ExerciseFactory,
    TherapistFactory,
)


def focused_id(page) -> str:
    return str(page.evaluate("document.activeElement.id || document.activeElement.tagName"))


def alice_with_a_record(db):
    client = ClientFactory.create(portal_user__email="alice@example.test")
    exercise = ExerciseFactory.create(kind="written_record", title="Keep the full picture")
    return AssignmentFactory.create(client=client, exercise=exercise)


def test_a_refused_entry_opens_on_a_summary_that_links_to_the_field(db, page):
    assignment = alice_with_a_record(db)
    sign_in(page, "alice@example.test", PASSWORD)
    page.goto(f"/do/{assignment.pk}/")
    page.locator("#id_r-body_distress").focus()
    page.keyboard.press("ArrowRight")
    page.click("text=Send to my therapist")  # what happened is still empty
    summary = page.locator("#error-summary")
    expect(summary).to_be_focused()
    expect(summary).to_contain_text("They are marked below")
    link = summary.locator("a[href='#id_r-what_happened']")
    expect(link).to_contain_text("Write a few words here first.")
    assert_accessible(page)
    page.keyboard.press("Tab")
    expect(link).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#id_r-what_happened")).to_be_focused()


def test_a_wrong_sign_in_opens_on_the_message(db, page):
    ClientFactory.create(portal_user__email="alice@example.test")
    sign_in(page, "alice@example.test", "not the password")
    expect(page.locator("#login-error")).to_be_focused()
    assert_accessible(page)


def test_mismatched_passwords_on_welcome_open_on_the_summary(db, page, live_server, settings):
    settings.SITE_URL = live_server.url
    therapist = TherapistFactory.create()
    client = ClientFactory.create(
        therapist=therapist, portal_user=None, contact_email="casey@example.test"
    )
    issued = client_services.client_invite(actor=therapist, client=client)
    page.goto(issued.url)
    page.fill("input[name=password1]", "quiet harbour 42")
    page.fill("input[name=password2]", "not the same one")
    page.click("form.stack button[type=submit]")
    summary = page.locator("#error-summary")
    expect(summary).to_be_focused()
    expect(summary.locator("a[href='#id_password2']")).to_contain_text("not the same")


def test_a_bad_reset_email_opens_on_the_summary(db, page):
    page.goto("/password/reset/")
    page.fill("input[name=email]", "not an address")
    page.click("form.stack button[type=submit]")
    expect(page.locator("#error-summary")).to_be_focused()
    expect(page.locator("#error-summary a[href='#id_email']")).to_be_visible()


def test_an_empty_note_opens_on_the_summary(db, page):
    assignment = alice_with_a_record(db)
    entry = EntryFactory.create(assignment=assignment)
    sign_in(page, "alice@example.test", PASSWORD)
    page.goto(f"/entries/{entry.key}/")
    page.click("text=Add the note")
    expect(page.locator("#error-summary")).to_be_focused()
    expect(page.locator("#error-summary a[href='#id_text']")).to_be_visible()


def test_an_empty_safety_plan_does_not_say_marked_below(db, page):
    opened_by_a_new_client(page, ExerciseFactory.create(kind="safety_plan", title="My plan"))
    page.click("text=Send to my therapist")
    summary = page.locator("#error-summary")
    expect(summary).to_be_focused()
    expect(summary).to_contain_text("Fill in at least one part.")
    expect(summary).not_to_contain_text("marked below")


def test_a_send_from_a_stale_tab_opens_on_the_conflict(db, context):
    assignment = alice_with_a_record(db)
    first = context.new_page()
    sign_in(first, "alice@example.test", PASSWORD)
    first.goto(f"/do/{assignment.pk}/")
    first.fill("textarea[name=r-what_happened]", "Written in the first tab.")
    choose_distress(first)
    expect(first.locator("#save-status")).to_have_attribute("data-state", "saved")
    another_tab_sends(context, assignment)
    first.click("text=Send to my therapist")  # no typing since: the server finds the conflict
    expect(first.locator("#conflict-title")).to_be_focused()
    assert Entry.objects.filter(assignment=assignment).count() == 1
    assert_accessible(first)


def test_keeping_this_pages_version_after_a_conflict_keeps_the_keyboards_place(db, context):
    assignment = alice_with_a_record(db)
    phone = context.new_page()
    sign_in(phone, "alice@example.test", PASSWORD)
    phone.goto(f"/do/{assignment.pk}/")
    phone.wait_for_load_state("load")
    phone.fill("textarea[name=r-what_happened]", "Started on the phone.")
    expect(phone.locator("#save-status")).to_have_attribute("data-state", "saved")
    laptop = context.new_page()
    laptop.goto(f"/do/{assignment.pk}/")
    laptop.wait_for_load_state("load")
    laptop.fill("textarea[name=r-what_happened]", "Carried on at the laptop.")
    expect(laptop.locator("#save-status")).to_have_attribute("data-state", "saved")
    # A tick in a box, not typing, when the refusal comes: the box takes the
    # keyboard (typing on, the cursor stays put: test_autosave_races).
    phone.get_by_label("I want to talk about this in session").check()
    expect(phone.locator("#conflict-title, #autosave-conflict h2").first).to_be_focused()

    phone.keyboard.press("Tab")
    keep = phone.get_by_role("button", name="Keep what is on this page")
    expect(keep).to_be_focused()
    phone.keyboard.press("Enter")
    expect(phone.locator("#save-status")).to_have_attribute("data-state", "saved")
    # The choice closes the box that held the button: focus must land somewhere
    # that says what happened, not fall back to the page (a screen reader goes silent).
    assert focused_id(phone) == "save-status"
    phone.keyboard.press("Tab")
    expect(phone.get_by_role("button", name="Send to my therapist")).to_be_focused()


def test_when_the_connection_comes_back_focus_moves_from_the_offline_note_to_send(db, context):
    assignment = alice_with_a_record(db)
    entry = EntryFactory.create(assignment=assignment, submitted_at=timezone.now())
    page = context.new_page()
    sign_in(page, "alice@example.test", PASSWORD)
    page.goto(f"/entries/{entry.key}/edit/")
    page.wait_for_load_state("load")
    page.fill("textarea[name=r-what_happened]", "Changed on the train.")
    context.set_offline(True)
    save = page.get_by_role("button", name="Save my changes")
    save.focus()
    page.keyboard.press("Enter")
    note = page.locator("#send-offline")
    expect(note).to_be_focused()
    context.set_offline(False)
    expect(note).to_be_hidden()
    # The note goes once it is no longer true; the focus on it went with it, to
    # <body>. The button it asks for ("send it again once the connection is back").
    expect(save).to_be_focused()


QUESTION_IN_SIGHT = """() => {
    const field = document.activeElement;
    const label = document.querySelector(`label[for="${field.id}"]`);
    const error = document.getElementById(field.id + '_error');
    const bar = document.getElementById('quick-exit').getBoundingClientRect();
    return {
        field: field.id,
        label: label.getBoundingClientRect().top - bar.bottom,
        error: error.getBoundingClientRect().top - bar.bottom,
    };
}"""


def test_a_link_in_the_summary_shows_the_question_and_its_message_not_only_the_box(db, new_context):
    assignment = alice_with_a_record(db)
    page = new_context(375, 740).new_page()  # the quick-exit bar stays on top here
    sign_in(page, "alice@example.test", PASSWORD)
    page.goto(f"/do/{assignment.pk}/")
    page.wait_for_load_state("load")
    page.click("text=Send to my therapist")  # nothing written, no distress chosen
    # (The page asks for a fresh form token before it leaves: wait for the answer page.)
    page.wait_for_selector("#error-summary a")
    links = page.locator("#error-summary a")
    assert links.count() == 2
    for index in range(2):
        page.locator("#error-summary").scroll_into_view_if_needed()
        links.nth(index).focus()
        page.keyboard.press("Enter")
        # The browser brings the box itself to the top: the question above it,
        # and what is wrong, were off the screen, above the bar.
        seen = page.evaluate(QUESTION_IN_SIGHT)
        assert seen["label"] >= 0 and seen["error"] >= 0, seen
