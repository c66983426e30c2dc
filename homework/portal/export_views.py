"""Taking your records with you: the client's download, as JSON or as a PDF."""

import json

from django.http import HttpResponse, QueryDict
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from clients.decorators import client_required
from clients.views.account import account_page
from homework import export
from homework import selectors as homework_selectors
from homework.portal.export_forms import ExportChoiceForm
from practice.refusals import form_refused
from practice.requests import AuthedRequest


def _download(body: bytes, *, content_type: str, extension: str) -> HttpResponse:
    # A neutral file name: downloads folders are seen by others too.
    name = f"notebook-{timezone.localdate():%Y-%m-%d}.{extension}"
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@require_GET
@client_required(allow_archived=True)
def export_json(request: AuthedRequest) -> HttpResponse:
    body = json.dumps(export.export_json(user=request.user), ensure_ascii=False, indent=2)
    return _download(body.encode(), content_type="application/json", extension="json")


def pdf_download(body: bytes) -> HttpResponse:
    return _download(body, content_type="application/pdf", extension="pdf")


def chosen_or_refused(
    request: AuthedRequest, data: QueryDict
) -> tuple[list[int] | None | HttpResponse, ExportChoiceForm]:
    assignments = homework_selectors.assignments_for_export(user=request.user)
    if not ExportChoiceForm.is_submitted(data):
        return None, ExportChoiceForm(assignments=assignments)
    form = ExportChoiceForm(data, assignments=assignments)
    if not form.is_valid():
        page = account_page(request, extra_context={"export_form": form}, status=400)
        return form_refused(request, page), form
    return form.chosen_ids(), form


@require_GET
@client_required(allow_archived=True)
def export_pdf(request: AuthedRequest) -> HttpResponse:
    chosen, form = chosen_or_refused(request, request.GET)
    if isinstance(chosen, HttpResponse):
        return chosen
    if form.choice_takes_a_while():
        return redirect(reverse("clients:account") + "#export-title")
    return pdf_download(export.export_pdf(user=request.user, assignment_ids=chosen))
