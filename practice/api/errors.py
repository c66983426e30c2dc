"""One shape for every API error: ``{"code", "detail", "errors": {"field.path": [...]}}``."""

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response

ALL = "__all__"

# What DRF's own exceptions say, in our words; their codes stay DRF's.
_DETAILS = {
    "parse_error": _("The body is not valid JSON."),
    "unsupported_media_type": _("Send the body as JSON (Content-Type: application/json)."),
    "not_authenticated": _("Sign in first."),
    "authentication_failed": _("Those sign-in details are not valid."),
    "not_found": _("There is nothing here, or it is not yours to see."),
    "throttled": _("Too many requests. Wait a little, then try again."),
}


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"
    default_detail = _("The body is larger than this API takes.")


class Unreadable(exceptions.APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "bad_request"
    default_detail = _("This request could not be read.")


class ServerError(exceptions.APIException):
    default_code = "server_error"
    default_detail = _("Something went wrong on our side. Try again in a little while.")


class PreconditionRequired(exceptions.APIException):
    status_code = status.HTTP_428_PRECONDITION_REQUIRED
    default_code = "precondition_required"
    default_detail = _(
        "Send If-Match with the ETag you last read, so a change made elsewhere is not overwritten."
    )


class PreconditionFailed(exceptions.APIException):
    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_code = "precondition_failed"
    default_detail = _("This changed since you read it. Read it again, then make your change.")


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"
    default_detail = _("This cannot be done now.")


class Unprocessable(exceptions.APIException):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "unprocessable"
    default_detail = _("This request cannot be processed.")


class Refused(exceptions.APIException):
    """A rule of the practice says no: 403 with a code naming the rule."""

    status_code = status.HTTP_403_FORBIDDEN
    default_code = "refused"
    default_detail = _("This cannot be done.")


# For the schema only: the docstring is the schema's description.
class ErrorOut(serializers.Serializer[Any]):
    """The one shape of every error this API answers."""

    code = serializers.CharField(help_text=_("What went wrong, for a program to act on."))
    detail = serializers.CharField(help_text=_("A sentence for a person."))
    # DRF's metaclass takes this as a field, so Serializer.errors stays as it was.
    errors = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()),
        help_text=_(
            "Each field to blame with its messages (a nested one by its path, the whole "
            "body as __all__); empty when no field is."
        ),
    )


def api_error(exc: exceptions.APIException) -> dict[str, Any]:
    if isinstance(exc, exceptions.ValidationError):
        return {
            "code": "invalid",
            "detail": str(_("Some fields need another look.")),
            "errors": field_errors(exc.detail),
        }
    code = exc.get_codes()
    code = code if isinstance(code, str) else exc.default_code
    detail = exc.detail
    text = str(detail) if isinstance(detail, str) else str(exc.default_detail)
    if code in _DETAILS and text == str(type(exc).default_detail):
        text = str(_DETAILS[code])
    wait = getattr(exc, "wait", None) if isinstance(exc, exceptions.Throttled) else None
    if wait is not None:
        # DRF's text names the wait already, in its own words: ours instead.
        text = f"{_DETAILS['throttled']} ({_('about %(seconds)s seconds') % {'seconds': int(wait) + 1}})"
    return {"code": code, "detail": text, "errors": {}}


def field_errors(detail: Any, path: str = "") -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    if isinstance(detail, Mapping):
        for name, inner in detail.items():
            found.update(field_errors(inner, f"{path}.{name}" if path else str(name)))
    elif isinstance(detail, list) and any(isinstance(item, (Mapping, list)) for item in detail):
        for index, inner in enumerate(detail):
            found.update(field_errors(inner, f"{path}.{index}" if path else str(index)))
    elif isinstance(detail, list):
        found[path or ALL] = [str(message) for message in detail]
    else:
        found[path or ALL] = [str(detail)]
    return {name: messages for name, messages in found.items() if messages}


def api_exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response | None:
    """DRF's handling, then our shape; a missing row is a 404, never a 403 that says it exists."""
    if isinstance(exc, ObjectDoesNotExist | Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else {ALL: exc.messages}
        )
    from rest_framework.views import exception_handler  # it loads the settings that name us

    response = exception_handler(exc, dict(context))
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    response.data = api_error(exc)
    return response


def error_response(exc: exceptions.APIException) -> Response:
    from rest_framework.views import set_rollback  # it loads the settings that name us

    set_rollback()
    headers = {}
    wait = getattr(exc, "wait", None) if isinstance(exc, exceptions.Throttled) else None
    if wait is not None:
        headers["Retry-After"] = str(int(wait))
    return Response(api_error(exc), status=exc.status_code, headers=headers)
