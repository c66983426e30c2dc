"""Helpers shared by the real-browser tests: signing in, tabs, waiting for
the server, axe, colour contrast, and the demo practice's client."""

import datetime as dt
import io
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import Dialog, expect

from clients.models import Client
from homework.kinds import ResponseInvalid, all_kinds, get_kind
from homework.models import Assignment, Entry, Exercise
from homework.selectors import todo_for_client
from practice.models import User
from tests.factories import PASSWORD, AssignmentFactory, ClientFactory, EntryFactory
from tests.helpers import force_verified_login, staff_recovery_code

SERIOUS = {"serious", "critical"}


TEXT_STORED_IN_BROWSER = """async (needle) => {
    const found = [];
    for (const store of [localStorage, sessionStorage]) {
        for (let i = 0; i < store.length; i++) {
            const key = store.key(i);
            if ((key + store.getItem(key)).includes(needle)) found.push("storage:" + key);
        }
    }
    if (document.cookie.includes(needle)) found.push("cookie");
    const dbs = indexedDB.databases ? await indexedDB.databases() : [];
    for (const db of dbs) found.push("indexeddb:" + db.name);
    return found;
}"""


AXE_SCRIPT = Axe().axe_script


def assert_accessible(page, where: str = "") -> None:
    # Sent once a page: a second check of it (at another screen size) finds axe there.
    if page.evaluate("typeof window.axe === 'undefined'"):
        page.evaluate(AXE_SCRIPT)
    violations = page.evaluate(
        "axe.run({resultTypes: ['violations']}).then(results => results.violations)"
    )
    serious = [v for v in violations if v["impact"] in SERIOUS]
    assert not serious, (
        where,
        [(v["id"], v["help"], [n["target"] for n in v["nodes"]]) for v in serious],
    )


def wait_for_db(predicate, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("the server never got it")


def neutral_site(page, hits: list[str] | None = None) -> None:
    def fulfil(route):
        if hits is not None:
            hits.append(route.request.url)
        route.fulfill(body="<title>Weather</title><p>Sunny spells.</p>", content_type="text/html")

    page.route("https://www.bbc.co.uk/**", fulfil)


def signed_in_tab(context):
    """A page signed in as Alice, on her home page, with the neutral site stubbed."""
    page = context.new_page()
    neutral_site(page)
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")
    return page


def another_tab(context, path: str):
    """A second page in the same browser session, opened on ``path``."""
    page = context.new_page()
    neutral_site(page)
    page.goto(path)
    page.wait_for_load_state("load")
    page.wait_for_selector("html[data-quick-exit=ready]", state="attached")
    return page


def leave_with_shift(page) -> None:
    page.wait_for_selector("html[data-quick-exit=ready]", state="attached")
    for _ in range(3):
        page.keyboard.press("Shift")


def leave(page, how: str, *, watched=None) -> None:
    """Leave the portal from ``page`` by the quick exit or "Sign out";
    ``watched``, the tab to see land (this one unless another is named)."""
    landed = watched or page
    if how == "quick-exit":
        leave_with_shift(page)
        landed.wait_for_url("https://www.bbc.co.uk/**")
    else:
        page.get_by_role("button", name="Sign out", exact=True).click()
        landed.wait_for_url("**/login/**")


def entry_says(entry, text: str):
    def check() -> bool:
        entry.refresh_from_db()
        return bool(entry.response["what_happened"] == text)

    return check


def choose_distress(page) -> None:
    """Move the distress slider: an untouched one is not an answer (and it is needed).

    The slider is made by the page's deferred scripts: after a click that
    opened the page they may not have run yet, so wait for it."""
    page.wait_for_selector("input[type=range]#id_r-body_distress")
    page.locator("#id_r-body_distress").focus()
    page.keyboard.press("ArrowRight")


def ready_to_send(page) -> None:
    """The written record's two answers Send needs besides its words."""
    choose_distress(page)
    page.fill(
        "input[name=r-occurred_at]",
        (timezone.localtime() - dt.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"),
    )


def send_once_saved(page) -> None:
    """Send once autosave says the page's words are on the server, and wait for the thanks."""
    expect(page.locator("#save-status")).to_have_attribute("data-state", "saved")
    page.click("text=Send to my therapist")
    page.wait_for_selector("text=Sent. Thank you")


def opened_by_a_new_client(page, exercise: Exercise) -> Assignment:
    """``exercise`` assigned to a new client, Alice, signed in on its page in ``page``."""
    client = ClientFactory.create(portal_user__email="alice@example.test")
    assignment = AssignmentFactory.create(client=client, exercise=exercise)
    sign_in(page, "alice@example.test", PASSWORD)
    page.goto(f"/do/{assignment.pk}/")
    return assignment


def open_form(page, assignment) -> None:
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")
    page.goto(f"/do/{assignment.pk}/")
    page.wait_for_selector("textarea[name=r-what_happened]")
    # The page's scripts are deferred: typing before they run goes unheard.
    page.wait_for_load_state("load")


def changing_a_sent_entry(assignment, context):
    """A page signed in as Alice, on the form that changes a new sent entry."""
    entry = EntryFactory.create(assignment=assignment, submitted_at=timezone.now())
    page = signed_in_tab(context)
    page.goto(f"/entries/{entry.key}/edit/")
    page.wait_for_load_state("load")
    return page, entry


def another_tab_sends(context, assignment):
    """A second tab opens the same work (the first tab's saved draft) and sends it."""
    second = context.new_page()
    second.goto(f"/do/{assignment.pk}/")
    second.fill(
        "input[name=r-occurred_at]",
        (timezone.localtime() - dt.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"),
    )
    second.click("text=Send to my therapist")
    second.wait_for_selector("text=Sent. Thank you")
    return second


def draft_text(assignment) -> str:
    entry = (
        Entry.objects.filter(assignment=assignment, status="draft").order_by("-updated_at").first()
    )
    return entry.response.get("what_happened", "") if entry else ""


def a_sent_entry_open_with_a_short_idle_timeout(alice, context, *, to_change: bool):
    """A sent entry open, to change it or to add a note, with a two-minute
    idle timeout and the page's clock in the test's hands."""
    from practice.models import PracticeSettings
    from practice.selectors import forget_practice_settings

    PracticeSettings.objects.update_or_create(pk=1, defaults={"idle_timeout_minutes": 2})
    forget_practice_settings()
    entry = EntryFactory.create(assignment=alice, submitted_at=timezone.now())
    page = context.new_page()
    page.clock.install()
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")
    page.goto(f"/entries/{entry.key}/edit/" if to_change else f"/entries/{entry.key}/")
    page.wait_for_load_state("load")
    return page, entry


def luminance(rgb: tuple[int, int, int]) -> float:
    def channel(c: int) -> float:
        c2 = c / 255
        return c2 / 12.92 if c2 <= 0.03928 else ((c2 + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def rgb(css: str) -> tuple[int, int, int]:
    r, g, b = (int(float(part)) for part in css[css.index("(") + 1 : -1].split(",")[:3])
    return r, g, b


DEMO_PASSWORD = "demo-pass-2026"


def alex_signed_in(page):
    """``page`` signed in as the demo practice's Alex, on To do."""
    sign_in(page, "alex@demo.test", DEMO_PASSWORD)
    page.wait_for_selector("#todo-title")
    return page


def a_sent_entry_of(client: Client) -> Entry:
    entry = Entry.objects.filter(assignment__client=client, status="submitted").first()
    assert entry is not None
    return entry


@pytest.fixture
def alex(db) -> Client:
    """The demo practice, as `make run` loads it; alex has one exercise of every kind."""
    call_command("seed_demo", stdout=io.StringIO())
    client = Client.objects.get(portal_user__email="alex@demo.test")
    for kind in all_kinds():
        if Assignment.objects.filter(
            client=client, exercise__kind=kind.slug, status="active"
        ).exists():
            continue
        exercise = Exercise.objects.filter(kind=kind.slug, language="en-gb").first()
        if exercise is None:
            try:
                options = kind.clean_options({})
            except ResponseInvalid:
                pytest.fail(f"{kind.slug} needs options: give seed_demo an exercise of this kind")
            exercise = Exercise.objects.create(
                kind=kind.slug,
                title=str(kind.label),
                instructions="Take your time.",
                options=options,
            )
        AssignmentFactory.create(client=client, exercise=exercise, created_by=client.therapist)
    return client


def assignment_of(client: Client, slug: str) -> Assignment:
    """Work of kind ``slug`` the client can open a form for: one in their To
    do, or sent work that its kind continues (a plan, a map, a ladder; other
    done work opens what was sent instead). Chosen by the
    portal's own rules, not by the model's ordering, which puts work with no
    due date first on SQLite and last on PostgreSQL."""
    assert client.portal_user is not None
    todo = todo_for_client(user=client.portal_user).assignments
    # Sent work a plan, map or ladder continues: its page offers "Add an update".
    updatable = (
        list(
            client.assignments.filter(
                exercise__kind=slug, status=Assignment.Status.ACTIVE
            ).select_related("exercise")
        )
        if get_kind(slug).continues_last_sent
        else []
    )
    assignment = next((a for a in [*todo, *updatable] if a.exercise.kind == slug), None)
    assert assignment is not None, slug
    return assignment


def record_dialogs(page) -> list[str]:
    """Every dialog the page opens, by type; each is dismissed (the page stays)."""
    seen: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        seen.append(dialog.type)
        dialog.dismiss()

    page.on("dialog", dismiss)
    return seen


def go_home(page) -> None:
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Home").click()


def when_any(page, items: list[Any]) -> list[Any]:
    """``items`` once the page's handler or route has put one in, or after five seconds."""
    for _ in range(50):
        if items:
            break
        page.wait_for_timeout(100)
    return items


def dialogs_on_going_home(page) -> list[str]:
    dialogs = record_dialogs(page)
    go_home(page)
    return when_any(page, dialogs)


def note_draft_holds(entry: Entry, words: str):
    """For wait_for_db: the entry's unsent note holds ``words``."""

    def check() -> bool:
        entry.refresh_from_db()
        return entry.note_draft == words

    return check


def note_box_after_signing_in_again(context, entry: Entry, words: str, says: str, probe: str):
    """Signed in again, the entry's note box holds ``words`` and the page
    ``says`` why; and none of it was kept in the browser."""
    page = context.new_page()
    sign_in(page, "alice@example.test", PASSWORD)
    page.wait_for_selector("#todo-title")
    page.goto(f"/entries/{entry.key}/")
    expect(page.locator("textarea[name=text]")).to_have_value(words)
    expect(page.locator("main")).to_contain_text(says)
    assert page.evaluate(TEXT_STORED_IN_BROWSER, probe) == []
    return page


def sign_in(page, email: str, password: str, *, admin: bool = False) -> None:
    """Sign in; in the admin, with the second step too (a fresh recovery code)."""
    code = staff_recovery_code(User.objects.get(email=email)) if admin else ""
    page.goto("/admin/login/" if admin else "/login/")
    page.fill("input[name=username]", email)
    page.fill("input[name=password]", password)
    page.click("[type=submit]:not(#quick-exit button)")
    # The portal sends it by fetch (one-entry.js): a goto before its answer would be undone.
    page.wait_for_selector("html:not([data-one-entry=sending])", state="attached")
    if admin:
        page.wait_for_url("**/admin/login/code/")
        page.fill("input[name=code]", code)
        page.click("#login-form [type=submit]")


def staff_signed_in(page, live_server, email: str) -> None:
    """On the admin's home, signed in with both steps by a session made on the
    server (as ``sign_in`` ends): for tests that are not about signing in,
    without its three pages."""
    from django.conf import settings
    from django.test import Client as HttpClient

    http = HttpClient()
    force_verified_login(http, User.objects.get(email=email))
    session = http.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": session,
                "url": live_server.url,
                "httpOnly": True,
                "sameSite": "Lax",
            }
        ]
    )
    page.goto("/admin/")


def measure_at_each_tab(page, measure: str) -> None:
    """From the next page opened on, the page runs ``measure`` (a JavaScript
    function) as each Tab's key comes up: focus has moved and scrolled by then,
    and one call per page collects them all instead of one call per Tab."""
    page.add_init_script(
        "window.__tabStops = [];"
        'addEventListener("keyup", event => { if (event.key === "Tab") '
        f"window.__tabStops.push(({measure})()); }}, true);"
    )


def tab_stops(page, *, ends: Callable[[Any], bool], most: int, batch: int = 6) -> list[Any]:
    """Press Tab (real key presses) until what ``measure_at_each_tab`` measured
    at a stop ``ends`` the walk, or ``most`` times; the measurements before that stop.

    Tabs pressed past the end in the last batch only move focus on; their
    measurements are left out."""
    stops: list[Any] = []
    pressed = 0
    while pressed < most:
        for _ in range(min(batch, most - pressed)):
            page.keyboard.press("Tab")
            pressed += 1
        stops = page.evaluate("window.__tabStops")
        # A Tab the page never heard would leave its stop unmeasured.
        assert len(stops) == pressed, f"{len(stops)} of {pressed} Tabs measured"
        for i, stop in enumerate(stops):
            if ends(stop):
                return stops[:i]
    return stops


def choose_exercise(page, title: str) -> None:
    """Picks ``title`` in the assign forms' library picker, whose items read "title — what it is"."""
    option = page.locator(
        "select[name=exercise] option", has_text=re.compile(f"^{re.escape(title)} — ")
    ).first
    page.select_option("select[name=exercise]", option.get_attribute("value"))
