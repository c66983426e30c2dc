"""How many reset emails one address is sent: DRF's rate throttle, counted
where the API's throttles count (practice.api.throttling: in Redis, shared by
every web process, or in this process's memory while Redis cannot be
reached, so an outage loosens the limit and never takes away a person's way
back in)."""

import hashlib
from typing import TYPE_CHECKING, cast

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from practice.api.throttling import throttle_cache
from practice.models import User

if TYPE_CHECKING:  # rest_framework.views reads the throttle classes while it loads
    from rest_framework.views import APIView


class PasswordResetThrottle(SimpleRateThrottle):
    """PASSWORD_RESETS_PER_HOUR emails to one address in any hour, counted
    whether or not it has an account, so the limit says nothing about which
    addresses do. The address is kept only as a digest."""

    scope = "password-reset"
    cache = throttle_cache  # type: ignore[assignment]

    def __init__(self, *, email: str) -> None:
        self.address = User.normalize_username(email)
        super().__init__()

    def get_rate(self) -> str:
        return f"{settings.PASSWORD_RESETS_PER_HOUR}/hour"

    def get_cache_key(self, request: Request, view: "APIView") -> str:
        digest = hashlib.sha256(self.address.encode()).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": digest}


def password_reset_allowed(*, email: str) -> bool:
    """Whether another reset email may go to ``email`` now; if so, it is counted."""
    throttle = PasswordResetThrottle(email=email)
    # The key is the address alone: DRF's throttle reads neither the request nor the view.
    return throttle.allow_request(cast(Request, None), cast("APIView", None))
