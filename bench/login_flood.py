"""A flood of wrong sign-ins, and a signed-in client's autosave beside it.

A real server on loopback, gunicorn as practice/gunicorn.conf.py configures
it (sync workers, two per core and one more), on the benchmark's database,
with the real Argon2 hasher. The client signs in and
autosaves a draft, first alone, then while FLOOD_THREADS threads send wrong
passwords as fast as the server answers them (bounded: FLOOD_SECONDS at
most). The figure to watch is the autosave's median time under the flood
divided by its median alone: at most TARGET_RATIO.

Run on its own with ``python -m bench.login_flood``.
"""

import functools
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.error import HTTPError, URLError
from urllib.parse import urlencode
from urllib.request import HTTPCookieProcessor, HTTPRedirectHandler, Request, build_opener

from bench.figures import Figure
from bench.summary import print_figures_on_sqlite

FLOOD_THREADS = 32
FLOOD_SECONDS = 20.0
AUTOSAVES = 20
# As a page autosaves while someone types: one save, a pause, the next.
AUTOSAVE_EVERY = 0.25
# The flood runs this long before the first save is timed under it.
FLOOD_RAMP_SECONDS = 3.0
TARGET_RATIO = 3.0
PASSWORD = "bench-pass-2026"  # noqa: S105 (a throwaway account on a throwaway database)
ROOT = Path(__file__).resolve().parent.parent
GUNICORN_CONFIG = ROOT / "practice" / "gunicorn.conf.py"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _seed() -> int:
    """A client with one written-record assignment to autosave into; its id."""
    from clients.models import Client
    from homework.models import Assignment, Exercise
    from practice.models import User

    therapist = User.objects.create_user(
        email="flood-therapist@bench.test", name="Robin Hale", role="therapist", is_staff=True
    )
    person = User.objects.create_user(email="flood@bench.test", password=PASSWORD, name="Sam")
    client = Client.objects.create(therapist=therapist, display_name="Sam", portal_user=person)
    from django.utils import timezone

    assignment = Assignment.objects.create(
        client=client,
        exercise=Exercise.objects.create(
            kind="written_record", title="Record", instructions="Write it down."
        ),
        starts_on=timezone.localdate(),
        created_by=therapist,
    )
    return int(assignment.pk)


class _NoRedirects(HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # a 302 is an answer to measure, not a page to follow


class Browser:
    """One person's cookies, with the standard library only: GET and form POSTs."""

    def __init__(self) -> None:
        self.cookies = CookieJar()
        self.opener = build_opener(HTTPCookieProcessor(self.cookies), _NoRedirects)

    def get(self, url: str) -> str:
        with self.opener.open(url, timeout=60) as answer:
            return str(answer.read().decode())

    def post(self, url: str, form: dict[str, str], **headers: str) -> tuple[int, bytes]:
        request = Request(url, data=urlencode(form).encode(), headers=headers, method="POST")  # noqa: S310
        try:
            with self.opener.open(request, timeout=60) as answer:
                return int(answer.status), bytes(answer.read())
        except HTTPError as refused:  # 3xx (not followed), 4xx and 5xx alike
            return int(refused.code), bytes(refused.read())

    def cookie(self, name: str) -> str:
        return next(cookie.value or "" for cookie in self.cookies if cookie.name == name)


def _start_server(port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--config", str(GUNICORN_CONFIG)],
        cwd=ROOT,
        env={**os.environ, "DEBUG": "0", "PORT": str(port)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            Browser().get(f"http://127.0.0.1:{port}/login/")
            return server
        except (URLError, ConnectionError):
            time.sleep(0.2)
    server.terminate()
    raise RuntimeError("the server did not start within 30 seconds")


def _form_token(browser: Browser, url: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', browser.get(url))
    assert found is not None, f"no form token on {url}"
    return found.group(1)


def _signed_in(base: str) -> Browser:
    browser = Browser()
    token = _form_token(browser, f"{base}/login/")
    status, _page = browser.post(
        f"{base}/login/",
        {"csrfmiddlewaretoken": token, "username": "flood@bench.test", "password": PASSWORD},
    )
    assert status == 302, f"sign-in failed: {status}"
    return browser


class Autosaver:
    def __init__(self, base: str, assignment_id: int) -> None:
        self.browser = _signed_in(base)
        self.url = f"{base}/do/{assignment_id}/save/"
        self.token = _form_token(self.browser, f"{base}/account/")
        self.key = str(uuid.uuid4())
        self.version = 0

    def save(self, words: str) -> float:
        started = time.perf_counter()
        status, body = self.browser.post(
            self.url,
            {
                "csrfmiddlewaretoken": self.token,
                "key": self.key,
                "version": str(self.version),
                "r-what_happened": words,
            },
        )
        took = time.perf_counter() - started
        assert status == 200, f"autosave answered {status}: {body[:200]!r}"
        self.version = int(json.loads(body)["version"])
        return took


def _paced(save: Callable[[str], float], words: str) -> float:
    took = save(words)
    time.sleep(AUTOSAVE_EVERY)
    return took


class Tally:
    """How the flood's sign-ins were answered, counted from every thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts: Counter[int] = Counter()

    def add(self, status: int) -> None:
        with self.lock:
            self.counts[status] += 1


def _flood(base: str, stop: threading.Event, ready: threading.Barrier, tally: Tally) -> None:
    """Wrong passwords, one after another, until told to stop. Each thread
    guesses at an account of its own (unknown: the cost is the same)."""
    browser = Browser()
    token = _form_token(browser, f"{base}/login/")
    me = uuid.uuid4().hex[:8]
    ready.wait()
    tries = 0
    while not stop.is_set():
        tries += 1
        try:
            status, _page = browser.post(
                f"{base}/login/",
                {
                    "csrfmiddlewaretoken": token,
                    "username": f"guess-{me}@bench.test",
                    "password": f"wrong {tries}",
                },
            )
        except OSError:  # the server's listen queue was full: a refusal too
            status = 0
        tally.add(status)


@functools.cache
def _assignment_id() -> int:
    return _seed()


def figures() -> list[Figure]:
    from axes.models import AccessAttempt

    from homework.models import Entry

    assignment_id = _assignment_id()
    # The last repeat's flood had this address locked out (clients.lockout
    # counts per address too): each repeat starts with no failures counted.
    AccessAttempt.objects.all().delete()
    # A repeat starts a new draft: the last repeat's would answer it with a conflict.
    Entry.objects.filter(assignment_id=assignment_id).delete()
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = _start_server(port)
    try:
        saver = Autosaver(base, assignment_id)
        saver.save("warm up")
        alone = [_paced(saver.save, f"alone {n}") for n in range(AUTOSAVES)]

        stop = threading.Event()
        ready = threading.Barrier(FLOOD_THREADS + 1)
        tally = Tally()
        threads = [
            threading.Thread(target=_flood, args=(base, stop, ready, tally), daemon=True)
            for _ in range(FLOOD_THREADS)
        ]
        for thread in threads:
            thread.start()
        ready.wait()
        began = time.monotonic()
        time.sleep(FLOOD_RAMP_SECONDS)
        flooded: list[float] = []
        while len(flooded) < AUTOSAVES and time.monotonic() - began < FLOOD_SECONDS:
            flooded.append(_paced(saver.save, f"flooded {len(flooded)}"))
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    finally:
        server.terminate()
        server.wait(timeout=30)

    alone_ms, flooded_ms = (statistics.median(saves) * 1000 for saves in (alone, flooded))
    answered = ", ".join(f"{count} {status or 'refused'}" for status, count in tally.counts.items())
    return [
        Figure(
            "Autosave under a flood of wrong sign-ins / alone",
            flooded_ms / alone_ms if len(flooded) == AUTOSAVES else float("inf"),
            TARGET_RATIO,
            note=f"{flooded_ms:.0f} / {alone_ms:.0f} ms; the flood answered {answered}",
        )
    ]


if __name__ == "__main__":
    print_figures_on_sqlite(figures, "bench-")
