"""Throttles: per signed-in person, and per address whoever asks.

Counted in the default cache (Redis in production, shared by every web
process; memory in development), or, while that cannot be reached, in this
process's memory (ThrottleCache): a Redis outage loosens the limits, it
never fails a request. The address is the one the sign-in
lockout uses (practice.requests.client_address), so X-Forwarded-For counts
only as far as PROXIES_IN_FRONT says it may.
"""

import logging
import time
from typing import TYPE_CHECKING, Any

from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle, UserRateThrottle

from practice.requests import client_address

if TYPE_CHECKING:  # rest_framework.views reads the throttle classes while it loads
    from rest_framework.views import APIView

logger = logging.getLogger(__name__)

# After a fault, count in memory alone for this long: a refused or stalled
# Redis costs one request its timeout, not every request.
CACHE_PAUSE_SECONDS = 30.0


class ThrottleCache:
    """The default cache for the throttles' counts, or this process's memory
    while it cannot be reached (each web process then counts on its own)."""

    def __init__(self) -> None:
        self.memory = LocMemCache("api-throttles", {})
        self.paused_until = 0.0

    def get(self, key: str, default: Any = None) -> Any:
        if time.monotonic() >= self.paused_until:
            try:
                return cache.get(key, default)
            except Exception:  # any backend's fault, Redis's ConnectionError included
                self.failed()
        return self.memory.get(key, default)

    def set(self, key: str, value: Any, timeout: int | None = None) -> None:
        if time.monotonic() >= self.paused_until:
            try:
                cache.set(key, value, timeout)
                return
            except Exception:
                self.failed()
        self.memory.set(key, value, timeout)

    def failed(self) -> None:
        self.paused_until = time.monotonic() + CACHE_PAUSE_SECONDS
        logger.warning(
            "Cache unavailable: API throttles count in this process's memory for %ss.",
            int(CACHE_PAUSE_SECONDS),
        )


throttle_cache = ThrottleCache()


class PerUserThrottle(UserRateThrottle):
    """Rate ``user`` (REST_FRAMEWORK's DEFAULT_THROTTLE_RATES) per signed-in person."""

    cache = throttle_cache  # type: ignore[assignment]

    def get_ident(self, request: Request | HttpRequest) -> str:
        return client_address(_django_request(request)) or "unknown"


class PerAddressThrottle(SimpleRateThrottle):
    """Rate ``address`` per network address, signed in or not: many
    accounts from one machine are still one machine."""

    scope = "address"
    cache = throttle_cache  # type: ignore[assignment]

    def get_cache_key(self, request: Request, view: "APIView") -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def get_ident(self, request: Request | HttpRequest) -> str:
        return client_address(_django_request(request)) or "unknown"


def _django_request(request: Request | HttpRequest) -> HttpRequest:
    return request._request if isinstance(request, Request) else request


class SignInThrottle(PerAddressThrottle):
    """Rate ``token-sign-in`` per address on the routes that check a password:
    each costs a hash, so far fewer than other calls (the lockout still counts
    every failure; this only keeps a flood from taking the cores)."""

    scope = "token-sign-in"
