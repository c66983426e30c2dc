from collections.abc import Callable
from functools import wraps
from typing import Any, overload
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from clients.models import Client
from clients.selectors import client_for_portal_user

View = Callable[..., HttpResponse]
# Kept in the session, not in "?next=": that address would tell whoever holds the device
# what the client had just been reading.
PAGE_AFTER_SIGN_IN = "page_after_sign_in"
NOTEBOOK_CLOSED = "archived_page"


@overload
def client_required(view: View) -> View: ...


@overload
def client_required(
    *, allow_archived: bool = False, takes_posts_when_archived: bool = False
) -> Callable[[View], View]: ...


def client_required(
    view: View | None = None,
    *,
    allow_archived: bool = False,
    takes_posts_when_archived: bool = False,
) -> View | Callable[[View], View]:
    """The portal is for clients; an archived client is told why, not a bare "forbidden"."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            user = request.user
            if not user.is_authenticated:
                return _to_sign_in(request)
            if user.is_staff:
                return redirect("admin:index")
            client = client_for_portal_user(user=user, include_archived=True)
            if client is None:
                raise PermissionDenied
            closed = client.status == Client.Status.ARCHIVED and not allow_archived
            if closed and (request.method in ("GET", "HEAD") or not takes_posts_when_archived):
                return archived_page(request, kept=False)
            setattr(request, NOTEBOOK_CLOSED, closed)
            with timezone.override(client.timezone):
                return view(request, *args, **kwargs)

        return wrapper

    return decorate if view is None else decorate(view)


def _to_sign_in(request: HttpRequest) -> HttpResponse:
    # A script's request (an autosave) is not a page the client was headed for.
    if request.headers.get("Sec-Fetch-Mode", "navigate") == "navigate":
        request.session[PAGE_AFTER_SIGN_IN] = _back_after_sign_in(request)
    return redirect(settings.LOGIN_URL)


def page_after_sign_in(request: HttpRequest) -> str | None:
    page = request.session.pop(PAGE_AFTER_SIGN_IN, None)
    if page and url_has_allowed_host_and_scheme(
        page, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return str(page)
    return None


def _back_after_sign_in(request: HttpRequest) -> str:
    """For a form, the page it was on: most forms take only posts, so a visit would be refused."""
    if request.method in ("GET", "HEAD"):
        return request.get_full_path()
    page = request.headers.get("Referer", "")
    if url_has_allowed_host_and_scheme(
        page, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        parts = urlsplit(page)
        return parts.path + (f"?{parts.query}" if parts.query else "")
    return reverse("homework:dashboard")


def is_archived_post(request: HttpRequest) -> bool:
    return bool(getattr(request, NOTEBOOK_CLOSED, False))


def archived_page(request: HttpRequest, *, kept: bool) -> HttpResponse:
    if request.method in ("GET", "HEAD"):
        return redirect("clients:closed")
    answers_script = request.headers.get("Accept", "").startswith("application/json")
    if kept:
        message = _(
            "Your notebook with the practice is closed, so this cannot be sent. What you "
            "wrote is kept as an unsent draft, in “Download everything”."
        )
    elif answers_script:
        message = _(
            "Your notebook with the practice is closed, so this cannot be saved. Your words "
            "are still on this page: copy them somewhere safe before you leave it."
        )
    else:
        message = _("Your notebook with the practice is closed, so nothing was changed.")
    if answers_script:
        # "kept" tells static/js/autosave.js not to say "not saved".
        return JsonResponse({"errors": {"__all__": [message]}, "kept": kept}, status=400)
    messages.info(request, message)
    return redirect("clients:closed")
