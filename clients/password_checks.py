"""A bound on how many password hashes one web process computes at once.

Each Argon2 check costs 100 MiB and most of a core. Unbounded, a flood of
wrong sign-ins took every worker thread and both cores, and every other
request (a client's autosave) waited seconds. Here at most
``PASSWORD_CHECKS_AT_ONCE`` run at a time in a process; a check that cannot
start within ``PASSWORD_CHECK_WAIT_SECONDS`` is refused with
PasswordChecksBusy, which the middleware below answers with a calm 429.

The hashes themselves run on a small pool of threads at the lowest CPU
priority (nice 19, per thread on Linux; Argon2's own threads inherit it): a
core is never taken from a page being served, and when nothing else is
running a hash gets the whole machine as before.

The bound is process-local on purpose: it protects this process's threads
and the machine's cores, which is what a flood eats. Several web processes
each have their own bound; the lockout counters, which must be shared, live
in the database (clients.lockout).
"""

import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth.hashers import Argon2PasswordHasher
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from practice.busy import BUSY_RETRY_AFTER, PasswordChecksBusy

LOWEST_PRIORITY = 19

T = TypeVar("T")

_slots_lock = threading.Lock()
_slots: threading.BoundedSemaphore | None = None
_pool: ThreadPoolExecutor | None = None
_slots_size = 0


def _lowest_priority() -> None:
    # Not Linux, or not allowed: the pool runs at normal priority, still bounded.
    with suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), LOWEST_PRIORITY)


def _password_check_slots() -> tuple[threading.BoundedSemaphore, ThreadPoolExecutor]:
    global _slots, _pool, _slots_size
    size = settings.PASSWORD_CHECKS_AT_ONCE
    with _slots_lock:
        if _slots is None or _pool is None or _slots_size != size:  # a test may change it
            _slots, _slots_size = threading.BoundedSemaphore(size), size
            _pool = ThreadPoolExecutor(
                max_workers=size, thread_name_prefix="password-check", initializer=_lowest_priority
            )
        return _slots, _pool


@contextmanager
def password_check_slot() -> Iterator[None]:
    """Hold one of the process's password-check slots, or raise PasswordChecksBusy."""
    slots, _pool = _password_check_slots()
    if not slots.acquire(timeout=settings.PASSWORD_CHECK_WAIT_SECONDS):
        raise PasswordChecksBusy
    try:
        yield
    finally:
        slots.release()


def run_password_check(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` in a slot, on the low-priority pool; the caller waits for it."""
    with password_check_slot():
        _slots, pool = _password_check_slots()
        return pool.submit(work, *args).result()


class BoundedArgon2PasswordHasher(Argon2PasswordHasher):
    """Django's Argon2 hasher (same algorithm name, so every stored hash still
    verifies), computed inside a password-check slot. Hashing a new password
    counts too: Django hashes the typed password for an unknown account, so
    that it takes as long as a known one."""

    def encode(self, password: str, salt: str) -> str:
        return run_password_check(super().encode, password, salt)

    def verify(self, password: str, encoded: str) -> bool:
        return run_password_check(super().verify, password, encoded)


class PasswordChecksBusyMiddleware:
    """A sign-in refused because the server is busy gets a calm page, status
    429 and a Retry-After. Not the wrong-password page: the person's password
    may be right, and 429 tells a script to slow down. It says nothing about
    the account: the check was refused before any password was compared."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> Any:
        if not isinstance(exception, PasswordChecksBusy):
            return None
        response = render(request, "clients/sign_in_busy.html", status=429)
        response["Retry-After"] = str(BUSY_RETRY_AFTER)
        return response
