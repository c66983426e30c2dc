"""Every answer under ``/api/v1/`` in the API's error shape, even those Django gives."""

from collections.abc import Callable
from functools import cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from rest_framework import exceptions, status

from practice.api.errors import RequestTooLarge, ServerError, Unreadable, api_error

Handler = Callable[[HttpRequest], HttpResponse]

KEPT_HEADERS = ("Allow", "Retry-After")


@cache
def api_prefix() -> str:
    return reverse("api:no-such-route", kwargs={"rest": ""})


def error_for_status(code: int) -> exceptions.APIException:
    known: dict[int, exceptions.APIException] = {
        status.HTTP_400_BAD_REQUEST: Unreadable(),
        status.HTTP_401_UNAUTHORIZED: exceptions.NotAuthenticated(),
        status.HTTP_403_FORBIDDEN: exceptions.PermissionDenied(),
        status.HTTP_404_NOT_FOUND: exceptions.NotFound(),
        status.HTTP_413_REQUEST_ENTITY_TOO_LARGE: RequestTooLarge(),
        status.HTTP_429_TOO_MANY_REQUESTS: exceptions.Throttled(),
    }
    if code in known:
        return known[code]
    error = ServerError() if code >= 500 else Unreadable()
    error.status_code = code
    return error


def api_error_shape_middleware(get_response: Handler) -> Handler:
    """A body too large is refused before anything reads it (Django's limit answers in HTML)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if not request.path_info.startswith(api_prefix()):
            return get_response(request)
        declared = request.META.get("CONTENT_LENGTH") or ""
        if declared.isdigit() and int(declared) > settings.API_MAX_BODY_BYTES:
            too_large = RequestTooLarge()
            return JsonResponse(api_error(too_large), status=too_large.status_code)
        response = get_response(request)
        if response.status_code < 400 or response.get("Content-Type", "").startswith(
            "application/json"
        ):
            return response
        error = error_for_status(response.status_code)
        shaped = JsonResponse(api_error(error), status=response.status_code)
        for header in KEPT_HEADERS:
            if header in response:
                shaped[header] = response[header]
        return shaped

    return middleware
