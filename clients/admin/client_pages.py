"""The pages of the admin's own about one client (archive, contact, erase, print, …): their
context and the way back to the client's page, in one place."""

from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse

from clients.models import Client
from practice.bidi import isolated_text

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def with_name(message: "StrOrPromise", client: Client, **more: str) -> str:
    """``message``'s %(client)s filled with the client's name, kept in its own direction (and
    any ``more`` placeholders)."""
    return str(message) % {"client": isolated_text(client.display_name), **more}


def client_page_context(
    model_admin: Any, request: HttpRequest, client: Client, title: "StrOrPromise", **context: Any
) -> dict[str, Any]:
    """What every such page needs (the site's, the model's options, a title naming the
    client), and ``context``."""
    return {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "title": with_name(title, client),
        "client": client,
        **context,
    }


def back_to_client(
    model_admin: Any, request: HttpRequest, client: Client, done: "StrOrPromise", **more: str
) -> HttpResponseRedirect:
    """To the client's page, saying what was done (``done`` may name the client)."""
    model_admin.message_user(request, with_name(done, client, **more), messages.SUCCESS)
    return HttpResponseRedirect(reverse("admin:clients_client_change", args=[client.pk]))
