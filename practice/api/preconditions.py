"""``ETag`` and ``If-Match``: two writers racing on one row cannot both win.

A row's ETag is its ``version`` (the same counter the portal's autosave
checks: homework.services.entry_writes). A write (PATCH, PUT) must send
``If-Match`` with the ETag it read: without one it is refused (428), and
with an old one the service's own version check refuses it (412), inside
the row's lock, so the row is unchanged. ``*`` names no version and is
refused like a missing header.
"""

import hashlib
import json
import re
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.response import Response

from practice.api.errors import PreconditionFailed, PreconditionRequired

_ONE_TAG = re.compile(r'^\s*(?:W/)?"v(\d{1,9})"\s*$')

IF_MATCH_HEADER = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description=(
        "The ETag this object had when you read it. Without it: 428. "
        "If it changed since: 412, and nothing is changed."
    ),
)


def etag_for(version: int) -> str:
    """The ETag of a row at ``version``."""
    return f'"v{version}"'


def with_etag(response: Response, version: int) -> Response:
    response["ETag"] = etag_for(version)
    return response


def version_from_if_match(request: Request) -> int:
    """The version the caller read, from ``If-Match``; 428 without one.

    A header that names no version of ours (a list, garbage) can match no
    row: 412, as a stale one. The caller passes the number to the service
    as its base version; the service compares it under the row's lock.
    """
    header = request.headers.get("If-Match")
    if header is None or header.strip() in ("", "*"):
        raise PreconditionRequired
    match = _ONE_TAG.match(header)
    if match is None:
        raise PreconditionFailed
    return int(match[1])


def require_current(request: Request, version: int) -> None:
    """For a row without a service-side check: 412 unless ``If-Match`` names
    ``version``. Call it with the row locked (select_for_update), or two
    writers can both pass."""
    if version_from_if_match(request) != version:
        raise PreconditionFailed


def etag_of_content(data: Any) -> str:
    """The ETag of a row with no version column: a digest of what it says
    (any change to it changes the tag)."""
    digest = hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode())
    return f'"h{digest.hexdigest()[:32]}"'


def require_if_match(request: Request, etag: str) -> None:
    """428 without ``If-Match``; 412 unless it is ``etag``, the row's tag as
    read under its lock (or two writers can both pass)."""
    header = request.headers.get("If-Match")
    if header is None or header.strip() in ("", "*"):
        raise PreconditionRequired
    if header.strip().removeprefix("W/") != etag:
        raise PreconditionFailed
