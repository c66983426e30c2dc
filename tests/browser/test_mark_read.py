"""Marking entries read in a real browser, on the demo practice: opening
Since last session or an entry reads nothing; the therapist's press on its
button does, says what it did, and takes the client's edits away only then."""

import io
import re

from django.core.management import call_command
from playwright.sync_api import expect

from clients.models import Client
from homework.models import Entry
from tests.browser.helpers import assert_accessible, staff_signed_in, wait_for_db

MARK = re.compile(r"Mark (this entry|these \d+ entries) as read")


def test_the_therapist_marks_what_they_saw_as_read_by_pressing_the_button(
    db, live_server, new_context, artifacts
):
    call_command("seed_demo", stdout=io.StringIO())
    alex = Client.objects.get(display_name="Alex")
    shared = Entry.objects.filter(
        assignment__client=alex, status=Entry.Status.SUBMITTED, private=False
    )
    shared.update(seen_at=None)  # all news, whatever the demo had read
    page = new_context(1280, 900).new_page()
    staff_signed_in(page, live_server, "therapist@demo.test")

    # Reached by a click, as a therapist would: still nothing is read.
    page.goto(f"/admin/clients/client/{alex.pk}/change/")
    page.get_by_role("link", name="Since last session").first.click()
    expect(page.get_by_role("heading", name="Since last session: Alex")).to_be_visible()
    assert not shared.filter(seen_at__isnull=False).exists()
    form = page.locator("form.ws-mark-read")
    expect(form).to_contain_text("can no longer change them or make them private again")
    assert_accessible(page)
    page.screenshot(path=artifacts / "admin-mark-read-1280.png", full_page=True)
    on_page = int(form.locator('input[name="entry"]').count())
    assert on_page > 0

    form.get_by_role("button", name=MARK).click()
    expect(page.get_by_text(re.compile(r"Marked \d+ entr(y|ies) as read"))).to_be_visible()
    expect(page.locator("form.ws-mark-read")).to_have_count(0)
    wait_for_db(lambda: shared.filter(seen_at__isnull=False).count() == on_page)

    # An entry the page did not cover, read from its own page.
    left = shared.filter(seen_at__isnull=True).first() or shared.first()
    assert left is not None
    Entry.objects.filter(pk=left.pk).update(seen_at=None)
    page.goto(f"/admin/homework/entry/{left.pk}/change/")
    assert Entry.objects.get(pk=left.pk).seen_at is None
    page.get_by_role("button", name="Mark this entry as read").click()
    expect(
        page.get_by_text("Marked 1 entry as read. Alex can no longer change it.")
    ).to_be_visible()
    assert page.url.endswith(f"/admin/homework/entry/{left.pk}/change/")
    wait_for_db(lambda: Entry.objects.get(pk=left.pk).seen_at is not None)
