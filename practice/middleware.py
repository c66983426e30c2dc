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
