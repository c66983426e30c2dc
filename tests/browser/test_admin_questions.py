"""A therapist writes a worksheet's questions in the admin without touching JSON."""

from playwright.sync_api import Page, expect

from homework.models import Exercise
from tests.browser.helpers import assert_accessible, staff_signed_in
from tests.factories import TherapistFactory


def new_worksheet_page(new_context, live_server, *, title: str, instructions: str) -> Page:
    """Tara, signed in, on a new exercise of the worksheet kind, its title written."""
    TherapistFactory.create(email="tara@example.test", name="Tara")
    page: Page = new_context(1280, 900).new_page()
    staff_signed_in(page, live_server, "tara@example.test")
    page.goto("/admin/homework/exercise/add/")
    page.select_option("#id_kind", label="Reflection worksheet")
    page.fill("#id_title", title)
    page.fill("#id_instructions", instructions)
    return page


def test_a_worksheet_is_written_question_by_question_and_saved_as_checked_options(
    db, live_server, new_context, artifacts
):
    page = new_worksheet_page(
        new_context,
        live_server,
        title="Where the week left me",
        instructions="A few questions about the week.",
    )
    expect(page.locator("#id_options")).to_be_hidden()  # the editor stands in for the JSON

    page.get_by_role("button", name="Add a question").click()
    page.fill("#qe-0-text", "How steady did you feel?")
    page.select_option("#qe-0-type", label="A number from 0 to 10")
    expect(page.locator("#qe-0-type")).to_be_focused()  # drawn again, focus kept
    page.fill("#qe-0-low", "not at all")
    page.fill("#qe-0-high", "very")
    page.check("#qe-0-scored")
    page.fill("#qe-score-label", "Steadiness")

    page.get_by_role("button", name="Add a question").click()
    page.fill("#qe-1-text", "What helped?")
    page.select_option("#qe-1-type", label="One choice from a list")
    page.fill("#qe-1-choices", "A friend\nTime outside\n")
    page.get_by_role("button", name="Move up").nth(1).click()  # the choice question first
    assert_accessible(page)
    page.screenshot(path=artifacts / "admin-worksheet-questions-1280.png", full_page=True)
    page.click("input[name=_save]")

    expect(page.locator(".messagelist")).to_contain_text("was added successfully")
    options = Exercise.objects.get(title="Where the week left me").options
    # Keys are made from each question (never a removed question's number).
    keys = [question.pop("key") for question in options["questions"]]
    assert len(set(keys)) == 2 and all(key.startswith("q_") for key in keys)
    assert options == {
        "questions": [
            {
                "type": "single_choice",
                "text": "What helped?",
                "required": False,
                "choices": ["A friend", "Time outside"],
            },
            {
                "type": "scale_0_10",
                "text": "How steady did you feel?",
                "required": True,
                "low": "not at all",
                "high": "very",
                "scored": True,
            },
        ],
        "score": {"method": "mean", "better": "higher", "label": "Steadiness"},
    }

    # Opened again, the saved questions are drawn back, keys kept.
    exercise = Exercise.objects.get(title="Where the week left me")
    page.goto(f"/admin/homework/exercise/{exercise.pk}/change/")
    expect(page.locator("#qe-0-text")).to_have_value("What helped?")
    expect(page.locator("#qe-1-scored")).to_be_checked()
    expect(page.locator("#qe-score-label")).to_have_value("Steadiness")


def test_a_question_left_without_its_text_comes_back_with_the_servers_message(
    db, live_server, new_context
):
    page = new_worksheet_page(new_context, live_server, title="Unfinished", instructions="Later.")
    page.get_by_role("button", name="Add a question").click()
    page.click("input[name=_save]")
    expect(page.locator(".errorlist")).to_contain_text("Question 1: the question needs its text.")
    expect(page.locator("#qe-0-text")).to_be_visible()  # the editor again, with the question
    assert not Exercise.objects.filter(title="Unfinished").exists()


def test_switching_away_from_a_worksheet_leaves_no_questions_behind_and_back_restores_them(
    db, live_server, new_context
):
    page = new_worksheet_page(
        new_context, live_server, title="Changed my mind", instructions="Write it down."
    )
    page.get_by_role("button", name="Add a question").click()
    page.fill("#qe-0-text", "What did you notice?")

    page.select_option("#id_kind", label="Written record")
    expect(page.locator("#id_options")).to_be_hidden()  # this kind asks nothing there
    assert page.input_value("#id_options").strip() == "{}"

    page.select_option("#id_kind", label="Reflection worksheet")  # and back: nothing lost
    expect(page.locator("#qe-0-text")).to_have_value("What did you notice?")

    page.select_option("#id_kind", label="Written record")
    page.click("input[name=_save]")
    expect(page.locator(".messagelist")).to_contain_text("was added successfully")
    saved = Exercise.objects.get(title="Changed my mind")
    assert (saved.kind, saved.options) == ("written_record", {})


def test_adding_moving_and_removing_questions_keeps_the_keyboards_place(
    db, live_server, new_context
):
    """Each button redraws the editor, which took away the button that had
    focus: the keyboard fell back to the top of the page after every press."""
    page = new_worksheet_page(
        new_context, live_server, title="By keyboard", instructions="Take your time."
    )
    add = page.get_by_role("button", name="Add a question")
    add.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#qe-0-text")).to_be_focused()  # the new question, ready to write
    page.keyboard.type("First written")
    add.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#qe-1-text")).to_be_focused()
    page.keyboard.type("Second written")

    # Up: focus follows the question it moved (now first, so "Move up" is off).
    page.get_by_role("button", name="Move up").nth(1).focus()
    page.keyboard.press("Enter")
    expect(page.locator("#qe-0-text")).to_have_value("Second written")
    expect(page.locator("#qe-0-down")).to_be_focused()
    page.keyboard.press("Enter")  # and down again
    expect(page.locator("#qe-1-text")).to_have_value("Second written")
    expect(page.locator("#qe-1-up")).to_be_focused()

    # Remove: focus goes to the question that takes its place, or the one before.
    page.locator("#qe-0-remove").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#qe-0-text")).to_have_value("Second written")
    expect(page.locator("#qe-0-text")).to_be_focused()
    page.locator("#qe-0-remove").focus()
    page.keyboard.press("Enter")
    expect(add).to_be_focused()  # none left: where the next one is added


def test_a_watched_answer_is_chosen_in_words_and_saved_as_its_rule(
    db, live_server, new_context, artifacts
):
    page = new_worksheet_page(
        new_context, live_server, title="How the week felt", instructions="Two questions."
    )
    page.get_by_role("button", name="Add a question").click()
    page.fill("#qe-0-text", "How safe have you felt?")
    page.select_option("#qe-0-type", label="A number from 0 to 10")
    expect(page.locator("#qe-0-review-below")).to_have_count(0)  # only a scored question
    page.check("#qe-0-scored")
    below = page.get_by_role("combobox", name="Flag for my review when the answer is or lower")
    below.select_option("3")
    page.get_by_role("button", name="Add a question").click()
    page.fill("#qe-1-text", "Did you feel safe at home?")
    page.select_option("#qe-1-type", label="Yes or no")
    page.get_by_role("group", name="Flag for my review when the client chooses").get_by_label(
        "No"
    ).check()
    assert_accessible(page)
    page.screenshot(path=artifacts / "admin-worksheet-watched-answers-1280.png", full_page=True)
    page.click("input[name=_save]")

    expect(page.locator(".messagelist")).to_contain_text("was added successfully")
    exercise = Exercise.objects.get(title="How the week felt")
    safe, at_home = exercise.options["questions"]
    assert (safe["review_at_or_below"], "review_above" in safe) == (3, False)
    assert at_home["review_choices"] == ["no"]

    page.goto(f"/admin/homework/exercise/{exercise.pk}/change/")
    expect(page.locator("#qe-0-review-below")).to_have_value("3")
    expect(page.locator("#qe-0-review-above")).to_have_value("")
    expect(page.locator("#qe-1-review-choice-1")).to_be_checked()


def test_a_reading_is_written_in_its_own_fields_with_no_json_in_sight(
    db, live_server, new_context, artifacts
):
    TherapistFactory.create(email="tara@example.test", name="Tara")
    page: Page = new_context(1280, 900).new_page()
    staff_signed_in(page, live_server, "tara@example.test")
    page.goto("/admin/homework/exercise/add/")
    expect(page.locator("#id_reading_text")).to_be_hidden()  # another kind is chosen
    page.select_option("#id_kind", label="Reading")
    expect(page.locator("#id_options")).to_be_hidden()
    page.fill("#id_title", "Urges peak and ease")
    page.fill("#id_instructions", "Read this when you have a quiet moment.")
    page.fill("#id_reading_text", "## A wave\n\nIt rises, and it passes.")
    page.fill("#id_reading_prompt_1", "When did an urge ease?")
    assert_accessible(page)
    page.screenshot(path=artifacts / "admin-reading-1280.png", full_page=True)
    page.click("input[name=_save]")
    expect(page.locator(".messagelist")).to_contain_text("was added successfully")
    assert Exercise.objects.get(title="Urges peak and ease").options == {
        "text": "## A wave\n\nIt rises, and it passes.",
        "prompts": ["When did an urge ease?"],
    }
