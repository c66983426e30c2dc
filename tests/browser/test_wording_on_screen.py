"""A worksheet question reworded while the client's page is open, in a real
browser: the page's own saves say which words it showed, and the client can
say an answer still fits the new words (the box posts with the autosave)."""

import uuid

from playwright.sync_api import expect

from homework import services
from homework.kinds.worksheet.options import clean_worksheet_options
from homework.models import Entry
from tests.browser.helpers import assert_accessible, sign_in
from tests.factories import PASSWORD, AssignmentFactory, ClientFactory, ExerciseFactory

SAFE = "Did you feel safe at home this week?"
UNSAFE = "Did you feel unsafe at home this week?"


def test_a_stale_tab_answers_its_own_words_and_the_client_can_confirm_the_new_ones(
    db, new_context, artifacts
):
    client = ClientFactory.create(portal_user__email="alice@example.test")
    exercise = ExerciseFactory.create(
        kind="worksheet",
        title="Weekly check-in",
        options=clean_worksheet_options(
            {"questions": [{"key": "safe", "type": "yes_no", "text": SAFE}]}
        ),
    )
    assignment = AssignmentFactory.create(client=client, exercise=exercise)
    assert client.portal_user is not None
    draft = services.entry_save_draft(
        user=client.portal_user,
        assignment_id=assignment.pk,
        key=uuid.uuid4(),
        base_version=0,
        data={"safe": "no"},
        flags=services.Flags(),
    )
    page = new_context().new_page()
    sign_in(page, "alice@example.test", PASSWORD)
    page.goto(f"/do/{assignment.pk}/")
    expect(page.get_by_text(SAFE)).to_be_visible()

    # The therapist rewords the question; this tab still shows the old words.
    exercise.options = clean_worksheet_options(
        {"questions": [{"key": "safe", "type": "yes_no", "text": UNSAFE}]}, saved=exercise.options
    )
    exercise.save()
    with page.expect_response(lambda reply: reply.url.endswith("/save/")) as saved:
        page.check("input[name=r-safe][value=yes]")
    assert saved.value.ok
    draft.refresh_from_db()
    assert draft.response["safe"] == "yes"
    assert draft.asked["safe"]["text"] == SAFE

    # Opened again: the new words, what the answer answered, and the box.
    page.goto(f"/do/{assignment.pk}/")
    expect(page.get_by_text(UNSAFE)).to_be_visible()
    expect(page.get_by_text(f"When you answered, this read: “{SAFE}”")).to_be_visible()
    box = page.get_by_label("My answer still fits the question as it reads now.")
    assert_accessible(page)
    page.screenshot(path=artifacts / "worksheet-reworded-still-fits-390.png", full_page=True)
    with page.expect_response(lambda reply: reply.url.endswith("/save/")) as saved:
        box.check()
    assert saved.value.ok
    assert Entry.objects.get(pk=draft.pk).asked["safe"]["text"] == UNSAFE
