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
# Where signing in leads: kept in the session, not in the sign-in page's
# address ("/login/?next=/history/"). After the quick exit or signing out,
# Back opens the page the client was on and is sent to sign in: that address
# would tell whoever holds the device what they had just been reading.
PAGE_AFTER_SIGN_IN = "page_after_sign_in"
# Set on a request from an archived client that ``takes_posts_when_archived`` lets through.
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
    """The portal is for clients; staff go to the admin.

    A client their therapist archived has an archived client: only the views
    marked ``allow_archived`` stay open to them (its closed page, their
    download, their password, signing out). Any other page sends them there,
    and any other post changes nothing and says why: a bare "forbidden" would
    be an alarming dead end for someone whose therapy has ended. This only
    refuses; it writes nothing. A view that takes a client's words marks
    itself ``takes_posts_when_archived``: such a post reaches it with
    ``is_archived_post`` true, and the view keeps the words through a
    service, then answers with ``archived_page``.
    """

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
            # Dates on the portal are the client's own local dates and times.
            with timezone.override(client.timezone):
                return view(request, *args, **kwargs)

        return wrapper

    return decorate if view is None else decorate(view)


def _to_sign_in(request: HttpRequest) -> HttpResponse:
    # Only where the browser itself is going: a script's request while signed
    # out (send-guard.js checking the session, an autosave) is not a page the
    # client was headed for, and a sign-in in another tab would land there.
    if request.headers.get("Sec-Fetch-Mode", "navigate") == "navigate":
        request.session[PAGE_AFTER_SIGN_IN] = _back_after_sign_in(request)
    return redirect(settings.LOGIN_URL)


def page_after_sign_in(request: HttpRequest) -> str | None:
    """The page a visit while signed out asked for, once: the sign-in takes it."""
    page = request.session.pop(PAGE_AFTER_SIGN_IN, None)
    if page and url_has_allowed_host_and_scheme(
        page, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return str(page)
    return None


def _back_after_sign_in(request: HttpRequest) -> str:
    """Where signing in again leads: the page asked for or, for a form sent
    once the session had ended, the page the form was on (the pages send
    their address to their own site), else home. Not the form's own address:
    most take only posts, and the visit back would be told "not allowed"."""
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
    """Whether this post, let through by ``takes_posts_when_archived``, is
    from a client whose notebook is closed: it changes nothing but the words kept."""
    return bool(getattr(request, NOTEBOOK_CLOSED, False))


def archived_page(request: HttpRequest, *, kept: bool) -> HttpResponse:
    """The answer to a client whose notebook is closed: a visit goes to its
    closed page; a post is refused, saying whether its words were ``kept``."""
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
        # What the autosave script shows as a refusal, with the words left on
        # the page; "kept" tells it not to say "not saved" (static/js/autosave.js).
        return JsonResponse({"errors": {"__all__": [message]}, "kept": kept}, status=400)
    messages.info(request, message)
    return redirect("clients:closed")
