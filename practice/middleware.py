from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers

Handler = Callable[[HttpRequest], HttpResponse]


def private_pages_middleware(get_response: Handler) -> Handler:
    """A shared device must not show a client's page from cache after they leave."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        add_never_cache_headers(response)
        response["Cache-Control"] = "no-store, no-cache, must-revalidate, private, max-age=0"
        return response

    return middleware


ONE_ENTRY_HEADER = "X-One-Entry"
ONE_ENTRY_LOCATION = "X-Location"


def one_entry_middleware(get_response: Handler) -> Handler:
    """A form sent by static/js/one-entry.js learns where its redirect leads
    without following it, so the page can replace itself there: the portal
    keeps to one entry in the browser's history, and Back after a quick exit
    reaches what came before it."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        asked = request.method == "POST" and request.headers.get(ONE_ENTRY_HEADER) == "1"
        if asked and 300 <= response.status_code < 400 and response.has_header("Location"):
            # Changed in place, so the session's and the form token's cookies go too.
            response[ONE_ENTRY_LOCATION] = response["Location"]
            del response["Location"]
            response.status_code = 204
            response.content = b""
        return response

    return middleware


def method_not_allowed_page_middleware(get_response: Handler) -> Handler:
    """Django's bare 405 has no quick exit and no crisis lines."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if isinstance(response, HttpResponseNotAllowed) and not response.content:
            page = render(request, "405.html", status=405)
            page["Allow"] = response["Allow"]
            return page
        return response

    return middleware


# No inline scripts; inline styles for the admin's widgets; no form-action (the quick exit).
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors {ancestors}",
    ]
)


def content_security_policy_middleware(get_response: Handler) -> Handler:
    """Pages only: some browsers' PDF viewers are themselves blocked by a policy."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if response.get("Content-Type", "").startswith("text/html"):
            same_origin = response.get("X-Frame-Options", "").upper() == "SAMEORIGIN"
            response.setdefault(
                "Content-Security-Policy",
                CONTENT_SECURITY_POLICY.format(ancestors="'self'" if same_origin else "'none'"),
            )
        return response

    return middleware
