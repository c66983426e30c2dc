"""Reset emails per address, counted as the API's throttles are: a Redis outage only loosens it."""

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
    """Counted whether or not the address has an account, so the limit says nothing of which do."""

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
    throttle = PasswordResetThrottle(email=email)
    return throttle.allow_request(cast(Request, None), cast("APIView", None))
