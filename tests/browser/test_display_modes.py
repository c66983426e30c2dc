"""The portal in the display modes people set for themselves.

Forced colours is Windows' High Contrast (Contrast themes): the browser
replaces the page's colours with a few system ones, and drops backgrounds
and shadows. Whatever is drawn only with a background disappears, and what
keeps its own colours (SVG paint) lands on the system's ground, which is
often black. Playwright emulates both the light and the dark palette
(forced colours with a dark colour scheme).
"""

import io
from collections.abc import Iterator

import pytest
from django.core.management import call_command
from django.utils import timezone

from clients.models import Client
from homework.models import Entry
from practice.models import User
from tests.browser.helpers import (
    assert_accessible,
    contrast,
    rgb,
    sign_in,
    staff_signed_in,
)
from tests.factories import (
    PASSWORD,
    RESPONSES,
    AssignmentFactory,
    ClientFactory,
    EntryFactory,
    ExerciseFactory,
)

PALETTES = {
    "light": {"forced_colors": "active", "color_scheme": "light"},
    "dark": {"forced_colors": "active", "color_scheme": "dark"},
}


@pytest.fixture
def forced(browser, live_server):
    """A phone-sized page with the system's forced colours (the light palette first)."""
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 390, "height": 844}, **PALETTES["light"]
    )
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def in_each_palette(page) -> Iterator[str]:
    """Show the page as it is in each forced-colours palette in turn, by name."""
    for name, media in PALETTES.items():
        page.emulate_media(**media)
        yield name


@pytest.fixture
def alice(db):
    client = ClientFactory.create(portal_user__email="alice@example.test")
    User.objects.filter(email="alice@example.test").update(exit_note_dismissed_at=timezone.now())
    return AssignmentFactory.create(client=client, exercise__title="Keep the full picture")


def test_the_quick_exit_still_looks_like_a_button_in_forced_colours(alice, forced):
    page = forced
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")
    for palette in in_each_palette(page):
        assert_quick_exit_drawn(page, palette)


def assert_quick_exit_drawn(page, palette: str) -> None:
    drawn = page.evaluate(
        """() => {
            const bar = getComputedStyle(document.getElementById('quick-exit'));
            const button = getComputedStyle(document.querySelector('#quick-exit button'));
            return {
                button: [button.borderTopStyle, parseFloat(button.borderTopWidth)],
                bar: [bar.borderBottomStyle, parseFloat(bar.borderBottomWidth)],
            };
        }"""
    )
    # The purple bar and the white pill are backgrounds, which forced colours
    # drop: without a border the one safety control reads as a line of text.
    assert drawn["button"][0] != "none" and drawn["button"][1] >= 1, (palette, drawn)
    # And the bar, which stays on top as the page scrolls, keeps an edge.
    assert drawn["bar"][0] != "none" and drawn["bar"][1] >= 1, (palette, drawn)


# Each chart's labels against what is painted behind the chart: the first
# ancestor (the <svg> included) with a background that is not see-through.
CHART_LABELS_ON_THEIR_GROUND = """() => {
    function ground(el) {
        for (; el; el = el.parentElement) {
            const bg = getComputedStyle(el).backgroundColor;
            if (!bg.startsWith('rgba') || !bg.endsWith(', 0)')) return bg;
        }
        return getComputedStyle(document.documentElement).backgroundColor;
    }
    return [...document.querySelectorAll('svg.chart')].map(svg => ({
        ground: ground(svg),
        // White labels sit on the chart's own dark shapes ("Me" on its disc).
        fills: [...new Set([...svg.querySelectorAll('text')].map(t => getComputedStyle(t).fill))]
            .filter(fill => fill !== 'rgb(255, 255, 255)'),
    }));
}"""


@pytest.mark.parametrize("slug", ["boundary_steps", "support_network"])
def test_the_pictures_labels_stay_readable_in_forced_colours(alice, forced, slug):
    assignment = AssignmentFactory.create(
        client=alice.client, exercise=ExerciseFactory.create(kind=slug)
    )
    EntryFactory.create(assignment=assignment, response=RESPONSES[slug]())
    page = forced
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")
    page.goto("/progress/")
    for palette in in_each_palette(page):
        charts = page.evaluate(CHART_LABELS_ON_THEIR_GROUND)
        assert charts
        # SVG paint keeps its colours in forced colours, but the page behind it turns
        # to the system's ground: dark labels on a dark theme's black could not be read.
        for chart in charts:
            for fill in chart["fills"]:
                assert contrast(rgb(fill), rgb(chart["ground"])) >= 4.5, (palette, chart)


@pytest.fixture
def therapist_in_the_dark(db, browser, live_server):
    """The demo therapist, with a dark system preference (Django's admin follows it)."""
    call_command("seed_demo", stdout=io.StringIO())
    alex = Client.objects.get(portal_user__email="alex@demo.test")
    ladder = Entry.objects.filter(
        assignment__client=alex, assignment__exercise__kind="boundary_steps", status="submitted"
    ).first()
    assert ladder is not None
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 1280, "height": 900}, color_scheme="dark"
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    staff_signed_in(page, live_server, "therapist@demo.test")
    yield (
        page,
        [
            "/admin/",
            f"/admin/clients/client/{alex.pk}/since-last-session/",
            f"/admin/homework/entry/{ladder.pk}/change/",
        ],
    )
    context.close()


def test_the_therapists_links_stand_out_with_a_dark_preference(therapist_in_the_dark):
    page, paths = therapist_in_the_dark
    for path in paths:
        page.goto(path)
        # The workspace's dark green links, kept over Django's dark ones, were 2.6:1.
        assert_accessible(page, path)


def test_the_clients_pictures_read_well_in_the_therapists_dark_pages(therapist_in_the_dark):
    page, paths = therapist_in_the_dark
    pictures = 0
    for path in paths:
        page.goto(path)
        charts = page.evaluate(CHART_LABELS_ON_THEIR_GROUND)
        pictures += len(charts)
        for chart in charts:
            for fill in chart["fills"]:
                assert contrast(rgb(fill), rgb(chart["ground"])) >= 4.5, (path, chart)
    assert pictures


def test_the_two_step_code_can_still_be_scanned_in_forced_colours(alice, forced):
    page = forced
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")
    page.goto("/account/")
    page.click("text=Set up two-step sign-in")
    page.wait_for_selector("svg.qr")
    for palette in in_each_palette(page):
        assert_scannable(page, palette)


def assert_scannable(page, palette: str) -> None:
    code = page.evaluate(
        """() => {
            const svg = document.querySelector('svg.qr');
            let el = svg, ground = null;
            for (; el && !ground; el = el.parentElement) {
                const bg = getComputedStyle(el).backgroundColor;
                if (!bg.startsWith('rgba') || !bg.endsWith(', 0)')) ground = bg;
            }
            return {ink: getComputedStyle(svg.querySelector('path')).fill, ground};
        }"""
    )
    # The code's dark squares keep their colour; the light box behind them is a
    # background, which a dark theme turns black: a black square, nothing to scan.
    assert code["ground"], (palette, code)
    assert contrast(rgb(code["ink"]), rgb(code["ground"])) >= 7, (palette, code)


EDGES = """(selector) => [...document.querySelectorAll(selector)].map(el => {
    const style = getComputedStyle(el);
    return [el.textContent.trim().slice(0, 40), style.borderTopStyle, parseFloat(style.borderTopWidth)];
})"""


def assert_outlined(page, selector: str) -> None:
    """In each forced-colours palette, every ``selector`` on the page has an edge."""
    for palette in in_each_palette(page):
        shapes = page.evaluate(EDGES, selector)
        assert shapes, selector
        for text, style, width in shapes:
            assert style != "none" and width >= 1, (palette, selector, text, style, width)


def test_flags_and_the_error_summary_keep_their_shape_in_forced_colours(alice, forced):
    entry = EntryFactory.create(assignment=alice, felt_unsafe=True, discuss_in_session=True)
    page = forced
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")
    page.goto(f"/entries/{entry.key}/")
    # Drawn only by their background, the two flags ran together as one phrase.
    assert_outlined(page, ".flag")
    page.goto(f"/do/{alice.pk}/")
    page.click("text=Send to my therapist")
    page.wait_for_selector("#error-summary")
    assert_outlined(page, ".form-error")


def test_the_therapists_badges_keep_their_shape_in_forced_colours(db, browser, live_server):
    call_command("seed_demo", stdout=io.StringIO())
    alex = Client.objects.get(portal_user__email="alex@demo.test")
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 1280, "height": 900}, **PALETTES["light"]
    )
    try:
        page = context.new_page()
        staff_signed_in(page, live_server, "therapist@demo.test")
        # "felt unsafe", "to talk about", "new" side by side read as one phrase.
        assert_outlined(page, ".ws-badge")
        page.goto(f"/admin/clients/client/{alex.pk}/since-last-session/")
        assert_outlined(page, ".ws-badge")
    finally:
        context.close()
