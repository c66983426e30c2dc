"""``ETag`` and ``If-Match``: two writers racing on one row cannot both win."""

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
    return f'"v{version}"'


def with_etag(response: Response, version: int) -> Response:
    response["ETag"] = etag_for(version)
    return response


def version_from_if_match(request: Request) -> int:
    """A header naming no version of ours can match no row: 412, as a stale one."""
    header = request.headers.get("If-Match")
    if header is None or header.strip() in ("", "*"):
        raise PreconditionRequired
    match = _ONE_TAG.match(header)
    if match is None:
        raise PreconditionFailed
    return int(match[1])


def require_current(request: Request, version: int) -> None:
    """Call with the row locked, or two writers can both pass."""
    if version_from_if_match(request) != version:
        raise PreconditionFailed


def etag_of_content(data: Any) -> str:
    digest = hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode())
    return f'"h{digest.hexdigest()[:32]}"'


def require_if_match(request: Request, etag: str) -> None:
    """Read under the row's lock, or two writers can both pass."""
    header = request.headers.get("If-Match")
    if header is None or header.strip() in ("", "*"):
        raise PreconditionRequired
    if header.strip().removeprefix("W/") != etag:
        raise PreconditionFailed
