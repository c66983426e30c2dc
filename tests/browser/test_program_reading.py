"""A program's reading on a phone: read as calm text, reflected on, marked read, and the next step
is on To do straight after, with no title of a step still to come shown before its time."""

from playwright.sync_api import expect

from homework.models import Program, Release
from homework.selectors import client_today
from homework.services import programs
from homework.services.programs import StepData
from tests.browser.helpers import assert_accessible, sign_in
from tests.factories import PASSWORD, ClientFactory, ExerciseFactory, options_for


def test_reading_a_step_marks_it_read_and_brings_the_next(db, page, artifacts):
    client = ClientFactory.create(portal_user__email="alice@example.test")
    therapist = client.therapist
    program = Program.objects.create(title="Understanding the pull", owner=therapist)
    steps = [
        StepData(
            exercise=ExerciseFactory.create(
                kind="reading", title="Knowing is not leaving", options=options_for("reading")
            ),
            release=Release.RIGHT_AWAY,
        ),
        StepData(exercise=ExerciseFactory.create(title="Keep the full picture")),
    ]
    programs.program_steps_save(actor=therapist, program=program, steps=steps, revision=0)
    programs.client_program_create(
        actor=therapist, client=client, program=program, starts_on=client_today(client)
    )

    sign_in(page, "alice@example.test", PASSWORD)
    todo = page.locator("main")
    expect(todo).to_contain_text("Step 1 of 2")
    expect(todo).not_to_contain_text("Keep the full picture")
    page.get_by_role("link", name="Knowing is not leaving").click()

    # The reading's own heading sits under the page's, and no markup shows as text.
    expect(page.get_by_role("heading", level=2, name="Knowing is not leaving")).to_be_visible()
    expect(page.locator("main li")).to_have_count(2)
    expect(page.locator("main")).not_to_contain_text("##")
    assert_accessible(page, "reading")
    page.screenshot(path=artifacts / "reading-390.png", full_page=True)

    page.get_by_label("What stayed with you?").fill(
        "That feeling pulled is not the same as choosing."
    )
    page.get_by_role("button", name="I've read this").click()
    page.wait_for_selector("text=Sent. Thank you")

    page.goto("/")
    expect(todo).to_contain_text("Step 2 of 2")
    expect(page.get_by_role("link", name="Keep the full picture")).to_be_visible()
    assert_accessible(page, "to do, next step")
