"""A manager's "Export and erase" page on a client (homework.services.erasure). Anyone but the
practice manager gets a 404, as for a client that is not there."""

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clients.admin.client_pages import client_page_context
from clients.models import Client
from clients.selectors import client_for_erasure
from homework import export
from homework.selectors import client_records_fingerprint, erasure_counts
from homework.services.erasure import (
    ClientAlreadyErased,
    ClientChangedSinceShown,
    client_erase,
    client_export_record,
)
from practice.models import User
from practice.refusals import form_refused
from practice.requests import acting_user, parse_id

if TYPE_CHECKING:
    AdminOf = admin.ModelAdmin[Any]
else:
    AdminOf = object

CHANGED_SINCE_SHOWN = gettext_lazy(
    "These records changed after this page opened (something new was written, or someone "
    "else acted on them), so the export you saved may not hold everything. Nothing was "
    "erased. Reload the page, download the export again, then confirm."
)


class ErasureForm(forms.Form):
    """Typing the client's name and ticking that the export is saved, so no slip erases anyone."""

    name = forms.CharField(
        label=gettext_lazy("Type the client's name as shown above"),
        max_length=200,
        error_messages={
            "required": gettext_lazy("Type the client's name to confirm."),
            "max_length": gettext_lazy("That is longer than the client's name."),
        },
    )
    export_saved = forms.BooleanField(
        label=gettext_lazy("I have saved the export, or the practice does not need it"),
        error_messages={"required": gettext_lazy("Tick this once the export is saved.")},
    )
    fingerprint = forms.CharField(widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args: Any, client: Client, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.client = client

    def clean_name(self) -> str:
        typed: str = self.cleaned_data["name"]
        if (
            " ".join(typed.split()).casefold()
            != " ".join(self.client.display_name.split()).casefold()
        ):
            raise forms.ValidationError(
                _("That is not the name shown above. Nothing was erased."), code="name"
            )
        return typed


def _client_or_404(request: HttpRequest, object_id: str) -> Client:
    client_id = parse_id(object_id)
    client = (
        client_for_erasure(user=acting_user(request), client_id=client_id) if client_id else None
    )
    if client is None:
        raise Http404
    return client


def _already_erased(request: HttpRequest) -> HttpResponse:
    messages.info(
        request, _("This client's records have already been erased. Nothing more was done.")
    )
    return HttpResponseRedirect(reverse("admin:clients_client_changelist"))


def erase_page(model_admin: AdminOf, request: HttpRequest, object_id: str) -> HttpResponse:
    if request.method not in ("GET", "POST"):
        return HttpResponseNotAllowed(["GET", "POST"])
    client = _client_or_404(request, object_id)
    if client.status == Client.Status.ERASED:
        return _already_erased(request)
    if request.method == "POST":
        form = ErasureForm(request.POST, client=client)
        if form.is_valid():
            try:
                client_erase(
                    actor=acting_user(request),
                    client_id=client.pk,
                    fingerprint=form.cleaned_data["fingerprint"],
                )
            except ClientAlreadyErased:
                return _already_erased(request)
            except ClientChangedSinceShown:
                form.add_error(None, str(CHANGED_SINCE_SHOWN))
            else:
                # Without the name: a message may wait in the session's row.
                messages.success(
                    request,
                    _(
                        "The client's records are erased. Only the access log's lines are "
                        "kept: who looked, when, and what kind of look."
                    ),
                )
                return HttpResponseRedirect(reverse("admin:clients_client_changelist"))
        # Drawn with its original fingerprint: a refused confirmation stays refused until reload.
        fingerprint = request.POST.get("fingerprint", "")
    else:
        fingerprint = client_records_fingerprint(client_id=client.pk)
        form = ErasureForm(client=client, initial={"fingerprint": fingerprint})
    context = client_page_context(
        model_admin,
        request,
        client,
        _("Export and erase %(client)s"),
        counts=erasure_counts(client=client),
        form=form,
    )
    status = 400 if request.method == "POST" else 200
    return form_refused(
        request,
        TemplateResponse(request, "admin/clients/client/erase.html", context, status=status),
    )


def export_json(model_admin: AdminOf, request: HttpRequest, object_id: str) -> HttpResponse:
    def as_json(user: User, client: Client) -> bytes:
        data = export.practice_export_json(user=user, client=client)
        return json.dumps(data, ensure_ascii=False, indent=2).encode()

    return _export(
        request,
        object_id,
        make=as_json,
        what="Records before erasure (JSON)",
        content_type="application/json",
        extension="json",
    )


def export_pdf(model_admin: AdminOf, request: HttpRequest, object_id: str) -> HttpResponse:
    return _export(
        request,
        object_id,
        make=lambda user, client: export.practice_export_pdf(user=user, client=client),
        what="Records before erasure (PDF)",
        content_type="application/pdf",
        extension="pdf",
    )


def _export(
    request: HttpRequest,
    object_id: str,
    *,
    make: Callable[[User, Client], bytes],
    what: str,
    content_type: str,
    extension: str,
) -> HttpResponse:
    """The practice's copy of a client's records, as one download, recorded as made."""
    if request.method != "GET":
        return HttpResponseNotAllowed(["GET"])
    client = _client_or_404(request, object_id)
    if client.status == Client.Status.ERASED:
        return _already_erased(request)
    user = acting_user(request)
    body = make(user, client)
    client_export_record(actor=user, client=client, what=what)
    # Named by number, not by name: downloads folders are seen by others too.
    name = f"client-{client.pk}-records-{timezone.localdate():%Y-%m-%d}.{extension}"
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
