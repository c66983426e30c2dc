"""The portal's shell at small screens and large text: what the sticky quick
exit may cover, how its focus ring reads, and pages that must not scroll sideways.

Large text is the browser's own text-size setting (Chrome's font size, set
here through the DevTools protocol), as a client who needs it would set it:
that scales `em` in media queries too, which a page style cannot imitate.
"""

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from homework.kinds import all_kinds
from homework.models import Entry
from practice.models import User
from tests.browser.helpers import (  # noqa: F401 (alex is a fixture)
    a_sent_entry_of,
    alex,
    alex_signed_in,
    assert_accessible,
    assignment_of,
    contrast,
    measure_at_each_tab,
    rgb,
    sign_in,
    tab_stops,
)
from tests.factories import (
    PASSWORD,
    RESPONSES,
    AssignmentFactory,
    ClientFactory,
    EntryFactory,
    ExerciseFactory,
    daily_urge_log,
    options_for,
)

DEFAULT_TEXT_PX = 16
KINDS = [kind.slug for kind in all_kinds()]


@pytest.fixture
def assignment(db):
    client = ClientFactory.create(portal_user__email="alice@example.test")
    User.objects.filter(email="alice@example.test").update(exit_note_dismissed_at=timezone.now())
    return AssignmentFactory.create(client=client, exercise__title="Keep the full picture")


_text_size_sessions: list[object] = []


# Text doubled the other way: on the page's root, as a user style or a phone's
# own text-size setting does. Media queries do not see this one (their `em` is
# the browser's size), so the page cannot lean on them alone.
PAGE_TEXT_DOUBLED = """document.addEventListener("DOMContentLoaded", () => {
    const root = document.documentElement;
    root.style.fontSize = 2 * parseFloat(getComputedStyle(root).fontSize) + "px";
})"""


def phone(
    new_context, *, width: int = 375, height: int = 740, text: int = 100, by: str = "browser"
):
    """A page at this screen size, with the text size at ``text`` percent.

    ``by`` says who enlarges it: the browser's own setting, or the page's root
    (``text`` is then 200).
    """
    page = new_context(width, height).new_page()
    if by == "page":
        assert text == 200
        page.add_init_script(PAGE_TEXT_DOUBLED)
    elif text != 100:
        cdp = page.context.new_cdp_session(page)
        size = round(DEFAULT_TEXT_PX * text / 100)
        cdp.send("Page.setFontSizes", {"fontSizes": {"standard": size, "fixed": size}})
        # The setting lasts as long as the DevTools session: keep it open. (A
        # full-page screenshot resets it: take those after measuring, or none.)
        _text_size_sessions.append(cdp)
        del _text_size_sessions[:-4]
    return page


COVERED_BY_THE_BAR = """() => {
    const bar = document.getElementById("quick-exit").getBoundingClientRect();
    const el = document.activeElement.getBoundingClientRect();
    // The focus ring (3px, 2px off) counts as part of what must be seen.
    const top = el.top - 5, bottom = el.bottom + 5;
    return top < bar.bottom && bottom > bar.top
        ? {bar: [bar.top, bar.bottom], focused: [top, bottom], name: document.activeElement.name}
        : null;
}"""


@pytest.mark.parametrize(("text", "by"), [(100, "browser"), (200, "browser"), (200, "page")])
def test_the_sticky_quick_exit_never_covers_the_control_with_focus(
    assignment, new_context, artifacts, text, by
):
    page = phone(new_context, text=text, by=by)
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")
    page.goto(f"/do/{assignment.pk}/")
    page.wait_for_load_state("load")

    bar = page.locator("#quick-exit")
    height = bar.evaluate("el => el.getBoundingClientRect().height")
    sticky = bar.evaluate("el => getComputedStyle(el).position") == "sticky"
    # A bar that stays on screen must leave most of the screen to the page.
    assert not sticky or height <= 0.15 * 740, f"a sticky bar {height}px tall on a 740px screen"

    # "Send" just under the bar, then back through the form with Shift+Tab:
    # each control scrolls into view above "Send", where the bar could hide it.
    send = page.locator("button:has-text('Send to my therapist')")
    send.focus()
    page.evaluate(
        """() => {
            const send = [...document.querySelectorAll('button')].find(
                b => b.textContent.includes('Send to my therapist'));
            const bar = document.getElementById('quick-exit');
            window.scrollBy(0, send.getBoundingClientRect().top - bar.offsetHeight - 8);
        }"""
    )
    for _ in range(6):
        page.keyboard.press("Shift+Tab")
        covered = page.evaluate(COVERED_BY_THE_BAR)
        assert covered is None, covered
    page.screenshot(path=artifacts / f"quick-exit-focus-375-text{text}-{by}.png")


@pytest.mark.parametrize(("width", "height"), [(320, 640), (375, 667)])
@pytest.mark.parametrize("by", ["browser", "page"])
def test_the_quick_exit_stays_whole_with_large_text(assignment, new_context, width, height, by):
    page = phone(new_context, width=width, height=height, text=200, by=by)
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")
    page.wait_for_load_state("load")
    button = page.evaluate(
        """() => {
            const button = document.querySelector("#quick-exit button");
            const box = button.getBoundingClientRect();
            return {left: box.left, right: box.right, clipped: button.scrollWidth > button.clientWidth};
        }"""
    )
    # Kept on one line, the words ran off the left of the screen: "ave this site now".
    assert button["left"] >= 0 and button["right"] <= width and not button["clipped"], button


def test_the_quick_exit_focus_ring_stands_out_from_the_bar(assignment, new_context):
    page = phone(new_context)
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")
    page.wait_for_selector("html[data-quick-exit=ready]", state="attached")
    page.keyboard.press("Tab")  # the quick exit is the first stop, with a visible ring
    ring = page.evaluate(
        """() => {
            const button = document.activeElement;
            const style = getComputedStyle(button);
            return {
                inExit: button.closest('#quick-exit') !== null,
                color: style.outlineColor, width: parseFloat(style.outlineWidth),
                offset: parseFloat(style.outlineOffset), style: style.outlineStyle,
                bar: getComputedStyle(document.getElementById('quick-exit')).backgroundColor,
            };
        }"""
    )
    assert ring["inExit"]
    assert ring["style"] != "none" and ring["width"] >= 2
    # The ring sits off the button, on the bar: it must stand out from the bar (WCAG 1.4.11).
    assert ring["offset"] > 0
    assert contrast(rgb(ring["color"]), rgb(ring["bar"])) >= 3, ring


SIDEWAYS = "document.documentElement.scrollWidth - window.innerWidth"
OFF_THE_LEFT = """() => [...document.body.querySelectorAll("*")]
    .filter(el => el.getClientRects().length && !el.closest(".visually-hidden, .skip-link"))
    .filter(el => el.getBoundingClientRect().left < -1)
    .map(el => el.tagName + ": " + el.textContent.trim().slice(0, 30))"""


# At 320px every kind's form is measured by test_every_portal_page_fits_320_with_large_text.
# One client and one sign-in for every kind (each was a test of its own).
def test_each_kinds_form_fits_a_phone_with_large_text(db, new_context, artifacts):
    width = 375
    client = ClientFactory.create(portal_user__email="alice@example.test")
    assignments = {
        slug: AssignmentFactory.create(
            client=client, exercise=ExerciseFactory.create(kind=slug, options=options_for(slug))
        )
        for slug in KINDS
    }
    page = phone(new_context, width=width, text=200)
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")
    too_wide = {}
    for slug, assignment in assignments.items():
        page.goto(f"/do/{assignment.pk}/")
        page.wait_for_load_state("load")
        # Still the browser's large text on each page (a full-page screenshot would reset it).
        text_px = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
        assert text_px >= 2 * DEFAULT_TEXT_PX, f"{slug}: text at {text_px}px"
        if (sideways := page.evaluate(SIDEWAYS)) > 0:
            too_wide[slug] = sideways
        page.screenshot(path=artifacts / f"form-{slug}-{width}-text200.png")
    assert not too_wide, f"px sideways: {too_wide}"


def test_progress_numbers_fit_a_phone_with_large_text(db, new_context, artifacts):
    client = ClientFactory.create(portal_user__email="alice@example.test")
    start = timezone.localdate() - dt.timedelta(days=6)
    daily_urge_log(client, start=start, days=7, intensity=lambda day: 9 - day)
    check_in = AssignmentFactory.create(
        client=client,
        exercise=ExerciseFactory.create(kind="worksheet", options=options_for("worksheet")),
    )
    for pull in (8, 5):
        EntryFactory.create(assignment=check_in, response=RESPONSES["worksheet"](pull=pull))
    page = phone(new_context, text=200)
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")
    page.goto("/progress/")
    expect(page.get_by_role("img", name="How strong was the pull?")).to_be_visible()
    for summary in page.locator("details > summary:visible").all():
        summary.click()
    sideways = page.evaluate(SIDEWAYS)
    page.locator(".numbers").first.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "progress-375-text200.png")
    assert sideways <= 0, f"{sideways}px sideways"
    # What does not fit scrolls in its own box, which the keyboard can reach and names.
    box = page.locator(".table-scroll").first
    assert box.get_attribute("tabindex") == "0"
    assert box.get_attribute("role") == "region" and box.get_attribute("aria-labelledby")
    assert_accessible(page, "progress at 200% text")


def portal_pages(client, entry: Entry) -> list[str]:
    """Every page of the portal a client reads, one exercise of each kind."""
    return [
        "/",
        "/history/",
        f"/entries/{entry.key}/",
        "/progress/",
        "/account/",
        *(f"/do/{assignment_of(client, slug).pk}/" for slug in KINDS),
    ]


@pytest.mark.parametrize("by", ["browser", "page"])
def test_every_portal_page_fits_320_with_large_text(alex, new_context, by):  # noqa: F811
    """The demo's own words (long titles, a week of progress) on the smallest phone, text at 200%."""
    entry = a_sent_entry_of(alex)
    page = phone(new_context, width=320, height=640, text=200, by=by)
    alex_signed_in(page)
    too_wide = {}
    for path in portal_pages(alex, entry):
        page.goto(path)
        page.wait_for_load_state("load")
        for summary in page.locator("details > summary:visible").all():
            summary.click()
        sideways = page.evaluate(SIDEWAYS)
        if sideways > 0:
            too_wide[path] = sideways
        # What runs off the left edge cannot be scrolled to at all, and is not
        # counted in the page's width: look for it on its own.
        if cut := page.evaluate(OFF_THE_LEFT):
            too_wide[path] = cut
    assert not too_wide, f"px sideways: {too_wide}"


# What a finger must hit: buttons, ticks and round choices, and links that stand
# on their own (in a list, a pager). Links inside a sentence are exempt (WCAG 2.5.8).
TOO_SMALL_TO_TAP = """() => [...document.querySelectorAll(
        'button, input[type=checkbox], input[type=radio], a[href]')]
    .filter(el => el.getClientRects().length && !el.closest('.visually-hidden, .skip-link'))
    .filter(el => !(el.matches('a') && el.closest('p')))
    .map(el => {
        const box = el.getBoundingClientRect();
        return [el.name || el.textContent.trim().slice(0, 30), box.width, box.height];
    })
    .filter(([, width, height]) => width < 24 || height < 24)"""


def test_every_control_is_big_enough_to_tap(alex, new_context):  # noqa: F811
    page = alex_signed_in(new_context(320, 667).new_page())
    entry = a_sent_entry_of(alex)
    too_small = {}
    for path in portal_pages(alex, entry):
        page.set_viewport_size({"width": 320, "height": 667})
        page.goto(path)
        page.wait_for_load_state("load")
        # Each page opened once, measured at each width: the sizes are the stylesheet's.
        for width in (320, 375):
            page.set_viewport_size({"width": width, "height": 667})
            if small := page.evaluate(TOO_SMALL_TO_TAP):
                too_small[f"{path} at {width}px"] = small
    # The ticks and round choices were 1.3rem: 23.4px, under WCAG 2.2's 24px.
    assert not too_small, too_small


# Where focus is after a Tab: its ring, and whether the sticky bar covers it.
FOCUS_STOP = """() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    const bar = document.getElementById("quick-exit");
    const under = getComputedStyle(bar).position === "sticky" && !bar.contains(el)
        && box.bottom <= bar.getBoundingClientRect().bottom;
    return {
        name: el.id || el.name || el.textContent.trim().slice(0, 30),
        ring: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2,
        under,
    };
}"""


def test_every_stop_of_the_keyboard_shows_where_it_is(alex, new_context):  # noqa: F811
    page = new_context(320, 640).new_page()
    measure_at_each_tab(page, FOCUS_STOP)
    alex_signed_in(page)
    unseen: dict[str, list[dict[str, object]]] = {}
    for path in (
        "/",
        "/history/",
        "/progress/",
        "/account/",
        *(f"/do/{assignment_of(alex, slug).pk}/" for slug in KINDS),
    ):
        page.goto(path)
        page.wait_for_load_state("load")
        # A stop of None is past the end of the page.
        for stop in tab_stops(page, ends=lambda stop: stop is None, most=200):
            if not stop["ring"] or stop["under"]:
                unseen.setdefault(path, []).append(stop)
    # A date's own parts each take a Tab; on the last, its calendar button,
    # the field's ring went out, leaving only the browser's faint one on the icon.
    assert not unseen, unseen


@pytest.mark.parametrize("by", ["browser", "page"])
def test_the_are_you_still_there_box_fits_a_phone_with_large_text(assignment, new_context, by):
    from practice.models import PracticeSettings
    from practice.selectors import forget_practice_settings

    PracticeSettings.objects.update_or_create(pk=1, defaults={"idle_timeout_minutes": 2})
    forget_practice_settings()
    page = phone(new_context, width=320, height=640, text=200, by=by)
    page.clock.install()
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")
    page.wait_for_load_state("load")  # the idle timer is set by a deferred script
    page.clock.fast_forward(31_000)
    expect(page.locator("#idle-title")).to_be_focused()
    box = page.evaluate(
        """() => {
            const box = document.getElementById("idle-warning").getBoundingClientRect();
            const title = document.getElementById("idle-title").getBoundingClientRect();
            return {top: box.top, bottom: box.bottom, title: title.top, screen: innerHeight};
        }"""
    )
    forget_practice_settings()
    # Fixed to the bottom and taller than the screen, it began 500px above it:
    # "Are you still there?" (where focus is) and why could not be scrolled to.
    assert box["top"] >= 0 and box["bottom"] <= box["screen"], box
    assert 0 <= box["title"] < box["screen"], box


# How far a card's heading sits below the card's own padding. A heading's
# usual space above (1.5rem) belongs between sections, not inside a box.
HEADING_GAPS = """() => [...document.querySelectorAll('.card > h2:first-child')]
    .filter(h => h.getClientRects().length && !h.closest('.visually-hidden'))
    .map(h => {
        const card = h.parentElement;
        const style = getComputedStyle(card);
        const inside = card.getBoundingClientRect().top
            + parseFloat(style.borderTopWidth) + parseFloat(style.paddingTop);
        return [h.textContent.trim(), Math.round(h.getBoundingClientRect().top - inside)];
    })"""


def test_a_cards_heading_starts_at_the_top_of_its_card(alex, new_context):  # noqa: F811
    """The settings' boxes (take your records, password, two-step, sign out
    everywhere) opened on a blank band above their heading, nearly three
    times the space at their sides."""
    page = alex_signed_in(new_context(390, 844).new_page())
    entry = a_sent_entry_of(alex)
    gaps = {}
    seen = 0
    for path in ("/account/", f"/entries/{entry.key}/", "/progress/"):
        page.goto(path)
        page.wait_for_load_state("load")
        headings = page.evaluate(HEADING_GAPS)
        seen += len(headings)
        if loose := [(words, gap) for words, gap in headings if gap > 1]:
            gaps[path] = loose
    assert seen >= 4  # the settings' four boxes at least
    assert not gaps, gaps


RING_BELOW_THE_SCREEN = """() => {
    const el = document.activeElement;
    const footer = el.closest("footer") !== null;
    if (el === document.body || footer) return {footer, below: null};
    // The focus ring (3px, 2px off) and a little beyond count as part of what
    // must be seen: a control flush with the screen's edge shows half its ring.
    // A box for writing in scrolls to where the words go (its first lines), as
    // the browser does for any text box: those must be clear, not its bottom.
    const box = el.getBoundingClientRect();
    const bottom = (el.tagName === "TEXTAREA" ? Math.min(box.bottom, box.top + 48) : box.bottom) + 5;
    return {footer, below: bottom > window.innerHeight - 16
        ? {bottom: bottom, screen: window.innerHeight, name: el.name || el.textContent.trim()}
        : null};
}"""


def test_tabbing_down_a_form_keeps_the_focused_control_clear_of_the_screen_edge(
    alex,  # noqa: F811
    new_context,
):
    page = phone(new_context)
    measure_at_each_tab(page, RING_BELOW_THE_SCREEN)
    alex_signed_in(page)
    for kind in KINDS:
        page.goto(f"/do/{assignment_of(alex, kind).pk}/")
        page.wait_for_selector("form.entry-form")
        page.locator("main h1").first.click()  # start from the top of the form
        # Down the form until focus reaches the footer.
        stops = tab_stops(page, ends=lambda stop: stop["footer"], most=25)
        below = [stop["below"] for stop in stops if stop["below"]]
        assert not below, f"{kind}: {below}"
