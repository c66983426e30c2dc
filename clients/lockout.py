"""No password guessing: the lockout rules, on django-axes.

Every password check counts: the portal's and the admin's sign-in (through
Django's ``authenticate``, which axes listens to), and the current password
asked again on the account page (``password_check_refused`` and
``password_check_failed``, called by the services that ask it).

- Failures count per account on one address (``ACCOUNT_FAILURES``), so a
  guesser elsewhere never locks the owner out of their own device; and per
  address across accounts (``ADDRESS_FAILURES``, higher: a shelter's or a
  library's wifi is one address for many people).
- A lock lasts ``COOL_OFF`` after the last try; each try during it starts
  the wait again, so a guesser who keeps going stays out and the owner who
  waits gets back in. Counters live in the database (axes' AccessAttempt):
  every web process sees the same ones.
- A locked, a wrong and an unknown account get one answer, in the same
  words, status and time: a locked check still runs a hash of equal cost.
  The words tell the real owner how to get back in (wait, or reset).
- A browser where an account has signed in before carries a device cookie
  naming it (OWASP's device-cookie pattern, ``device_cookie_set``): a try at
  that account from that browser is exempt from the per-address limit, so
  one guesser on a shelter's wifi cannot lock everyone else out. The
  per-account limit still applies to it.
"""

import datetime as dt
import hashlib
import logging
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
from django.core.cache import cache
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _

from practice.models import User

logger = logging.getLogger(__name__)

ACCOUNT_FAILURES = 10
ADDRESS_FAILURES = 50
COOL_OFF = dt.timedelta(minutes=15)

# What a refused password check says, locked or not: the owner's way back in is in it.
NOT_RIGHT_WAY_BACK = _(
    "After several tries, checking pauses for 15 minutes. "
    "If you have forgotten your password, you can set a new one from the sign-in page."
)


def failure_limit(request: HttpRequest | None, credentials: dict[str, Any] | None) -> int:
    return ACCOUNT_FAILURES


def cool_off(request: HttpRequest | None) -> dt.timedelta:
    return COOL_OFF


def username_of_attempt(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The address tried, as accounts keep it: "Alice@…" and "alice@…" share a counter.

    Axes asks with the credentials under "username" where it counts a failure
    (as ``authenticate`` was called) and under the user model's field
    ("email") where its backend checks for a lock; both must find the one
    address, or a sign-in without a form (an API token's) is never refused."""
    given = credentials or {}
    raw = given.get("username") or given.get(User.USERNAME_FIELD)
    if raw is None:
        raw = request.POST.get("username") if request is not None else None
    if not raw:
        return None
    username = User.normalize_username(str(raw))
    # Axes keeps the name in 255 characters; no address is longer than 254,
    # so a longer one is counted by its digest rather than refused by the database.
    if len(username) > 254:
        return "long:" + hashlib.sha256(username.encode()).hexdigest()
    return username


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any = None
) -> HttpResponse:
    """The page the sign-in drew itself: a locked account is refused exactly as
    a wrong password is (authentication simply failed), never with a page of
    its own that would tell a guesser the account exists and is locked."""
    if original_response is None:  # axes called without a page to keep (not ours)
        return HttpResponse(str(NOT_RIGHT_WAY_BACK), status=400)
    return original_response


def spend_a_password_check(password: str | None) -> None:
    """Hash the typed password once, for nothing: a refused-before-checking
    attempt takes as long as a checked one."""
    make_password(password or "")


class LockoutBackend(AxesStandaloneBackend):
    """Axes' standalone backend (first in AUTHENTICATION_BACKENDS), which
    refuses a locked sign-in before the password is read; here it also spends
    the time a password check takes, so a lock cannot be told by its speed."""

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
            spend_a_password_check(password)
            raise


class PracticeAxesHandler(AxesDatabaseHandler):
    """Axes' database handler with one limit per kind of counter.

    Axes compares the largest counter with one limit (ACCOUNT_FAILURES); the
    counter for an address across accounts is scaled here so that it reaches
    that limit at ADDRESS_FAILURES instead."""

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
        """A sign-in that succeeds clears that account's count on that address
        only. Axes' own clears every counter the request matches, the
        address's across accounts too: a guesser with an account of their own
        could then sign into it between guesses at someone else's."""
        username = username_of_attempt(request, credentials)
        if username is None:
            return 0
        deleted, _rows = AccessAttempt.objects.filter(
            username=username,
            ip_address=request.axes_ip_address,  # type: ignore[attr-defined]
        ).delete()
        return int(deleted)


# -- the device cookie ---------------------------------------------------------------

# A neutral name: whoever looks through the browser's cookies learns nothing from it.
DEVICE_COOKIE = "device"
DEVICE_COOKIE_MAX_AGE = 60 * 60 * 24 * 90
DEVICE_COOKIE_SALT = "clients.lockout.device"
# Accounts one browser is remembered for (a shelter's shared computer); the oldest goes first.
DEVICE_COOKIE_ACCOUNTS = 5


def _account_mark(username: str) -> str:
    """The account as the cookie names it: a keyed digest, never the address,
    so the cookie tells no one but this server whose it is."""
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
    """Whether ``request`` carries a valid device cookie for ``username``."""
    if request is None or not username:
        return False
    return _account_mark(username) in _marks_in(request)


def device_cookie_set(response: HttpResponse, *, request: HttpRequest, user: User) -> None:
    """Remember, in this browser, that ``user`` signed in here (after every
    step of the sign-in). Signed, so it cannot be made up or altered; dated,
    so an old one stops counting."""
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
    """Whether the current password may not be checked now (locked, for this
    account on this address, or for this address). The caller then answers as
    for a wrong password, after spending the same time."""
    return not AxesProxyHandler.is_allowed(request, {"username": user.email})


def password_check_failed(*, request: HttpRequest, user: User) -> None:
    """Count a wrong current password as a failed sign-in, as ``authenticate`` does.

    Call it outside the transaction that refused the password: a rollback
    would take the count with it."""
    user_login_failed.send(sender=__name__, credentials={"username": user.email}, request=request)


RESET_WINDOW_SECONDS = 60 * 60


def password_reset_allowed(*, email: str) -> bool:
    """Whether another reset email may go to ``email`` this hour
    (PASSWORD_RESETS_PER_HOUR), counted whether or not it has an account, so
    the limit says nothing about which addresses do.

    In the cache, not the database: Redis in production, shared by every
    web process, and a count that needs no migration and may be lost (a
    Redis restart allows a few more emails, no more). The address is kept
    only as a hash. Should the cache fail, the email goes: a reset is the
    owner's way back in, and a Redis outage must not take it away.
    """
    digest = hashlib.sha256(User.normalize_username(email).encode()).hexdigest()
    key = f"password-reset-asked:{digest}"
    try:
        if cache.add(key, 1, timeout=RESET_WINDOW_SECONDS):
            return True
        return int(cache.incr(key)) <= settings.PASSWORD_RESETS_PER_HOUR
    except Exception:
        logger.warning("Could not count reset requests (is the cache down?)", exc_info=True)
        return True
