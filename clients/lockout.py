"""No password guessing: the lockout rules, on django-axes.

Failures count per account on one address, so a guesser elsewhere never locks the owner out,
and per address (higher, with a device cookie exempt: a shelter's wifi is one address for many).
"""

import datetime as dt
import hashlib
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.exceptions import AxesBackendPermissionDenied
from axes.handlers.database import AxesDatabaseHandler
from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_lockout_parameters
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.contrib.auth.signals import user_login_failed
from django.core import signing
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _

from practice.models import User

ACCOUNT_FAILURES = 10
ADDRESS_FAILURES = 50
COOL_OFF = dt.timedelta(minutes=15)

NOT_RIGHT_WAY_BACK = _(
    "After several tries, checking pauses for 15 minutes. "
    "If you have forgotten your password, you can set a new one from the sign-in page."
)


def failure_limit(request: HttpRequest | None, credentials: dict[str, Any] | None) -> int:
    return ACCOUNT_FAILURES


def cool_off(request: HttpRequest | None) -> dt.timedelta:
    return COOL_OFF


def username_of_attempt(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """Normalized, so "Alice@…" and "alice@…" share a counter; axes asks under either key."""
    given = credentials or {}
    raw = given.get("username") or given.get(User.USERNAME_FIELD)
    if raw is None:
        raw = request.POST.get("username") if request is not None else None
    if not raw:
        return None
    username = User.normalize_username(str(raw))
    # Axes keeps 255 characters: a longer name is counted by digest, not refused by the database.
    if len(username) > 254:
        return "long:" + hashlib.sha256(username.encode()).hexdigest()
    return username


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any = None
) -> HttpResponse:
    """A lock answers as a wrong password, never telling a guesser the account exists."""
    if original_response is None:  # axes called without a page to keep (not ours)
        return HttpResponse(str(NOT_RIGHT_WAY_BACK), status=400)
    return original_response


def run_password_hasher(password: str | None) -> None:
    """As Django's ModelBackend does: a refusal before the check takes as long as a check."""
    make_password(password or "")


class LockoutBackend(AxesStandaloneBackend):
    """Runs the password hasher on a lock too, so a lock cannot be told by its speed."""

    def authenticate(
        self,
        request: HttpRequest,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        try:
            return super().authenticate(request, username, password, **kwargs)  # type: ignore[no-any-return]
        except AxesBackendPermissionDenied:
            run_password_hasher(password)
            raise


class PracticeAxesHandler(AxesDatabaseHandler):
    """Axes has one limit: the per-address counter is scaled to reach it at ADDRESS_FAILURES."""

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        parameters = get_lockout_parameters(request, credentials)
        counts = [0]
        for attempts, parameter in zip(
            self.get_user_attempts(request, credentials), parameters, strict=True
        ):
            failures = int(attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0)
            if parameter == "ip_address":
                if device_cookie_names(request, username_of_attempt(request, credentials)):
                    continue  # a browser this account signed in from: only its own count holds
                failures = failures * ACCOUNT_FAILURES // ADDRESS_FAILURES
            counts.append(failures)
        return max(counts)

    def reset_user_attempts(
        self, request: HttpRequest, credentials: dict[str, Any] | None = None
    ) -> int:
        """Only this account's count: else a guesser could clear the address with their own."""
        username = username_of_attempt(request, credentials)
        if username is None:
            return 0
        deleted, _rows = AccessAttempt.objects.filter(
            username=username,
            ip_address=request.axes_ip_address,  # type: ignore[attr-defined]
        ).delete()
        return int(deleted)


# A neutral name: whoever looks through the browser's cookies learns nothing from it.
DEVICE_COOKIE = "device"
DEVICE_COOKIE_MAX_AGE = 60 * 60 * 24 * 90
DEVICE_COOKIE_SALT = "clients.lockout.device"
DEVICE_COOKIE_ACCOUNTS = 5


def _account_mark(username: str) -> str:
    """A keyed digest, so the cookie tells no one but this server whose it is."""
    normalized = User.normalize_username(username)
    return salted_hmac(DEVICE_COOKIE_SALT, normalized, algorithm="sha256").hexdigest()[:32]


def _marks_in(request: HttpRequest) -> list[str]:
    raw = request.COOKIES.get(DEVICE_COOKIE)
    if not raw:
        return []
    try:
        marks = signing.loads(raw, salt=DEVICE_COOKIE_SALT, max_age=DEVICE_COOKIE_MAX_AGE)
    except signing.BadSignature:  # altered, made up, or too old (SignatureExpired)
        return []
    if not isinstance(marks, list):
        return []
    return [mark for mark in marks if isinstance(mark, str)]


def device_cookie_names(request: HttpRequest | None, username: str | None) -> bool:
    if request is None or not username:
        return False
    return _account_mark(username) in _marks_in(request)


def device_cookie_set(response: HttpResponse, *, request: HttpRequest, user: User) -> None:
    mark = _account_mark(user.get_username())
    marks = [mark, *(m for m in _marks_in(request) if m != mark)][:DEVICE_COOKIE_ACCOUNTS]
    response.set_cookie(
        DEVICE_COOKIE,
        signing.dumps(marks, salt=DEVICE_COOKIE_SALT),
        max_age=DEVICE_COOKIE_MAX_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def password_check_refused(*, request: HttpRequest, user: User) -> bool:
    return not AxesProxyHandler.is_allowed(request, {"username": user.email})


def password_check_failed(*, request: HttpRequest, user: User) -> None:
    """Call outside the refusing transaction: a rollback would take the count with it."""
    user_login_failed.send(sender=__name__, credentials={"username": user.email}, request=request)
