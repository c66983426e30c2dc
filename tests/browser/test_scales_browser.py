"""The 0–10 sliders in a real browser: unanswered until the client chooses."""

import io

import pytest
from PIL import Image
from playwright.sync_api import expect

from homework.kinds import get_kind
from homework.models import Entry
from tests.browser.helpers import assert_accessible, sign_in
from tests.conftest import ARTIFACTS
from tests.factories import (
    PASSWORD,
    AssignmentFactory,
    ClientFactory,
    EntryFactory,
    ExerciseFactory,
    options_for,
)

WARM = "Choose a number from 0 to 10 — any number is fine."


def assign(client, slug):
    exercise = ExerciseFactory.create(kind=slug, title=f"The {slug} one", options=options_for(slug))
    return AssignmentFactory.create(client=client, exercise=exercise)


def alice(db):
    return ClientFactory.create(portal_user__email="alice@example.test")


def test_an_untouched_slider_is_not_answered_and_is_not_sent_as_five(db, page):
    assignment = assign(alice(db), "written_record")
    sign_in(page, "alice@example.test", PASSWORD)
    page.goto(f"/do/{assignment.pk}/")
    slider = page.locator("#id_r-body_distress")
    expect(slider).to_have_attribute("aria-valuetext", "Not answered yet")
    expect(page.locator("#id_r-body_distress + output")).to_have_text("Not answered yet")
    assert_accessible(page)

    page.fill("textarea[name=r-what_happened]", "They went quiet all evening.")
    page.click("text=Send to my therapist")
    expect(page.locator("#id_r-body_distress_error")).to_have_text(WARM)
    assert not Entry.objects.filter(assignment=assignment, status=Entry.Status.SUBMITTED).exists()
    # Still unanswered after the round trip, not quietly set to 5.
    expect(slider).to_have_attribute("aria-valuetext", "Not answered yet")

    slider.focus()
    page.keyboard.press("ArrowRight")
    expect(slider).to_have_attribute("aria-valuetext", "6 out of 10")
    expect(page.locator("#id_r-body_distress + output")).to_have_text("6")
    page.click("text=Send to my therapist")
    page.wait_for_selector("text=Sent. Thank you")
    entry = Entry.objects.get(assignment=assignment)
    assert entry.is_submitted and entry.response["body_distress"] == 6


def _columns(png: bytes) -> list[tuple[object, ...]]:
    """Each column of a picture, top to bottom, as its pixels."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    width, height = image.size
    return [tuple(image.getpixel((x, y)) for y in range(height)) for x in range(width)]


def test_an_unanswered_slider_shows_an_empty_track_with_no_handle(db, page):
    """A handle resting in the middle, or a track filled to it, read as a 5
    the client had chosen: unanswered, the track is the same all along. The
    first arrow press answers (a handle appears), heard as its number."""
    assignment = assign(alice(db), "urge_log")
    sign_in(page, "alice@example.test", PASSWORD)
    page.goto(f"/do/{assignment.pk}/")
    slider = page.locator("#id_r-intensity")
    slider.scroll_into_view_if_needed()
    # Clear of the track's rounded ends, the middle column is as the quarters are.
    box = page.locator("#id_r-intensity").locator(
        "xpath=ancestor::div[contains(@class,'field')][1]"
    )
    box.screenshot(path=ARTIFACTS / "scale-unanswered.png")
    columns = _columns(slider.screenshot())
    width = len(columns)
    assert columns[width // 2] == columns[width // 4] == columns[3 * width // 4]
    expect(page.locator("#id_r-intensity + output")).to_have_text("Not answered yet")
    expect(slider).to_have_attribute("aria-valuetext", "Not answered yet")

    slider.focus()
    page.keyboard.press("ArrowLeft")
    expect(slider).to_have_attribute("aria-valuetext", "4 out of 10")
    expect(page.locator("#id_r-intensity + output")).to_have_text("4")
    box.screenshot(path=ARTIFACTS / "scale-answered.png")
    columns = _columns(slider.screenshot())
    assert len(set(columns[width // 8 : 7 * width // 8])) > 1  # a handle, and a filled part


def test_clicking_the_slider_where_it_rests_answers_five(db, page):
    assignment = assign(alice(db), "urge_log")
    sign_in(page, "alice@example.test", PASSWORD)
    page.goto(f"/do/{assignment.pk}/")
    slider = page.locator("#id_r-intensity")
    slider.scroll_into_view_if_needed()
    box = slider.bounding_box()
    assert box
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(slider).to_have_attribute("aria-valuetext", "5 out of 10")
    expect(page.locator("#id_r-intensity_number")).to_have_value("5")


@pytest.mark.parametrize("key", ["Space", "Enter"])
def test_space_or_enter_on_an_untouched_slider_answers_where_it_rests(db, page, key):
    """With only a keyboard, answering 5 took an arrow press and one back:
    Space or Enter on an unanswered slider answers the number it rests on,
    heard as an arrow press is, and saved as one is."""
    assignment = assign(alice(db), "written_record")
    sign_in(page, "alice@example.test", PASSWORD)
    page.goto(f"/do/{assignment.pk}/")
    slider = page.locator("#id_r-body_distress")
    expect(slider).to_have_attribute("aria-valuetext", "Not answered yet")
    page.locator("textarea[name=r-what_was_said_or_done]").focus()
    page.keyboard.press("Tab")
    expect(slider).to_be_focused()

    page.keyboard.press(key)
    expect(slider).to_have_attribute("aria-valuetext", "5 out of 10")
    expect(page.locator("#id_r-body_distress + output")).to_have_text("5")
    expect(page.locator("#id_r-body_distress_number")).to_have_value("5")
    expect(slider).to_be_focused()  # Enter did not send the form
    assert_accessible(page)
    page.fill("textarea[name=r-what_happened]", "Answered with the keyboard.")
    page.wait_for_selector("#save-status[data-state=saved]")
    assert Entry.objects.get(assignment=assignment).response["body_distress"] == "5"

    # Once answered, the keys move nothing: only the arrows change a number.
    slider.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press(key)
    expect(slider).to_have_attribute("aria-valuetext", "6 out of 10")


def test_a_weekly_check_in_sent_untouched_stores_no_fives(db, page):
    assignment = assign(alice(db), "worksheet")
    sign_in(page, "alice@example.test", PASSWORD)
    page.goto(f"/do/{assignment.pk}/")
    page.fill("[name=r-word]", "tired")
    page.click("text=Send to my therapist")
    expect(page.locator("#id_r-pull_error")).to_have_text(WARM)
    expect(page.locator("#id_r-clarity_error")).to_have_text(WARM)
    assert not Entry.objects.filter(assignment=assignment, status=Entry.Status.SUBMITTED).exists()
    draft = Entry.objects.filter(assignment=assignment).first()
    assert draft is None or draft.response.get("pull") in (None, "")


def test_a_step_added_in_the_page_has_an_unanswered_slider_too(db, page):
    assignment = assign(alice(db), "boundary_steps")
    sign_in(page, "alice@example.test", PASSWORD)
    page.goto(f"/do/{assignment.pk}/")
    page.fill("textarea[name=r-steps-0-boundary]", "No calls after 10 pm.")
    page.check("input[name=r-steps-0-status][value=planned]")  # chosen, never chosen for them
    page.click("text=Add a step")
    page.keyboard.type("Sunday lunch with my sister.")
    added = page.locator("#id_r-steps-1-feeling")
    expect(added).to_have_attribute("aria-valuetext", "Not answered yet")
    page.check("input[name=r-steps-1-status][value=tried]")
    added.focus()
    page.keyboard.press("ArrowLeft")
    expect(added).to_have_attribute("aria-valuetext", "4 out of 10")
    page.wait_for_selector("#save-status[data-state=saved]")
    draft = Entry.objects.get(assignment=assignment)
    assert draft.response["steps"][0].get("feeling") in (None, "")
    assert draft.response["steps"][1]["feeling"] == "4"
    page.click("text=Send to my therapist")
    page.wait_for_selector("text=Sent. Thank you")
    entry = Entry.objects.get(assignment=assignment)
    assert [(s["status"], s["feeling"]) for s in entry.response["steps"]] == [
        ("planned", None),
        ("tried", 4),
    ]


def test_changing_a_sent_entry_shows_its_stored_number(db, page):
    assignment = assign(alice(db), "written_record")
    entry = EntryFactory.create(assignment=assignment)  # body_distress 7
    sign_in(page, "alice@example.test", PASSWORD)
    page.goto(f"/entries/{entry.key}/edit/")
    expect(page.locator("#id_r-body_distress")).to_have_attribute("aria-valuetext", "7 out of 10")
    expect(page.locator("#id_r-body_distress + output")).to_have_text("7")
    page.click("text=Save my changes")
    entry.refresh_from_db()
    assert entry.response["body_distress"] == 7


def test_without_script_a_number_can_still_be_chosen(db, browser, live_server):
    assignment = assign(alice(db), "written_record")
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    try:
        page = context.new_page()
        sign_in(page, "alice@example.test", PASSWORD)
        page.goto(f"/do/{assignment.pk}/")
        number = page.locator("#id_r-body_distress")
        expect(number).to_have_value("")
        page.fill("textarea[name=r-what_happened]", "Written without script.")
        number.select_option("3")
        page.click("text=Send to my therapist")
        page.wait_for_selector("text=Sent. Thank you")
    finally:
        context.close()
    entry = Entry.objects.get(assignment=assignment)
    assert entry.response["body_distress"] == 3


# Each slider's own description, as a screen reader hears it, against the words
# shown at its two ends.
UNHEARD_ENDS = """() => [...document.querySelectorAll("input[type=range]")].flatMap(slider => {
    const ids = (slider.getAttribute("aria-describedby") || "").split(/\\s+/).filter(Boolean);
    const heard = ids.map(id => document.getElementById(id)?.textContent || "").join(" ");
    return [...slider.closest(".scale").querySelectorAll(".scale__end")]
        .map(end => end.textContent.split("·").pop().trim())
        .filter(words => words && !/^\\d+$/.test(words) && !heard.includes(words))
        .map(words => slider.id + ": " + words);
})"""


def test_a_screen_reader_hears_what_each_end_of_a_slider_means(db, page):
    client = alice(db)
    check_in = ExerciseFactory.create(
        kind="worksheet", options=get_kind("worksheet").options_example
    )
    assignments = [
        AssignmentFactory.create(client=client, exercise=check_in),
        *(assign(client, slug) for slug in ("written_record", "urge_log", "boundary_steps")),
    ]
    sign_in(page, "alice@example.test", PASSWORD)
    for assignment in assignments:
        page.goto(f"/do/{assignment.pk}/")
        page.wait_for_selector("input[type=range]")
        if page.locator("[data-row-add]").count():
            page.locator("[data-row-add]").click()  # a row made in the page, too
        # The ends were shown but hidden from screen readers: "How clear do you
        # feel?" said "6 out of 10" and never whether 10 was clear or foggy.
        assert page.evaluate(UNHEARD_ENDS) == [], assignment.exercise.kind
