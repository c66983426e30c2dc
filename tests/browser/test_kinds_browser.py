"""The new kinds' forms in a real phone-sized browser: rows, sliders, drafts, progress."""

import datetime as dt

from django.utils import timezone
from playwright.sync_api import expect

from homework.models import Entry
from tests.browser.helpers import assert_accessible, opened_by_a_new_client, sign_in
from tests.factories import (
    PASSWORD,
    RESPONSES,
    AssignmentFactory,
    ClientFactory,
    EntryFactory,
    ExerciseFactory,
    daily_urge_log,
    options_for,
)


def exercise_of(slug: str):
    return ExerciseFactory.create(kind=slug, title=f"The {slug} one", options=options_for(slug))


def assign(client, slug, **details):
    return AssignmentFactory.create(client=client, exercise=exercise_of(slug), **details)


def open_on_its_page(page, slug: str):
    """A new client's work of kind ``slug``, open on its page in ``page``."""
    return opened_by_a_new_client(page, exercise_of(slug))


def test_a_long_boundary_is_shown_whole_on_a_phone(db, page):
    """A one-line box showed "I won't reply to messages after 10 p" and hid
    the rest past its edge: the box wraps, and grows with what is typed."""
    open_on_its_page(page, "boundary_steps")
    box = page.locator("textarea[name=r-steps-0-boundary]")
    box.fill(
        "I won't reply to messages after 10 pm, even if they say it is urgent. "
        "If it really is, they can call my sister, who knows the whole story and "
        "will let me know in the morning if there is anything I need to do."
    )
    hidden = box.evaluate(
        "el => [el.scrollWidth - el.clientWidth, el.scrollHeight - el.clientHeight]"
    )
    assert hidden == [0, 0]


def test_steps_are_added_and_removed_without_losing_text_and_the_draft_comes_back(
    db, new_context, artifacts
):
    page = new_context().new_page()
    assignment = open_on_its_page(page, "boundary_steps")

    page.fill("textarea[name=r-steps-0-boundary]", "No calls after 10 pm.")
    page.click("text=Add a step")
    expect(page.locator("textarea[name=r-steps-1-boundary]")).to_be_focused()
    page.keyboard.type("Sunday lunch with my sister.")
    # Nothing is chosen for the client: each step's status is theirs to pick.
    page.check("input[name=r-steps-1-status][value=planned]")
    page.click("text=Add a step")
    page.fill("textarea[name=r-steps-2-boundary]", "A step I change my mind about.")
    # Tried, and how it felt: the slider moves by keyboard and shows its number.
    page.check("input[name=r-steps-0-status][value=tried]")
    slider = page.locator("#id_r-steps-0-feeling")
    slider.focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#id_r-steps-0-feeling + output")).to_have_text("8")

    # Remove the third, bring it back, remove it again: the others keep their text.
    third = page.locator("[data-row]").nth(2)
    third.locator("[data-row-remove]").click()
    third.locator("[data-row-undo]").click()
    expect(page.locator("textarea[name=r-steps-2-boundary]")).to_have_value(
        "A step I change my mind about."
    )
    third.locator("[data-row-remove]").click()
    expect(page.locator("textarea[name=r-steps-0-boundary]")).to_have_value("No calls after 10 pm.")
    expect(page.locator("textarea[name=r-steps-1-boundary]")).to_have_value(
        "Sunday lunch with my sister."
    )
    page.wait_for_selector("#save-status[data-state=saved]")
    assert_accessible(page)
    page.screenshot(path=artifacts / "boundary-steps-form-390.png", full_page=True)

    draft = Entry.objects.get(assignment=assignment)
    assert [step["boundary"] for step in draft.response["steps"]] == [
        "No calls after 10 pm.",
        "Sunday lunch with my sister.",
    ]
    assert draft.response["steps"][0]["feeling"] == "8"

    # Reopened (another day, another tab): the typed rows are there.
    page.goto(f"/do/{assignment.pk}/")
    expect(page.locator("textarea[name=r-steps-0-boundary]")).to_have_value("No calls after 10 pm.")
    expect(page.locator("textarea[name=r-steps-1-boundary]")).to_have_value(
        "Sunday lunch with my sister."
    )
    expect(page.locator("#id_r-steps-0-feeling + output")).to_have_text("8")
    page.click("text=Send to my therapist")
    page.wait_for_selector("text=Sent. Thank you")
    entry = Entry.objects.get(assignment=assignment)
    assert entry.is_submitted
    assert [(s["status"], s["feeling"]) for s in entry.response["steps"]] == [
        ("tried", 8),
        ("planned", None),
    ]


def test_people_with_ticked_roles_survive_a_reload(db, new_context, artifacts):
    page = new_context().new_page()
    open_on_its_page(page, "support_network")
    page.fill("input[name=r-people-0-name]", "Jo")
    page.check("input[name=r-people-0-circle][value=inner]")
    page.check("input[name=r-people-0-roles][value=reality_check]")
    page.check("input[name=r-people-0-roles][value=warmth]")
    page.check("input[name=r-people-0-steadying]")
    page.click("text=Add a person")
    page.fill("input[name=r-people-1-name]", "Priya")
    page.wait_for_selector("#save-status[data-state=saved]")
    page.reload()
    expect(page.locator("input[name=r-people-0-name]")).to_have_value("Jo")
    expect(page.locator("input[name=r-people-0-roles][value=warmth]")).to_be_checked()
    expect(page.locator("input[name=r-people-0-steadying]")).to_be_checked()
    expect(page.locator("input[name=r-people-1-name]")).to_have_value("Priya")
    assert_accessible(page)
    page.screenshot(path=artifacts / "support-network-form-390.png", full_page=True)


def test_progress_page_draws_the_pictures_on_a_phone(db, new_context, artifacts):
    client = ClientFactory.create(portal_user__email="alice@example.test")
    today = timezone.localdate()
    start = today - dt.timedelta(days=13)
    daily_urge_log(client, start=start, days=14, intensity=lambda day: max(1, 9 - day // 2))
    ladder = assign(client, "boundary_steps")
    EntryFactory.create(
        assignment=ladder,
        response={
            "steps": [
                {**step, "planned_on": None, "what_happened": "", "feeling": step.get("feeling")}
                for step in RESPONSES["boundary_steps"]()["steps"]
            ]
        },
    )
    network = assign(client, "support_network")
    EntryFactory.create(assignment=network, response=RESPONSES["support_network"]())
    page = new_context().new_page()
    sign_in(page, "alice@example.test", PASSWORD)
    page.click("text=Progress")
    expect(page.get_by_role("img", name="The strongest pull each day", exact=False)).to_be_visible()
    # The urge curve, the ladder, the map, and the one timeline they share.
    assert page.locator("svg.chart").count() == 4
    assert_accessible(page)
    page.screenshot(path=artifacts / "progress-390.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=artifacts / "progress-1280.png", full_page=True)


def test_an_arabic_answer_reads_from_the_right_on_a_page_that_runs_left_to_right(
    db, new_context, artifacts
):
    # "I called my sister at 22:00 on WhatsApp.": it ends on a Latin word.
    arabic = "اتصلت بأختي الساعة 22:00 عبر WhatsApp."
    client = ClientFactory.create(portal_user__email="alice@example.test")
    check_in = assign(client, "worksheet")
    entry = EntryFactory.create(
        assignment=check_in, response={**RESPONSES["worksheet"](), "story": arabic}
    )
    page = new_context().new_page()
    sign_in(page, "alice@example.test", PASSWORD)
    page.goto(f"/entries/{entry.key}/")
    answer = page.locator("dd", has_text="WhatsApp")
    expect(answer).to_have_attribute("dir", "auto")
    direction = "el => getComputedStyle(el).direction"
    assert answer.evaluate(direction) == "rtl"
    assert page.locator("html").evaluate(direction) == "ltr"
    # The box the client writes in turns as they type (new work: sent work
    # opens what was sent).
    page.goto(f"/do/{assign(client, 'worksheet').pk}/")
    story = page.locator("textarea[name=r-story]")
    expect(story).to_have_attribute("dir", "auto")
    story.fill(arabic)
    assert story.evaluate(direction) == "rtl"
    assert_accessible(page)
    page.goto(f"/entries/{entry.key}/")
    assert_accessible(page)
    page.screenshot(path=artifacts / "arabic-answer-390.png", full_page=True)
