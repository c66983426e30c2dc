"""Typed views of a request once we know who is asking, and how to read what it sends."""

import datetime as dt
import ipaddress

from django.conf import settings
from django.http import HttpRequest

from practice.models import User


class AuthedRequest(HttpRequest):
    """A request whose user is signed in (after ``client_required``, or in the admin)."""

    user: User


def acting_user(request: HttpRequest) -> User:
    """The signed-in user behind an admin or portal request."""
    user = request.user
    if not isinstance(user, User):
        raise TypeError("This request has no signed-in user.")
    return user


# The same write by the same person again within this long is the first one
# sent twice (a double click on Save, a form sent again after a slow reply),
# not a second one: an assignment, a comment, a client's note, the welcome
# form. Long enough for a slow reply, short enough that a deliberate repeat
# later is its own.
SENT_TWICE_WINDOW = dt.timedelta(minutes=2)

# The largest id a database's bigint holds: anything above is no row's.
MAX_ID = 2**63 - 1


def parse_id(value: object) -> int | None:
    """A row id from a query string, a form field or a command's argument:
    a positive 64-bit number written in ASCII digits, or None.

    ``str.isdigit`` alone is not enough: it accepts "²" and other Unicode
    digits, which ``int`` then refuses (a ValueError), and twenty nines,
    which overflow the database's integers. Callers treat None as "no such
    row", never as an error page.
    """
    if not isinstance(value, str) or not value.isascii() or not value.isdigit():
        return None
    if len(value) > len(str(MAX_ID)):
        return None  # also keeps int() off strings too long for it to convert
    number = int(value)
    return number if 0 < number <= MAX_ID else None


def client_address(request: HttpRequest) -> str | None:
    """The address a sign-in came from: the connection's, or behind
    PROXIES_IN_FRONT proxies the one the outermost of them saw (the
    X-Forwarded-For entry it added; those further left are the client's
    own say and could be anything)."""
    proxies = settings.PROXIES_IN_FRONT
    if proxies:
        hops = str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")
        forwarded = [hop.strip() for hop in hops]
        if len(forwarded) >= proxies and _is_an_address(forwarded[-proxies]):
            return forwarded[-proxies]
    connection = request.META.get("REMOTE_ADDR")
    return str(connection) if connection else None


def _is_an_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True
