"""A client their therapist archived signs in: one calm page, and their download."""

import json

from playwright.sync_api import expect
from pypdf import PdfReader

from clients.services import client_archive
from homework.models import Entry
from tests.browser.helpers import assert_accessible, sign_in, wait_for_db
from tests.factories import PASSWORD, AssignmentFactory, EntryFactory
from tests.helpers_entries import first_saying


def test_an_archived_client_reads_the_closed_page_and_takes_their_words(
    cast, new_context, artifacts
):
    second = AssignmentFactory.create(client=cast.alice)
    EntryFactory.create(
        assignment=second,
        response={**cast.alice_entry.response, "what_happened": "The door was locked."},
    )
    client_archive(actor=cast.tara, client=cast.alice)

    page = new_context(360, 800).new_page()
    sign_in(page, "alice@example.test", PASSWORD)
    expect(page.get_by_role("heading", level=1)).to_have_text("Your notebook is closed")
    assert page.url.endswith("/account/closed/")
    expect(page.locator("#quick-exit button")).to_be_visible()
    expect(page.get_by_role("link", name="Help now")).to_be_visible()
    expect(page.get_by_role("button", name="Sign out", exact=True)).to_be_visible()
    assert_accessible(page, "the archived client")
    page.screenshot(path=artifacts / "closed-notebook-360.png", full_page=True)

    # Everything, as JSON.
    with page.expect_download() as download:
        page.get_by_role("link", name="Download everything (JSON)").click()
    with open(download.value.path(), encoding="utf-8") as file:
        written = {e["response"]["what_happened"] for e in json.load(file)["entries"]}
    assert written == {cast.alice_entry.response["what_happened"], "The door was locked."}

    # The PDF, of the one exercise chosen: the same choice as in Settings.
    boxes = page.get_by_role("group", name="What to put in the PDF").get_by_role("checkbox")
    expect(boxes).to_have_count(2)
    page.locator(f'input[name="include"][value="{cast.alice_assignment.pk}"]').uncheck()
    with page.expect_download() as download:
        page.get_by_role("button", name="Download as PDF (to read or print)").click()
    pdf = PdfReader(download.value.path())
    text = " ".join(" ".join(p.extract_text() for p in pdf.pages).split())
    assert "The door was locked." in text
    assert cast.alice_entry.response["what_happened"] not in text

    # Any other address of the portal leads back here.
    page.goto("/history/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Your notebook is closed")


def test_words_typed_as_the_notebook_closes_stay_on_the_page_and_are_kept(cast, new_context):
    page = new_context(360, 800).new_page()
    sign_in(page, "alice@example.test", PASSWORD)
    page.goto(f"/do/{cast.alice_assignment.pk}/")
    box = page.locator("textarea[name=r-what_happened]")
    box.fill("Before it closed.")
    expect(page.locator("#save-status")).to_contain_text("Saved at")

    client_archive(actor=cast.tara, client=cast.alice)
    box.fill("Before it closed. And after.")
    status = page.locator("#save-status")
    expect(status).to_contain_text("Your notebook with the practice is closed")
    expect(status).to_contain_text("kept as an unsent draft")
    expect(status).not_to_contain_text("Not saved")  # it was: said before "kept"
    expect(box).to_have_value("Before it closed. And after.")
    draft = wait_for_db(
        lambda: first_saying(
            Entry.objects.filter(assignment=cast.alice_assignment, status=Entry.Status.DRAFT),
            what_happened="Before it closed. And after.",
        )
    )
    assert draft is not None
