"""Settings → "How we may contact you"."""

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clients import services
from clients.contact import selectors
from clients.contact.forms import ContactProfileForm
from clients.contact.wording import change_lines, promise_in_words, reminder_waits
from clients.decorators import client_required
from clients.models import Client, ContactProfile
from practice.models import User
from practice.refusals import form_refused
from practice.requests import AuthedRequest


@require_http_methods(["GET", "POST"])
@client_required
def contact_page(request: AuthedRequest) -> HttpResponse:
    client = selectors.client_contact_for_portal(user=request.user)
    assert client is not None  # client_required let only an active client through
    profile = selectors.contact_profile_of(client)
    form, saved = contact_form_saved(request, actor=request.user, client=client, profile=profile)
    if saved:
        messages.success(request, _("Saved, and noted as checked by you today."))
        return redirect("clients:contact")
    context: dict[str, Any] = {
        "form": form,
        "profile": profile,
        "promise": promise_in_words(profile),
        "reminder_waits": reminder_waits(profile),
        "changes": change_lines(selectors.contact_changes(client=client), viewer=request.user),
    }
    status = 400 if form.errors else 200
    return form_refused(request, render(request, "clients/contact.html", context, status=status))


def contact_form_saved(
    request: HttpRequest, *, actor: User, client: Client, profile: ContactProfile
) -> tuple[ContactProfileForm, bool]:
    """The profile form both sides show, and whether a POST saved it; refusals show on the form."""
    form = ContactProfileForm(initial=ContactProfileForm.initial_from(profile))
    if request.method != "POST":
        return form, False
    form = ContactProfileForm(request.POST, initial=form.initial)
    if not form.is_valid():
        return form, False
    try:
        services.contact_profile_update(actor=actor, client=client, **form.for_service())
    except ValidationError as refused:
        form.take_refusal(refused)
        return form, False
    return form, True


@require_POST
@client_required(allow_archived=True)
def contact_turn_off(request: AuthedRequest) -> HttpResponse:
    """Every message off, in one step; open to an archived client too."""
    client = selectors.client_contact_for_portal(user=request.user, include_archived=True)
    assert client is not None
    services.contact_profile_turn_off(actor=request.user, client=client)
    messages.success(
        request,
        _("Every message is off. We will not contact you by email or text until you turn one on."),
    )
    return redirect(
        "clients:contact" if client.status == client.Status.ACTIVE else "clients:closed"
    )
