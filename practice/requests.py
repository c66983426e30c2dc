"""Typed views of a request once we know who is asking, and how to read what it sends."""

import datetime as dt
import ipaddress

from django.conf import settings
from django.http import HttpRequest

from practice.models import User


class AuthedRequest(HttpRequest):
    user: User


def acting_user(request: HttpRequest) -> User:
    user = request.user
    if not isinstance(user, User):
        raise TypeError("This request has no signed-in user.")
    return user


# The same write again within this long is the first one sent twice (a double click).
SENT_TWICE_WINDOW = dt.timedelta(minutes=2)

MAX_ID = 2**63 - 1


def parse_id(value: object) -> int | None:
    """A positive 64-bit ASCII number, or None: ``isdigit`` accepts "²" and overflowing ids."""
    if not isinstance(value, str) or not value.isascii() or not value.isdigit():
        return None
    if len(value) > len(str(MAX_ID)):
        return None
    number = int(value)
    return number if 0 < number <= MAX_ID else None


def client_address(request: HttpRequest) -> str | None:
    """Behind proxies, the address the outermost one saw; those left of it are the client's say."""
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
