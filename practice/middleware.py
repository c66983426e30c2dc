from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers

Handler = Callable[[HttpRequest], HttpResponse]


def private_pages_middleware(get_response: Handler) -> Handler:
    """Keep every page out of every cache, the browser's Back included.

    A shared device must not show a client's page from cache after they
    leave, and pages before sign-in hold their details too (the invitation
    page shows their email). ``no-store`` also keeps the page out of Chrome's
    back/forward cache. Static files never reach here (WhiteNoise serves
    them first, cached as they should be).
    """

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        add_never_cache_headers(response)
        response["Cache-Control"] = "no-store, no-cache, must-revalidate, private, max-age=0"
        return response

    return middleware


def method_not_allowed_page_middleware(get_response: Handler) -> Handler:
    """Give a 405 the portal's calm error page.

    Django's ``require_POST`` (and the admin's POST-only views) answer a GET
    with an empty 405, which browsers show as their own bare error page: no
    quick exit, no crisis lines. This happens when a POST-only address is
    followed, typed or reloaded. Responses with a body of their own (the
    API's JSON) are left as they are.
    """

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if isinstance(response, HttpResponseNotAllowed) and not response.content:
            page = render(request, "405.html", status=405)
            page["Allow"] = response["Allow"]
            return page
        return response

    return middleware


# Scripts, fonts, images and frames come only from this site; nothing may be
# embedded or framed by another. Inline <script> and on…= attributes are not
# allowed (tests/practice/test_security_headers.py keeps the templates free of
# them); inline styles are, for Django's admin widgets and the preview frame.
# No form-action: the quick exit's plain post redirects to the neutral site,
# which Chrome would then block.
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
    """Keep a script that slipped into a page (through a client's words or a
    therapist's) from running, and other sites from framing ours.

    Pages only (``text/html``): a PDF opened inline gets none, as some
    browsers' PDF viewers are themselves blocked by a policy. A view marked
    ``xframe_options_sameorigin`` (the assignment preview) may be framed by
    the admin; everything else by nothing.
    """

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
