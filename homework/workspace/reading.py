"""The therapist marks entries as read: one button on "Since last session"
and one on an entry, both posting here. Opening a page never does it."""

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clients.models import Client
from homework import selectors, services
from homework.models import Entry
from homework.workspace.forms import shown_versions
from practice.admin_access import not_found
from practice.bidi import isolated_text
from practice.requests import acting_user

if TYPE_CHECKING:
    from practice.models import User

    AdminOf = admin.ModelAdmin[Any]
else:
    AdminOf = admin.ModelAdmin


def to_mark_read(user: "User", client: Client, entries: Iterable[Entry]) -> list[Entry]:
    """The entries of ``client`` a page shows that its "Mark as read" button would read: shared,
    unread, and only for the client's own therapist."""
    if not selectors.is_their_therapist(user=user, client=client):
        return []
    unread = {
        entry.pk: entry for entry in entries if entry.seen_at is None and entry.readable_by_staff
    }
    return list(unread.values())


def back_to(request: HttpRequest, fallback: str) -> str:
    """Where the button's page was, if it is one of the admin's own."""
    target = request.POST.get("next", "")
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if allowed and target.startswith(reverse("admin:index")) else fallback


def mark_read(model_admin: AdminOf, request: HttpRequest, object_id: str) -> HttpResponse:
    """Mark exactly the entries the page showed as read, then say what changed, or why not."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    user = acting_user(request)
    try:
        client = selectors.staff_client(user=user, client_id=object_id)
    except (Client.DoesNotExist, ValueError, ValidationError):
        return not_found(model_admin, request, object_id)
    back = back_to(request, reverse("admin:clients_client_since_last_session", args=[client.pk]))
    shown = shown_versions(request.POST.getlist("entry"))
    if shown is None:
        messages.error(request, _("This request was not understood. Nothing was marked as read."))
        return HttpResponseRedirect(back)
    try:
        read = services.entries_mark_read(user=user, client=client, shown=shown, now=timezone.now())
    except (PermissionDenied, ValidationError) as refused:
        for message in getattr(refused, "messages", [str(refused)]):
            messages.error(request, message)
        return HttpResponseRedirect(back)
    name = isolated_text(client.display_name)
    if read:
        messages.success(
            request,
            ngettext(
                "Marked %(count)d entry as read. %(client)s can no longer change it.",
                "Marked %(count)d entries as read. %(client)s can no longer change them.",
                len(read),
            )
            % {"count": len(read), "client": name},
        )
    else:
        messages.info(request, _("These entries were already marked as read."))
    return HttpResponseRedirect(back)
