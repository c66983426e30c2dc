"""The PDF download of a long notebook."""

import uuid

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from clients.decorators import client_required
from clients.selectors import client_for_portal_user
from homework import export
from homework.models import PreparedDownload
from homework.portal.export_views import chosen_or_refused, pdf_download
from homework.services import downloads
from practice.requests import AuthedRequest


@require_POST
@client_required(allow_archived=True)
def download_ask(request: AuthedRequest) -> HttpResponse:
    """A short notebook downloads at once, as it always did."""
    chosen, form = chosen_or_refused(request, request.POST)
    if isinstance(chosen, HttpResponse):
        return chosen
    if not form.choice_takes_a_while():
        return pdf_download(export.export_pdf(user=request.user, assignment_ids=chosen))
    client = client_for_portal_user(user=request.user, include_archived=True)
    assert client is not None  # client_required found them
    downloads.download_start(client=client, assignment_ids=chosen)
    return redirect("homework:download_progress")


def _status(download: PreparedDownload | None) -> dict[str, object]:
    if download is None:
        return {"state": "none", "pages": 0, "message": _("There is no download waiting.")}
    state = download.shown_state(timezone.now())
    message = {
        PreparedDownload.State.PREPARING: ngettext(
            "Your PDF is being put together: %(pages)s page so far.",
            "Your PDF is being put together: %(pages)s pages so far.",
            download.pages,
        )
        % {"pages": download.pages}
        if download.pages
        else _("Your PDF is being put together."),
        PreparedDownload.State.READY: _("Your PDF is ready."),
        PreparedDownload.State.FAILED: _(
            "Your PDF could not be finished this time. Nothing you wrote is lost."
        ),
    }[PreparedDownload.State(state)]
    return {
        "state": state,
        "pages": download.pages,
        "message": message,
        "fetch_url": reverse("homework:download_fetch", args=[download.key])
        if state == PreparedDownload.State.READY
        else "",
    }


@never_cache
@require_GET
@client_required(allow_archived=True)
def download_progress(request: AuthedRequest) -> HttpResponse:
    download = downloads.prepared_download_for(user=request.user)
    return render(
        request,
        "homework/download.html",
        {"download": download, "status": _status(download)},
    )


@never_cache
@require_GET
@client_required(allow_archived=True)
def download_status(request: AuthedRequest) -> JsonResponse:
    return JsonResponse(_status(downloads.prepared_download_for(user=request.user)))


@require_POST
def download_fetch(request: AuthedRequest, key: uuid.UUID) -> HttpResponse:
    """404 to anyone but the client whose download it is, staff included."""
    if not request.user.is_authenticated or request.user.is_staff:
        raise Http404
    client = client_for_portal_user(user=request.user, include_archived=True)
    if client is None:
        raise Http404
    with timezone.override(client.timezone):  # the file's name is the client's day
        body = downloads.download_take(user=request.user, key=key)
        if body is None:
            raise Http404
        return pdf_download(body)
