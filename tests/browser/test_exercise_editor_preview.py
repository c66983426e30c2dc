"""The exercise editor as a therapist meets it: questions in words, a preview that follows them,
and the JSON only when asked for, where JSON that does not read costs none of the questions."""

import pytest
from playwright.sync_api import Page, expect

from homework.models import Exercise
from tests.browser.helpers import assert_accessible, staff_signed_in
from tests.factories import TherapistFactory


@pytest.mark.browser
@pytest.mark.parametrize(("width", "height"), [(1280, 900), (390, 844)])
def test_the_preview_follows_the_questions_and_broken_json_keeps_them(
    db, live_server, new_context, artifacts, width, height
):
    TherapistFactory.create(email="tara@example.test", name="Tara")
    page: Page = new_context(width, height).new_page()
    staff_signed_in(page, live_server, "tara@example.test")
    page.goto("/admin/homework/exercise/add/")
    page.select_option("#id_kind", label="Reflection worksheet")
    page.fill("#id_title", "After the call")
    page.fill("#id_instructions", "A few minutes after it ends.")
    page.get_by_role("button", name="Add a question").click()
    page.fill("#qe-0-text", "What did you notice in your body?")

    preview = page.frame_locator("#exercise-preview")
    expect(preview.get_by_label("What did you notice in your body?")).to_be_visible()
    expect(preview.get_by_role("heading", name="After the call", level=1)).to_be_visible()
    expect(page.get_by_text("Edit as JSON")).to_be_visible()
    expect(page.locator("#id_options")).to_be_hidden()
    assert_accessible(page, f"editor {width}")
    frame = page.frame(name="exercise-preview")
    assert frame is not None
    assert_accessible(frame, f"preview {width}")
    page.screenshot(path=artifacts / f"admin-exercise-preview-{width}.png", full_page=True)

    # JSON that does not read: said at the field, the questions kept as they were.
    page.get_by_text("Edit as JSON").click()
    page.fill("#id_options", '{"questions": [')
    problem = page.locator("#id_options-problem")
    expect(problem).to_contain_text("does not read as JSON")
    expect(page.locator("#id_options")).to_have_attribute("aria-describedby", "id_options-problem")
    expect(page.locator("#qe-0-text")).to_have_value("What did you notice in your body?")
    expect(preview.get_by_role("status")).to_contain_text("This is not valid JSON")
    assert_accessible(page, f"invalid JSON {width}")

    # Saved anyway: refused at the field, nothing saved, the questions drawn again as they were.
    page.click("input[name=_save]")
    expect(page.locator(".field-options .errorlist")).to_contain_text("This is not valid JSON")
    expect(page.locator("#qe-0-text")).to_have_value("What did you notice in your body?")
    expect(page.locator("#id_options")).to_be_visible()
    assert not Exercise.objects.filter(title="After the call").exists()
    assert_accessible(page, f"refused {width}")
    page.screenshot(path=artifacts / f"admin-exercise-invalid-json-{width}.png", full_page=True)

    page.get_by_role("button", name="Put these questions back in the JSON").click()
    expect(problem).to_be_hidden()
    page.click("input[name=_save]")
    expect(page.locator(".messagelist")).to_contain_text("was added successfully")
    saved = Exercise.objects.get(title="After the call")
    assert [q["text"] for q in saved.options["questions"]] == ["What did you notice in your body?"]
