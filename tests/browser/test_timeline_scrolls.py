"""The client's progress timeline on a phone says that it scrolls; on a wide screen, where it fits,
it says nothing of the kind."""

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.helpers import assert_accessible, sign_in
from tests.factories import (
    PASSWORD,
    RESPONSES,
    AssignmentFactory,
    ClientFactory,
    EntryFactory,
    daily_urge_log,
)

pytestmark = pytest.mark.browser


def test_the_progress_timeline_says_it_scrolls_where_it_does(db, new_context):
    client = ClientFactory.create(portal_user__email="alice@example.test")
    start = timezone.localdate() - dt.timedelta(days=6)
    daily_urge_log(client, start=start, days=7, intensity=lambda day: 9 - day)
    EntryFactory.create(
        assignment=AssignmentFactory.create(client=client, exercise__kind="written_record"),
        response=RESPONSES["written_record"](),
    )
    page = new_context(375, 740).new_page()
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")
    page.goto("/progress/")
    hint = page.get_by_text("Scroll sideways to see every day.")
    box = page.locator(".timeline__scroll")
    expect(hint).to_be_visible()
    assert box.evaluate("box => box.scrollWidth > box.clientWidth")
    # The keyboard scrolls it too.
    box.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "() => document.querySelector('.timeline__scroll').scrollLeft > 0", timeout=5000
    )
    assert_accessible(page, "the progress timeline on a phone")
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(hint).to_be_hidden()
    assert box.evaluate("box => box.scrollWidth <= box.clientWidth")
