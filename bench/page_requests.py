"""Asking for a page as a signed-in person, timing it, and saying where its
time goes: the helpers behind bench.pages."""

import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.summary import timed

Sample = tuple[float, float]  # wall-clock and CPU seconds, as bench.summary.timed gives them
ROOT = Path(__file__).resolve().parent.parent
HARNESS = Path(__file__).resolve().parent


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


def opening(http: Any, urls: list[str]) -> str:
    """The first of ``urls`` that opens as a page (200) for this person."""
    for url in urls:
        if http.get(url).status_code == 200:
            return url
    raise SystemExit(f"None of {urls[:3]}… opens")


def getter(http: Any, url: str) -> Callable[[], object]:
    """A GET of ``url`` that must open (200), as a callable to time."""

    def get() -> object:
        response = http.get(url)
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
        return response

    return get


def paired(
    variants: dict[str, tuple[Callable[[], object], Callable[[], object]]], rounds: int
) -> dict[str, tuple[list[Sample], list[Sample]]]:
    """Each variant's (floor, page) timed one right after the other, once a
    round, so each pair shares its moment's weather."""
    samples: dict[str, tuple[list[Sample], list[Sample]]] = {name: ([], []) for name in variants}
    for _ in range(rounds):
        for name, (floor, page) in variants.items():
            samples[name][0].append(timed(floor))
            samples[name][1].append(timed(page))
    return samples


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


def profiled(fn: Callable[[], object], calls: int) -> Any:
    """pyinstrument's profile of ``calls`` calls of ``fn`` (a development dependency)."""
    from pyinstrument import Profiler

    profiler = Profiler(interval=0.0005)
    with profiler:
        for _ in range(calls):
            fn()
    return profiler


def where_time_goes(fn: Callable[[], object], *, calls: int = 20, top: int = 4) -> str:
    """One line from a profile: the share of time under each of our own
    functions (their library calls included, not those of our functions they
    call), the largest first. Middleware and decorators pass time through
    (else the innermost would own every view); what is under none of ours is
    named by its library's package."""
    try:
        profiler = profiled(fn, calls)
    except ImportError:
        return "no profile: pyinstrument is not installed"
    root = profiler.last_session.root_frame() if profiler.last_session else None
    if root is None or not root.time:
        return "no profile: nothing sampled"
    shares: Counter[str] = Counter()

    def walk(frame: Any, owner: str | None) -> None:
        path = frame.file_path or ""
        ours = path.startswith(str(ROOT)) and not path.startswith(str(HARNESS))
        if ours and frame.is_application_code and frame.function not in PASSING_THROUGH:
            owner = f"{Path(path).relative_to(ROOT)}:{frame.function}"
        shares[owner or package_of(path)] += frame.total_self_time
        for child in frame.children:
            if not child.is_synthetic:  # their time is in total_self_time already
                walk(child, owner)

    walk(root, None)
    said = ", ".join(
        f"{name} {100 * spent / root.time:.0f}%" for name, spent in shares.most_common(top)
    )
    return f"profile of {calls} requests: {said}"


# The frames of middleware and view decorators: they hand the request on.
PASSING_THROUGH = frozenset(
    {"__call__", "middleware", "wrapper", "inner", "_wrapper_view", "_view_wrapper"}
)


def package_of(path: str) -> str:
    """A library file's package, two levels deep (django/template), or ours."""
    if "site-packages/" in path:
        parts = path.split("site-packages/", 1)[1].split("/")
        return "/".join(parts[:2]) if len(parts) > 2 else parts[0]
    if path.startswith(str(ROOT)):
        return str(Path(path).relative_to(ROOT))
    if path.startswith("<"):
        return "Python's built-ins"
    return f"python/{Path(path).stem}" if path else "elsewhere"
