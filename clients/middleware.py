"""Sessions end on the server: a client may leave a shared device mid-sentence."""

import time
from collections.abc import Callable
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import Resolver404, resolve, reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language_from_request

from clients.languages import person_language
from clients.services.access_log import looks_noted, looks_record
from practice.languages import in_language
from practice.roles import is_acting_staff
from practice.selectors import practice_settings

Handler = Callable[[HttpRequest], HttpResponse]

STARTED_AT = "portal_started_at"
LAST_SEEN = "portal_last_seen"
# Not a session write per page: a minute's slack on a 15-minute timeout is fine.
TOUCH_EVERY_SECONDS = 30


def idle_seconds() -> int:
    return practice_settings().idle_timeout_minutes * 60


def _view_leaves_for_the_neutral_site(request: HttpRequest) -> bool:
    try:
        view = resolve(request.path_info).func
    except Resolver404:
        return False
    return bool(getattr(view, "leaves_for_the_neutral_site", False))


def start_portal_session(request: HttpRequest) -> None:
    now = time.time()
    request.session[STARTED_AT] = now
    request.session[LAST_SEEN] = now


def portal_session_middleware(get_response: Handler) -> Handler:
    def middleware(request: HttpRequest) -> HttpResponse:
        user = request.user
        if user.is_authenticated and getattr(user, "is_client", False):
            now = time.time()
            session = request.session
            started = float(session.get(STARTED_AT) or now)
            last_seen = float(session.get(LAST_SEEN) or now)
            if now - last_seen > idle_seconds():
                return _ended(request, "idle", get_response)
            if now - started > settings.PORTAL_SESSION_MAX_AGE:
                return _ended(request, "limit", get_response)
            if STARTED_AT not in session:
                session[STARTED_AT] = started
            if now - last_seen >= TOUCH_EVERY_SECONDS or LAST_SEEN not in session:
                session[LAST_SEEN] = now
        return get_response(request)

    return middleware


def leaves_for_the_neutral_site(view: Handler) -> Handler:
    """The quick exit always answers, so leaving reaches the neutral site, not the sign-in page."""
    view.leaves_for_the_neutral_site = True  # type: ignore[attr-defined]
    return view


def _ended(request: HttpRequest, why: str, get_response: Handler) -> HttpResponse:
    logout(request)
    if _view_leaves_for_the_neutral_site(request):
        return get_response(request)
    if request.headers.get("Accept", "").startswith("application/json"):
        return JsonResponse({"signed_out": True}, status=401)
    return redirect(f"{reverse('clients:login')}?{urlencode({'ended': why})}")


STAFF_LAST_SEEN = "staff_last_seen"


def staff_idle_seconds() -> int:
    return practice_settings().staff_idle_timeout_minutes * 60


def start_staff_session(request: HttpRequest) -> None:
    request.session[STAFF_LAST_SEEN] = time.time()


def staff_session_middleware(get_response: Handler) -> Handler:
    """An unverified staff session ends here, so no page or route has to check a second factor."""

    def middleware(request: HttpRequest) -> HttpResponse:
        user = request.user
        if user.is_authenticated and not getattr(user, "is_client", True):
            verified = getattr(user, "is_verified", None)
            if not (callable(verified) and verified()):
                logout(request)
                return get_response(request)
            now = time.time()
            session = request.session
            last_seen = float(session.get(STAFF_LAST_SEEN) or now)
            if now - last_seen > staff_idle_seconds():
                logout(request)
                return redirect(f"{reverse('admin:login')}?{urlencode({'ended': 'idle'})}")
            if now - last_seen >= TOUCH_EVERY_SECONDS or STAFF_LAST_SEEN not in session:
                session[STAFF_LAST_SEEN] = now
        return get_response(request)

    return middleware


def looks_middleware(get_response: Handler) -> Handler:
    """Around the API's sign-in too: DRF puts a token's user on the request in the view."""

    def middleware(request: HttpRequest) -> HttpResponse:
        with looks_noted() as looks:
            response = get_response(request)
            user = request.user
            shown = not 300 <= response.status_code < 400
            if shown and is_acting_staff(user):
                looks_record(actor=user, looks=looks, path=request.path)
        return response

    return middleware


def language_middleware(get_response: Handler) -> Handler:
    """The person's own language once signed in; before, the browser's. Never in the URL."""

    def middleware(request: HttpRequest) -> HttpResponse:
        user = request.user
        signed_in = user.is_authenticated
        asked = person_language(user) if signed_in else get_language_from_request(request)
        with in_language(asked) as language:
            request.LANGUAGE_CODE = language
            response = get_response(request)
        if not signed_in:
            patch_vary_headers(response, ("Accept-Language",))
        response.setdefault("Content-Language", language)
        return response

    return middleware
