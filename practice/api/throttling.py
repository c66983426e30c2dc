"""Throttles per person and per address; a Redis outage loosens them, never fails a request."""

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

# After a fault, count in memory for this long: a stalled Redis costs one request its timeout.
CACHE_PAUSE_SECONDS = 30.0


class ThrottleCache:
    def __init__(self) -> None:
        self.memory = LocMemCache("api-throttles", {})
        self.paused_until = 0.0

    def get(self, key: str, default: Any = None) -> Any:
        if time.monotonic() >= self.paused_until:
            try:
                return cache.get(key, default)
            except Exception:
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
    cache = throttle_cache  # type: ignore[assignment]

    def get_ident(self, request: Request | HttpRequest) -> str:
        return client_address(_django_request(request)) or "unknown"


class PerAddressThrottle(SimpleRateThrottle):
    """Many accounts from one machine are still one machine."""

    scope = "address"
    cache = throttle_cache  # type: ignore[assignment]

    def get_cache_key(self, request: Request, view: "APIView") -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def get_ident(self, request: Request | HttpRequest) -> str:
        return client_address(_django_request(request)) or "unknown"


def _django_request(request: Request | HttpRequest) -> HttpRequest:
    return request._request if isinstance(request, Request) else request


class SignInThrottle(PerAddressThrottle):
    """Each call here costs a password hash: far fewer, so a flood cannot take the cores."""

    scope = "token-sign-in"
