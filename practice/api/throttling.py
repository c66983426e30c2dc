"""Throttles: per signed-in person, and per address whoever asks.

Counted in the default cache (Redis in production, shared by every web
process; memory in development). The address is the one the sign-in
lockout uses (clients.lockout.client_address), so X-Forwarded-For counts
only as far as PROXIES_IN_FRONT says it may.
"""

from typing import TYPE_CHECKING

from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle, UserRateThrottle

from clients.lockout import client_address

if TYPE_CHECKING:  # rest_framework.views reads the throttle classes while it loads
    from rest_framework.views import APIView


class PerUserThrottle(UserRateThrottle):
    """Rate ``user`` (REST_FRAMEWORK's DEFAULT_THROTTLE_RATES) per signed-in person."""

    def get_ident(self, request: Request | HttpRequest) -> str:
        return client_address(_django_request(request)) or "unknown"


class PerAddressThrottle(SimpleRateThrottle):
    """Rate ``address`` per network address, signed in or not: many
    accounts from one machine are still one machine."""

    scope = "address"

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
