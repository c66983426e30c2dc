"""The therapist's pages keep their shape, desktop to phone, in a real browser.

Django floats the object tools up beside the page's title. A client's page
has eight of them: at 1280 pixels they wrapped, and the second row sat on
top of the client's name, the one word that says whose page this is. On a
phone, the client's pictures on "Since last session" kept their drawn width
and pushed the page sideways.
"""

import io

from django.core.management import call_command
from playwright.sync_api import expect

from clients.models import Client
from tests.browser.helpers import assert_accessible, staff_signed_in


def the_demo_therapist_signed_in(context, live_server):
    """The demo practice (`make run`'s) loaded, and its therapist signed in on a new page."""
    call_command("seed_demo", stdout=io.StringIO())
    page = context.new_page()
    staff_signed_in(page, live_server, "therapist@demo.test")
    return page


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


# Each element's box, as Playwright's bounding_box gives it: None for one not drawn.
BOXES = """elements => elements.map(e => {
    if (!e.getClientRects().length) return null;
    const r = e.getBoundingClientRect();
    return {x: r.x, y: r.y, width: r.width, height: r.height};
})"""


def test_the_client_page_buttons_leave_the_clients_name_readable(
    db, live_server, new_context, artifacts
):
    page = the_demo_therapist_signed_in(new_context(1280, 900), live_server)
    alex = Client.objects.get(display_name="Alex")
    for width, height in ((1280, 900), (1024, 768), (390, 844)):
        # Signed in once: each screen size opens the page afresh at that size.
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/admin/clients/client/{alex.pk}/change/")
        name = page.locator("#content > h1", has_text="Alex")
        expect(name).to_be_visible()
        # The name's own letters, not the heading's full-width block.
        name_box = name.evaluate(
            """h => { const range = document.createRange(); range.selectNodeContents(h);
                const r = range.getBoundingClientRect();
                return {x: r.x, y: r.y, width: r.width, height: r.height}; }"""
        )
        tools = page.locator(".object-tools li")
        expect(tools.first).to_be_visible()
        boxes = tools.evaluate_all(BOXES)
        page.screenshot(path=artifacts / f"admin-client-page-{width}.png")
        if width == 1280:  # the client page's accessibility, checked once
            assert_accessible(page, "the client page")
        for box in boxes:
            assert box is not None
            assert not _overlap(box, name_box), (width, box, name_box)
        # Wrapped rows do not sit on each other either.
        for i, first in enumerate(boxes):
            for second in boxes[i + 1 :]:
                assert first is not None and second is not None
                assert not _overlap(first, second), (width, first, second)


def test_since_last_session_fits_a_phone_with_the_clients_pictures(
    db, live_server, new_context, artifacts
):
    page = the_demo_therapist_signed_in(new_context(390, 844), live_server)
    alex = Client.objects.get(display_name="Alex")
    page.goto(f"/admin/clients/client/{alex.pk}/since-last-session/")
    # Each kind's digest draws its charts as the session summary does, as pictures.
    charts = page.locator(".ws-digest img")
    expect(charts.first).to_be_visible()
    page.screenshot(path=artifacts / "admin-since-last-session-390.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for chart in charts.all():
        box = chart.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390, box


def test_assigning_to_several_clients_has_its_two_buttons_level(
    db, live_server, new_context, artifacts
):
    # "Cancel" was a box as tall as "Assign" with its word stuck at the top.
    page = the_demo_therapist_signed_in(new_context(1280, 900), live_server)
    page.goto("/admin/clients/client/")
    page.locator("#action-toggle").check()
    page.select_option("select[name=action]", "assign_exercise")
    page.locator("button[name=index]").click()
    expect(
        page.get_by_role("heading", name="Assign an exercise to several clients")
    ).to_be_visible()
    page.screenshot(path=artifacts / "admin-assign-several-1280-first-screen.png")
    words = """e => { const range = document.createRange(); range.selectNodeContents(e);
        const r = range.getBoundingClientRect(); return r.y + r.height / 2; }"""
    assign = page.locator(".submit-row input[type=submit]")
    cancel = page.locator(".submit-row a.cancel-link")
    assign_box, cancel_box = assign.bounding_box(), cancel.bounding_box()
    assert assign_box is not None and cancel_box is not None
    assert abs(assign_box["height"] - cancel_box["height"]) <= 2, (assign_box, cancel_box)
    assert abs(assign_box["y"] - cancel_box["y"]) <= 2, (assign_box, cancel_box)
    # The word sits in the middle of its box, as on "Assign".
    middle = cancel_box["y"] + cancel_box["height"] / 2
    assert abs(cancel.evaluate(words) - middle) <= 2


# Anything on the page wider than the screen, or scrolled sideways in a box of its own
# (Django's changelist puts its table in one, so the page itself never looked too wide).
SIDEWAYS = """() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll("#content *")]
        .filter(e => e.getBoundingClientRect().right > width + 1
                     || e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== "visible")
        .map(e => `${e.tagName}.${e.className}`);
}"""


# The therapist's lists, each with columns a phone cannot hold side by side,
# and a column each list must keep naming there.
THE_LISTS = (
    ("/admin/clients/client/", ("Next session", "Open work", "Last entry")),
    ("/admin/homework/assignment/", ("Client", "Starts on", "Schedule", "Status")),
    ("/admin/homework/entry/", ("Client", "Submitted", "Excerpt", "Read", "Comments")),
    # The admin home's "Print session summary" is a link on each row here.
    ("/admin/clients/session/", ("Client", "Prepare", "Summary")),
)


def test_the_therapists_lists_fit_a_phone_without_scrolling_sideways(
    db, live_server, new_context, artifacts
):
    """At 390 pixels the lists of clients, assignments, entries (all of them, or
    one client's, as the client's page opens it) and sessions ran past the screen's edge: the
    columns past the first two sat out of sight in a box scrolled sideways. Each
    row now stacks its columns, each named."""
    page = the_demo_therapist_signed_in(new_context(390, 844), live_server)
    alex = Client.objects.get(display_name="Alex")
    page.goto(f"/admin/clients/client/{alex.pk}/change/")
    page.get_by_role("link", name="All entries").click()
    alexs_entries = page.url
    for url, columns in (*THE_LISTS, (alexs_entries, THE_LISTS[2][1])):
        page.goto(url)
        rows = page.locator("#result_list tbody tr")
        expect(rows.first).to_be_visible()
        name = url.strip("/").split("/")[-1].split("?")[0]
        page.screenshot(path=artifacts / f"admin-list-{name}-390.png", full_page=True)
        assert page.evaluate(
            "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        ), url
        assert page.evaluate(SIDEWAYS) == [], url
        # Readable: each value keeps the name of its column beside it.
        first = rows.first
        shown = first.locator("td").evaluate_all(
            "cells => cells.map(c => getComputedStyle(c, '::before').content)"
        )
        for column in columns:
            assert f'"{column}"' in shown, (url, shown)
        for box in first.locator("td, th").evaluate_all(BOXES):
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        # The row's link, and its tick box where the list has actions, are reached
        # by keyboard in reading order: the box, then the link.
        link = first.locator("th a")
        expect(link).to_be_visible()
        tick = first.locator("input.action-select")
        if tick.count():
            expect(tick).to_be_visible()
            tick.focus()
            page.keyboard.press("Tab")
        else:
            link.focus()
        expect(link).to_be_focused()
        assert_accessible(page)

    # Still a working list there: searched, filtered, and ticked for an action.
    page.goto("/admin/homework/assignment/")
    page.fill("#searchbar", "safety")
    page.keyboard.press("Enter")
    expect(page.locator("#result_list tbody tr")).to_have_count(1)
    page.get_by_role("link", name="Active", exact=True).click()
    expect(page.locator("#result_list tbody th a")).to_have_text("My safety plan")
    page.goto("/admin/clients/client/")
    page.get_by_role("checkbox", name="Alex").check()
    page.select_option("select[name=action]", "assign_exercise")
    page.locator("button[name=index]").click()
    expect(
        page.get_by_role("heading", name="Assign an exercise to several clients")
    ).to_be_visible()


def test_the_therapist_sorts_a_list_on_a_phone_by_keyboard(db, live_server, new_context, artifacts):
    """On a phone the headings are out of sight, and Django sorts by its
    headings: a stacked list offers the same sorting above its rows, reached
    by keyboard, saying which order is current."""
    page = the_demo_therapist_signed_in(new_context(390, 844), live_server)
    page.goto("/admin/clients/client/")
    names = page.locator("#result_list tbody th a")
    expect(names).to_have_text(["Alex", "Sam"])
    sort = page.get_by_role("navigation", name="Sort by")
    expect(sort).to_be_visible()
    expect(sort).to_contain_text("Display name (sorted ascending)")
    page.screenshot(path=artifacts / "admin-list-sort-390.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(SIDEWAYS) == []
    assert_accessible(page)

    # From the top of the page, Tab reaches the control; Enter turns the order round.
    turn = sort.get_by_role("link", name="Sort descending")
    for _ in range(60):
        page.keyboard.press("Tab")
        if turn.evaluate("a => a === document.activeElement"):
            break
    expect(turn).to_be_focused()
    page.keyboard.press("Enter")
    expect(names).to_have_text(["Sam", "Alex"])
    expect(sort).to_contain_text("Display name (sorted descending)")
    expect(sort.get_by_role("link", name="Sort ascending")).to_be_visible()

    # Another column, chosen the same way, becomes the order.
    by_last_entry = sort.get_by_role("link", name="Last entry")
    by_last_entry.focus()
    page.keyboard.press("Enter")
    expect(sort).to_contain_text("Last entry (sorted ascending)")
    expect(sort.get_by_role("link", name="Display name")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(SIDEWAYS) == []
    assert_accessible(page)


def test_the_therapists_lists_stay_tables_on_a_desktop(db, live_server, new_context):
    """Only a narrow screen stacks the rows: at 1280 pixels each list is still a
    table, its headings showing (and sorting), its values side by side on one line."""
    page = the_demo_therapist_signed_in(new_context(1280, 900), live_server)
    for url, columns in THE_LISTS:
        page.goto(url)
        table = page.locator("#result_list")
        expect(table).to_be_visible()
        # The headings sort here: the phone's sorting control is drawn, and kept out of sight.
        expect(page.locator("nav.ws-sort")).to_have_count(1)
        expect(page.locator("nav.ws-sort")).to_be_hidden()
        assert table.evaluate("t => getComputedStyle(t).display") == "table", url
        for column in columns:
            expect(table.locator("thead th", has_text=column).first).to_be_visible()
        cells = table.locator("tbody tr").first.locator("td, th")
        tops = {round(box["y"]) for box in cells.evaluate_all(BOXES) if box}
        assert len(tops) == 1, (url, tops)
        labels = cells.evaluate_all(
            "cells => cells.map(c => getComputedStyle(c, '::before').content)"
        )
        assert set(labels) <= {"none", "normal"}, (url, labels)
    assert_accessible(page)


def test_the_caseload_reads_on_a_desktop_and_a_phone(db, live_server, new_context, artifacts):
    page = the_demo_therapist_signed_in(new_context(1280, 900), live_server)
    for width, height in ((1280, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto("/admin/caseload/")
        expect(page.get_by_role("link", name="Alex", exact=True)).to_be_visible()
        page.screenshot(path=artifacts / f"admin-caseload-{width}.png", full_page=True)
        # A phone scrolls the table in its own box, never the whole page sideways.
        assert page.evaluate("document.documentElement.scrollWidth") <= width
