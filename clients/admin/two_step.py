"""Turning off a client's two-step sign-in when their phone and recovery codes are gone."""

from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from clients import selectors, services
from clients.admin.client_pages import back_to_client, client_page_context
from clients.models import Client
from practice.admin_access import not_found
from practice.refusals import form_refused
from practice.requests import acting_user, parse_id


def two_step_line(client: Client) -> SafeString:
    """On the client's page: whether they sign in in two steps, and how to turn it off."""
    account = client.portal_user
    if account is None or not selectors.has_two_step(user=account):
        return SafeString("")
    url = reverse("admin:clients_client_two_step_off", args=[client.pk])
    return format_html(
        '<br>{} <a href="{}">{}</a>',
        _("They sign in in two steps (a code from an app on their phone)."),
        url,
        _("Lost their phone? Turn it off for them"),
    )


def two_step_off_page(
    model_admin: "admin.ModelAdmin[Client]", request: HttpRequest, object_id: str
) -> HttpResponse:
    """Confirm, then turn the client's two-step sign-in off (a POST only)."""
    client_id = parse_id(object_id)
    client = model_admin.get_object(request, object_id) if client_id else None
    if client is None or client_id is None:
        return not_found(model_admin, request, object_id)
    error = ""
    if request.method == "POST":
        try:
            services.client_two_step_reset(actor=acting_user(request), client_id=client_id)
        except (PermissionDenied, ValidationError) as refused:
            error = " ".join(getattr(refused, "messages", None) or [str(refused)])
        else:
            return back_to_client(
                model_admin,
                request,
                client,
                _(
                    "Two-step sign-in is off for %(client)s, and they are signed out on every "
                    "device. They sign in with their password next time, and are asked to set "
                    "it up again."
                ),
            )
    context = client_page_context(
        model_admin,
        request,
        client,
        _("Turn off two-step sign-in for %(client)s?"),
        error=error,
        two_step_on=client.portal_user is not None
        and selectors.has_two_step(user=client.portal_user),
    )
    response = TemplateResponse(
        request,
        "admin/clients/client/two_step_off.html",
        context,
        status=400 if error else 200,
    )
    return form_refused(request, response)
