"""The quick exit: leave at once, and keep what the client was typing."""

import logging

from django.contrib.auth import logout
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    QueryDict,
    UnreadablePostError,
)
from django.middleware.csrf import CsrfViewMiddleware
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from clients.views.sign_in import CLEAR_SITE_DATA
from homework.portal.doing import save_draft_from_post, save_edit_from_post, save_note_from_post
from practice.models import User
from practice.requests import parse_id
from practice.selectors import practice_settings

logger = logging.getLogger(__name__)


@csrf_exempt
@require_http_methods(["GET", "POST"])
def quick_exit(request: HttpRequest) -> HttpResponse:
    """End the session and leave for the practice's neutral site.

    The page's script calls this with a beacon (``beacon=1``) while it
    replaces itself with the neutral site; without script, the button is a
    plain form post and we redirect there ourselves. The address typed or
    followed (a GET) leaves too: leaving is never refused, not even for a
    stale security token (a page open from before a sign-in in another tab),
    which the middleware would refuse while the screen had already gone.
    Only a post that carries a valid token may save a last draft on the way.
    """
    if request.method == "POST" and _body_is_readable(request) and _carries_a_valid_token(request):
        _save_draft_on_the_way_out(request)
    logout(request)
    if request.POST.get("beacon"):
        response = HttpResponse(status=204)
    else:
        response = HttpResponseRedirect(practice_settings().quick_exit_url)
    response["Clear-Site-Data"] = CLEAR_SITE_DATA
    return response


def _body_is_readable(request: HttpRequest) -> bool:
    """Whether the post can be read at all. A last draft over the server's
    limits (DATA_UPLOAD_MAX_MEMORY_SIZE, DATA_UPLOAD_MAX_NUMBER_FIELDS) raised
    here and drew the "could not read" page, and the session went on while the
    screen had already gone to the neutral site. Such a draft is dropped (the
    autosave has what came before it); leaving goes ahead. After a refused
    read, request.POST is empty, so nothing below reads the body again."""
    try:
        request.POST  # noqa: B018 (parsed here, once, to see whether it can be)
    except (RequestDataTooBig, TooManyFieldsSent, UnreadablePostError):
        logger.warning("A quick exit's last draft could not be read; signing out without it.")
        return False
    return True


class _TokenCheck(CsrfViewMiddleware):
    """Django's own security-token check, answering only yes or no: a stale
    token here is refused nothing, so it must not draw the refusal page (whose
    form sets a fresh token cookie on the way out) nor log "Forbidden" in the
    security log. Django REST framework's CSRFCheck does the same."""

    def _reject(self, request: HttpRequest, reason: str) -> HttpResponse:
        return HttpResponse(status=403)


def _carries_a_valid_token(request: HttpRequest) -> bool:
    """Asked here because the view is exempt from the middleware's check: it
    refuses nothing, it only decides about the draft."""
    check = _TokenCheck(lambda request: HttpResponse())
    return check.process_view(request, lambda request: HttpResponse(), (), {}) is None


def _save_draft_on_the_way_out(request: HttpRequest) -> None:
    """Keep what the client typed in the last moment before the quick exit.

    Best effort and silent: leaving must never be slowed or stopped by it.
    """
    user = request.user
    if not (isinstance(user, User) and user.is_client and "draft-key" in request.POST):
        return
    draft = request.POST.copy()
    fields = {
        name.removeprefix("draft-"): draft.getlist(name)
        for name in draft
        if name.startswith("draft-")
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
    try:
        if noting:
            save_note_from_post(user=user, post=data)
        elif editing:
            save_edit_from_post(user=user, post=data)
        else:
            save_draft_from_post(user=user, assignment_id=assignment_id, post=data)
    except Exception:
        logger.warning("Could not keep a draft on quick exit.", exc_info=True)
