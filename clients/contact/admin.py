"""The contact profile on the client's admin page."""

from django.contrib import admin
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from clients.admin.client_pages import back_to_client, client_page_context
from clients.contact import selectors
from clients.contact.views import contact_form_saved
from clients.contact.wording import (
    change_lines,
    channels_in_words,
    hours_in_words,
    reminder_waits_for_staff,
)
from clients.models import Client
from practice.refusals import form_refused
from practice.requests import acting_user, parse_id


def contact_summary(client: Client) -> SafeString:
    """The profile as staff read it on the client's page."""
    profile = selectors.contact_profile_of(client)
    return SafeString(  # nosec B703 (a rendered template, escaped as it rendered)
        render_to_string(
            "admin/clients/partials/contact_summary.html",
            {
                "client": client,
                "profile": profile,
                "channels": channels_in_words(profile),
                "hours": hours_in_words(profile),
                "recheck": selectors.contact_recheck(profile),
                "reminder_waits": reminder_waits_for_staff(profile),
                "changes": change_lines(selectors.contact_changes(client=client), viewer=None),
            },
        )
    )


def contact_edit_page(
    model_admin: "admin.ModelAdmin[Client]", request: HttpRequest, object_id: str
) -> HttpResponse:
    """Set the profile with the client, saving it as checked today; another's client is a 404."""
    user = acting_user(request)
    client_id = parse_id(object_id)
    client = (
        selectors.client_contact_for_staff(user=user, client_id=client_id) if client_id else None
    )
    if client is None:
        raise Http404
    profile = selectors.contact_profile_of(client)
    form, saved = contact_form_saved(request, actor=user, client=client, profile=profile)
    if saved:
        return back_to_client(
            model_admin,
            request,
            client,
            _("Contact preferences saved and marked as checked with %(client)s today."),
        )
    context = client_page_context(
        model_admin,
        request,
        client,
        _("How we may contact %(client)s"),
        profile=profile,
        form=form,
    )
    status = 400 if form.errors else 200
    response = TemplateResponse(
        request, "admin/clients/client/contact.html", context, status=status
    )
    return form_refused(request, response)
