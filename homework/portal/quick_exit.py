"""The quick exit: leave at once, and keep what the client was typing."""

import logging
import re

from django.conf import settings
from django.contrib.auth import logout
from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.middleware.csrf import CsrfViewMiddleware
from django.views.decorators.csrf import csrf_exempt

from clients.middleware import leaves_for_the_neutral_site
from clients.views.sign_in import CLEAR_SITE_DATA
from homework.portal.doing import save_draft_from_post, save_edit_from_post, save_note_from_post
from practice.models import PracticeSettings, User
from practice.requests import parse_id
from practice.selectors import practice_settings

logger = logging.getLogger(__name__)


@leaves_for_the_neutral_site
@csrf_exempt
def quick_exit(request: HttpRequest) -> HttpResponse:
    """Leaving is never refused; only a post with a valid token may save a last draft."""
    leaving_by_script = False
    if request.method == "POST" and _body_is_readable(request):
        leaving_by_script = bool(request.POST.get("beacon"))
    _end_the_session(request)  # which keeps the words carried first (keep_the_words_carried)
    if leaving_by_script:
        response = HttpResponse(status=204)
    else:
        response = HttpResponseRedirect(_neutral_url())
    response["Clear-Site-Data"] = CLEAR_SITE_DATA
    # For a browser that ignores Clear-Site-Data: the session cookie goes by its own name too.
    response.delete_cookie(
        settings.SESSION_COOKIE_NAME,
        path=settings.SESSION_COOKIE_PATH,
        domain=settings.SESSION_COOKIE_DOMAIN,
    )
    return response


@receiver(user_logged_out)
def keep_the_words_carried(sender: object, request: HttpRequest | None, **kwargs: object) -> None:
    """The drafts a request that ends the session carries ("draft-" fields), kept
    before it ends: the quick exit's, and a sign-out's that could wait no longer for a save."""
    if request is None or request.method != "POST":
        return
    try:
        if not (_body_is_readable(request) and any(map(_DRAFT_PREFIX.match, request.POST))):
            return  # nothing carried: no token to check
        if _carries_a_valid_token(request):
            _save_draft_on_the_way_out(request)
    except Exception:  # keeping the words is best effort; leaving is not
        logger.warning("Could not keep a draft on quick exit.", exc_info=True)


def _end_the_session(request: HttpRequest) -> None:
    try:
        logout(request)
    except Exception:  # the session store down: the cookie is still cleared below
        logger.error("The quick exit could not end a session on the server.", exc_info=True)


def _neutral_url() -> str:
    try:
        return practice_settings().quick_exit_url
    except Exception:
        logger.error("The quick exit could not read the practice's settings.", exc_info=True)
        return str(PracticeSettings._meta.get_field("quick_exit_url").default)


def _body_is_readable(request: HttpRequest) -> bool:
    try:
        request.POST  # noqa: B018 (parsed here, once, to see whether it can be)
    except Exception:
        logger.warning("A quick exit's last draft could not be read; signing out without it.")
        return False
    return True


class _TokenCheck(CsrfViewMiddleware):
    """Yes or no only: a stale token must not draw the refusal page nor log "Forbidden"."""

    def _reject(self, request: HttpRequest, reason: str) -> HttpResponse:
        return HttpResponse(status=403)


def _carries_a_valid_token(request: HttpRequest) -> bool:
    """Asked here as the view is exempt from the middleware's check."""
    check = _TokenCheck(lambda request: HttpResponse())
    return check.process_view(request, lambda request: HttpResponse(), (), {}) is None


# The exiting tab's draft is "draft-"; other open tabs' words follow as "draft2-", "draft3-"...
_DRAFT_PREFIX = re.compile(r"^draft\d*-")


def _save_draft_on_the_way_out(request: HttpRequest) -> None:
    """Best effort, each draft on its own: one that fails is logged, the others kept."""
    user = request.user
    if not (isinstance(user, User) and user.is_client):
        return
    prefixes = {match.group(0) for name in request.POST if (match := _DRAFT_PREFIX.match(name))}
    for prefix in sorted(prefixes, key=len):
        if f"{prefix}key" not in request.POST:
            continue
        try:
            _save_one_draft(user, request.POST, prefix)
        except Exception:  # keeping the words is best effort; leaving is not
            logger.warning("Could not keep a draft on quick exit.", exc_info=True)


def _save_one_draft(user: User, post: QueryDict, prefix: str) -> None:
    fields = {
        name.removeprefix(prefix): post.getlist(name) for name in post if name.startswith(prefix)
    }
    editing = fields.pop("edit", None) is not None
    # A note being added to a sent entry (its form has no autosave).
    noting = fields.pop("note", None) is not None
    assignment_id = 0 if editing else parse_id(fields.pop("assignment", [""])[0])
    if assignment_id is None:
        return
    data = QueryDict(mutable=True)
    for name, values in fields.items():
        data.setlist(name, values)
    if noting:
        save_note_from_post(user=user, post=data)
    elif editing:
        save_edit_from_post(user=user, post=data)
    else:
        save_draft_from_post(user=user, assignment_id=assignment_id, post=data)
