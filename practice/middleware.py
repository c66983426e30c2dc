from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
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
