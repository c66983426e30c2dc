"""``Idempotency-Key`` on POST; the key's row goes in with the write, so a racing repeat waits."""

import datetime as dt
import hashlib
import json
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import exceptions
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from practice.api.errors import Conflict, Unprocessable, error_response
from practice.models import IdempotentRequest, User

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
IDEMPOTENCY_KEY_TTL = dt.timedelta(hours=24)
MAX_KEY_LENGTH = 255
KEPT_HEADERS = ("ETag", "Location")

IDEMPOTENCY_KEY_HEADER = OpenApiParameter(
    HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description=(
        "Any string up to 255 characters (a UUID is a good choice), new for each new request. "
        "Sent again with the same body, it returns the first answer and writes nothing twice; "
        "with another body: 422. Kept for 24 hours."
    ),
)

View = TypeVar("View", bound=Callable[..., Response])


class KeyReused(Unprocessable):
    default_code = "idempotency_key_reused"
    default_detail = _("This Idempotency-Key was already used for a different request.")


class KeyInUse(Conflict):
    default_code = "idempotency_key_in_use"
    default_detail = _("A request with this Idempotency-Key is still being answered. Try again.")


KEY_MALFORMED = _("An Idempotency-Key is 1 to 255 visible ASCII characters.")


def _fingerprint(request: Request) -> str:
    digest = hashlib.sha256()
    # The parsed body, keys sorted: the same JSON spaced or ordered otherwise is the same request.
    digest.update(f"{request.method} {request.get_full_path()}\n".encode())
    digest.update(json.dumps(request.data, sort_keys=True, default=str).encode())
    return digest.hexdigest()


def idempotent(view: View) -> View:
    """On a view's ``post``: DRF's permission checks have run by then."""

    @wraps(view)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER)
        user = request.user
        if key is None or not isinstance(user, User):
            return view(self, request, *args, **kwargs)
        if not (0 < len(key) <= MAX_KEY_LENGTH and key.isascii() and key.isprintable()):
            return error_response(exceptions.ValidationError({HEADER: [KEY_MALFORMED]}))
        fingerprint = _fingerprint(request)
        with transaction.atomic():
            _forget_if_expired(user, key)
            try:
                with transaction.atomic():
                    record = IdempotentRequest.objects.create(
                        user=user, key=key, fingerprint=fingerprint
                    )
            except IntegrityError:
                return _replay(user, key, fingerprint)
            response = view(self, request, *args, **kwargs)
            if not 200 <= response.status_code < 300:
                record.delete()  # an error changed nothing: let a retry run afresh
                return response
            record.status_code = response.status_code
            record.response_body = json.loads(JSONRenderer().render(response.data) or b"null")
            record.response_headers = {
                name: response[name] for name in KEPT_HEADERS if response.has_header(name)
            }
            record.save(update_fields=["status_code", "response_body", "response_headers"])
            return response

    return wrapper  # type: ignore[return-value]


def _forget_if_expired(user: User, key: str) -> None:
    cutoff = timezone.now() - IDEMPOTENCY_KEY_TTL
    IdempotentRequest.objects.filter(user=user, key=key, created_at__lt=cutoff).delete()


def _replay(user: User, key: str, fingerprint: str) -> Response:
    record = IdempotentRequest.objects.select_for_update().get(user=user, key=key)
    if record.fingerprint != fingerprint:
        return error_response(KeyReused())
    if record.status_code is None:
        return error_response(KeyInUse())
    response = Response(record.response_body, status=record.status_code)
    for name, value in record.response_headers.items():
        response[name] = value
    response[REPLAYED_HEADER] = "true"
    return response


def idempotency_keys_purge(*, now: dt.datetime) -> int:
    return IdempotentRequest.objects.filter(created_at__lt=now - IDEMPOTENCY_KEY_TTL).delete()[0]
