"""Asking for a page as a signed-in person, and catching what it rendered:
the helpers behind bench.pages."""

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from bench.summary import timed

Sample = tuple[float, float]  # wall-clock and CPU seconds, as bench.summary.timed gives them


@dataclass(frozen=True)
class Rendered:
    """What one page rendered: its template, the context its view built, the request."""

    template: Any
    context: dict[str, Any]
    request: Any

    def render(self) -> str:
        return str(self.template.render(self.context, self.request))


def interleaved(variants: dict[str, Callable[[], object]], rounds: int) -> dict[str, list[Sample]]:
    """Each variant timed once per round, in turn, so a round's variants share its weather."""
    samples: dict[str, list[Sample]] = {name: [] for name in variants}
    for _ in range(rounds):
        for name, fn in variants.items():
            samples[name].append(timed(fn))
    return samples


def signed_in(user: Any, *, staff: bool) -> Any:
    """A test client signed in as ``user``; staff with their second factor given."""
    from django.test import Client as HttpClient
    from django_otp import DEVICE_ID_SESSION_KEY
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from clients.middleware import STAFF_LAST_SEEN

    http = HttpClient()
    http.force_login(user)
    if staff:
        device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
        if device is None:
            device = TOTPDevice.objects.create(user=user, name="bench", confirmed=True)
        session = http.session
        session[DEVICE_ID_SESSION_KEY] = device.persistent_id
        session[STAFF_LAST_SEEN] = time.time()
        session.save()
    return http


@contextmanager
def capturing_renders() -> Iterator[list[tuple[Rendered, str]]]:
    """Every outermost template render through the Django backend while
    open, with its output: the page's own is the one whose output is the
    response (views render fragments of their own too)."""
    from django.template.backends.django import Template

    original = Template.render
    seen: list[tuple[Rendered, str]] = []
    depth = [0]

    def render(self: Any, context: Any = None, request: Any = None) -> Any:
        depth[0] += 1
        try:
            output = original(self, context, request)
        finally:
            depth[0] -= 1
        if depth[0] == 0 and isinstance(context, dict):
            seen.append((Rendered(self, context, request), str(output)))
        return output

    Template.render = render  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        Template.render = original  # type: ignore[method-assign]


def opening(http: Any, urls: list[str]) -> str:
    """The first of ``urls`` that opens as a page (200) for this person."""
    for url in urls:
        if http.get(url).status_code == 200:
            return url
    raise SystemExit(f"None of {urls[:3]}… opens")


def page_and_floor(http: Any, url: str) -> tuple[Callable[[], object], Rendered]:
    """The page as a request, and what it rendered (read once, now)."""

    def page() -> object:
        response = http.get(url)
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
        return response

    with capturing_renders() as seen:
        response = page()
    body = response.content.decode()  # type: ignore[attr-defined]
    for rendered, output in seen:
        if output == body:
            return page, rendered
    raise SystemExit(f"{url}: no template rendered the page's own body")


def sql_time(fn: Callable[[], object]) -> tuple[int, float]:
    """Queries one call makes, and the wall-clock seconds spent in them."""
    from django.db import connection

    spent = [0, 0.0]

    def wrapper(execute: Any, sql: Any, params: Any, many: Any, context: Any) -> Any:
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            spent[0] += 1
            spent[1] += time.perf_counter() - start

    with connection.execute_wrapper(wrapper):
        fn()
    return int(spent[0]), float(spent[1])
