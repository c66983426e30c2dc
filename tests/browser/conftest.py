"""Real-browser tests: Debian's chromium, driven by Playwright.

Playwright cannot download its own browser here, so we point it at the
system one. Its sync API runs an event loop in this thread, which Django's
ORM would otherwise refuse to share.
"""

import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
    # Slow real-browser tests run last, so the quick ones report first.
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture(scope="session")
def playwright() -> Iterator[object]:
    """Playwright, started once per test process for the first browser test."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"chromium is missing at {CHROMIUM}; `make system-deps` installs it")
        pytest.skip("chromium is not installed (`make system-deps` installs it)")
    from playwright.sync_api import sync_playwright

    # While Playwright's event loop runs, Django sees an async context and would
    # refuse the ORM to the test and the session's teardown (the browser tests
    # run last, pytest_collection_modifyitems above, so no ORM-only test follows).
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright) -> Iterator[object]:
    """One chromium per test process: a launch costs about a second, and each
    test has its own context anyway (new_context)."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


class ServerRequests:
    """Counts the requests the live server is still handling.

    A page saves as it closes (autosave's keepalive save on pagehide), and a
    test may end while a save it started is still running. The database is
    emptied after each test, and emptying it under a request that is still
    writing can deadlock on PostgreSQL and fail the next test; so teardown
    waits for the server to go quiet first.
    """

    QUIET_FOR = 0.15  # long enough for a save sent as the page closed to arrive
    GIVE_UP_AFTER = 10.0

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._running = 0
        self._last_seen = 0.0
        self.posts = 0

    def started(self, environ=None, **kwargs) -> None:
        with self._lock:
            self._running += 1
            self._last_seen = time.monotonic()
            self.posts += bool(environ and environ.get("REQUEST_METHOD") == "POST")

    def finished(self, **kwargs) -> None:
        with self._lock:
            self._running -= 1
            self._last_seen = time.monotonic()
            self._lock.notify_all()

    def wait_until_posts_handled(self, posts: int) -> None:
        """Until the server has had ``posts`` POSTs in all, each one finished."""
        with self._lock:
            handled = self._lock.wait_for(
                lambda: self.posts >= posts and self._running <= 0, timeout=self.GIVE_UP_AFTER
            )
        assert handled, f"the server had {self.posts} of {posts} POSTs, or one still running"

    def wait_until_quiet(self) -> None:
        deadline = time.monotonic() + self.GIVE_UP_AFTER
        while time.monotonic() < deadline:
            with self._lock:
                quiet = self._running <= 0 and time.monotonic() - self._last_seen >= self.QUIET_FOR
            if quiet:
                return
            time.sleep(0.02)


@pytest.fixture(scope="session")
def server_requests() -> Iterator[ServerRequests]:
    from django.core.signals import request_finished, request_started

    requests = ServerRequests()
    request_started.connect(requests.started, weak=False)
    request_finished.connect(requests.finished, weak=False)
    yield requests
    request_started.disconnect(requests.started)
    request_finished.disconnect(requests.finished)


@pytest.fixture
def new_context(browser, live_server, server_requests):
    """Each person gets their own browser context: their own cookies, as on their own device.

    Every test is also a check of the pages' Content-Security-Policy: anything
    it blocked (an inline script, a style, a frame) fails the test that met it.
    """
    opened = []
    refused: list[str] = []

    def watch(page) -> None:
        page.on(
            "console",
            lambda message: (
                refused.append(f"{page.url}: {message.text}")
                if "Content Security Policy" in message.text
                else None
            ),
        )

    def make(width: int = 390, height: int = 844, **options):
        # options: Playwright's own, e.g. locale="es-ES" for a browser that asks for Spanish.
        context = browser.new_context(
            base_url=live_server.url, viewport={"width": width, "height": height}, **options
        )
        context.set_default_timeout(10_000)
        context.on("page", watch)
        opened.append(context)
        return context

    yield make
    for context in opened:
        context.close()
    server_requests.wait_until_quiet()
    assert not refused, "The pages' policy blocked something:\n" + "\n".join(refused)


@pytest.fixture
def context(new_context):
    return new_context()


@pytest.fixture
def page(context):
    return context.new_page()


@pytest.fixture
def alice(db):
    """Alice's assignment: a written record from Tara, Alice signed up and ready."""
    from django.utils import timezone

    from practice.models import User
    from tests.factories import AssignmentFactory, ClientFactory, TherapistFactory

    therapist = TherapistFactory.create(email="tara@example.test", name="Tara")
    client = ClientFactory.create(
        therapist=therapist, display_name="Alice", portal_user__email="alice@example.test"
    )
    # The quick-exit note has been read; tests that need it bring it back.
    User.objects.filter(email="alice@example.test").update(exit_note_dismissed_at=timezone.now())
    return AssignmentFactory.create(client=client, exercise__title="Keep the full picture")


@pytest.fixture
def casey(db):
    """Tara's client Casey, not yet invited to the portal."""
    from tests.factories import ClientFactory, TherapistFactory

    therapist = TherapistFactory.create(email="tara@example.test", name="Tara")
    return ClientFactory.create(
        therapist=therapist,
        display_name="Casey",
        portal_user=None,
        contact_email="casey@example.test",
    )
