"""The contact profile on a phone (390 px wide): short enough to read, says
what it will do, the days one by one only on request, checked with axe."""

from playwright.sync_api import expect

from clients.models import ContactProfile
from tests.browser.helpers import assert_accessible, sign_in, wait_for_db
from tests.factories import PASSWORD

# It was about 4,800 px with seven days of their own; two rows keep it about
# half that (2,360 as it opens, 2,560 filled in, on this machine), and still
# well short with the profile saved: its sentence, the reminder's warning, the
# stop button and the log of changes (3,260).
MOST_HEIGHT = 2_600
MOST_HEIGHT_SAVED = 3_400


def page_height(page) -> int:
    return int(page.evaluate("document.documentElement.scrollHeight"))


def contact_page_on_a_phone(new_context):
    page = new_context(390, 800).new_page()
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")
    page.goto("/account/contact/")
    return page


def choose_safe_hours(page, *, weekdays: tuple[str, str], weekend: str) -> None:
    """Weekdays between two times; the weekend's row as ``weekend`` labels it."""
    row = page.locator("fieldset").filter(has_text="Monday to Friday").first
    row.get_by_label("Between these times").check()
    row.get_by_label("From").fill(weekdays[0])
    row.get_by_label("Until").fill(weekdays[1])
    page.locator("fieldset").filter(has_text="Saturday and Sunday").first.get_by_label(
        weekend
    ).check()


def test_the_contact_profile_fits_a_phone_and_says_what_it_will_do(alice, new_context):
    page = contact_page_on_a_phone(new_context)
    page.wait_for_selector("#contact-promise")
    assert page_height(page) < MOST_HEIGHT, page_height(page)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.locator("fieldset.safe-row").filter(has_text="Wednesday").first.is_hidden()
    assert_accessible(page, "contact profile, as it opens")

    page.get_by_label("Email is safe").check()
    page.get_by_label("Email address for reminders").fill("alice.reminders@example.test")
    choose_safe_hours(page, weekdays=("09:00", "17:00"), weekend="Any time")
    page.get_by_label("Your time zone").fill("Europe/London")
    page.get_by_label("At most one message a day").check()
    page.get_by_label("Time for the day's reminder").fill("18:00")
    assert page_height(page) < MOST_HEIGHT, page_height(page)
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_selector("text=Saved, and noted as checked by you today.")
    wait_for_db(lambda: ContactProfile.objects.filter(email_is_safe=True).exists())

    promise = page.locator("#contact-promise")
    expect(promise).to_contain_text("Right now we may send you at most one message a day")
    expect(promise).to_contain_text("on weekdays, 09:00–17:00; at the weekend, any time")
    expect(page.locator(".contact-reminder-waits")).to_contain_text("18:00")
    assert page_height(page) < MOST_HEIGHT_SAVED, page_height(page)
    assert_accessible(page, "contact profile, saved")

    # The exception, on request: the seven days, each its own.
    page.get_by_label("Set the days one by one instead").check()
    expect(page.locator("fieldset.safe-row").filter(has_text="Wednesday").first).to_be_visible()
    expect(page.locator("fieldset").filter(has_text="Monday to Friday").first).to_be_hidden()
    assert_accessible(page, "contact profile, day by day")


def test_a_row_that_ends_before_it_starts_is_marked_and_nothing_is_saved(alice, new_context):
    page = contact_page_on_a_phone(new_context)
    choose_safe_hours(page, weekdays=("17:00", "09:00"), weekend="Not on this day")
    page.get_by_label("Time for the day's reminder").fill("18:00")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator("#id_weekdays_until_error")).to_contain_text("This ends before it starts")
    assert not ContactProfile.objects.exists()
    assert_accessible(page, "contact profile, refused")
