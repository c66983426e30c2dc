"""Help now on a phone: one tap from the portal, the client's own plan first,
numbers a thumb can call, the practice's lines once, the quick exit there."""

import datetime as dt

from django.utils import timezone
from playwright.sync_api import expect

from practice.models import PracticeSettings
from tests.browser.helpers import assert_accessible, sign_in
from tests.factories import PASSWORD, RESPONSES, AssignmentFactory, EntryFactory


def test_help_now_shows_the_clients_plan_first_on_a_phone(cast, new_context, artifacts):
    PracticeSettings.objects.filter(pk=1).update(
        crisis_resources="Helpline (24 hours): 0808 2000 247\nIn danger now: 999",
        practice_contact="Reception, weekdays 9 to 5: 020 7946 0000",
    )
    plan = AssignmentFactory.create(
        client=cast.alice, exercise__kind="safety_plan", exercise__title="My plan"
    )
    EntryFactory.create(
        assignment=plan,
        response=RESPONSES["safety_plan"](
            people_to_call="Jo: 07700 900123",
            emergency_numbers="My GP: 01632 960000",
            code_word="pineapple",
        ),
        submitted_at=timezone.now() - dt.timedelta(days=30),
    )
    page = new_context(390, 844).new_page()
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")

    # One tap from any portal page.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Help now").click()
    page.wait_for_url("**/help-now/")
    main = page.locator("main")
    headings = main.locator("h2:not(.note__title)")  # the quick-exit note may come first
    expect(headings).to_have_text(["Your plan", "If you need someone now"])
    call_jo = main.get_by_role("link", name="07700 900123")
    expect(call_jo).to_have_attribute("href", "tel:07700900123")
    expect(main).to_contain_text("pineapple")
    expect(main.get_by_role("link", name="Change my plan")).to_be_visible()
    # The practice's own line, then the crisis lines, each once on the page.
    for href in ("tel:02079460000", "tel:08082000247", "tel:999"):
        expect(page.locator(f'a[href="{href}"]')).to_have_count(1)
    expect(page.locator("#quick-exit button")).to_be_visible()

    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than a 390px screen"
    box = call_jo.bounding_box()
    assert box is not None and box["height"] >= 24  # a target a thumb can hit
    assert_accessible(page, "Help now with the client's plan at 390px")
    page.screenshot(path=artifacts / "help-now-390.png", full_page=True)

    page.get_by_role("link", name="Change my plan").click()
    page.wait_for_selector("form.entry-form")
    assert page.title() == "Writing · Notebook"
