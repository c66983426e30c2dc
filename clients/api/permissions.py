"""Who may call the client's own routes: as the portal lets them in."""

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from clients.models import Client
from clients.selectors import client_for_portal_user
from practice.api.errors import Refused
from practice.models import User


class ClientArchived(Refused):
    default_code = "archived_page"
    default_detail = _(
        "Your notebook with the practice is closed, so nothing can be read or changed "
        "here. Your download (me/export) still has everything you wrote."
    )


class IsPortalClient(BasePermission):
    """``allow_archived`` on the view lets an archived client in too; staff have their own routes."""

    message = _("Only clients can do this.")

    def has_permission(self, request: Request, view: Any) -> bool:
        user = request.user
        if not (isinstance(user, User) and user.is_active and user.is_client):
            return False
        client = client_for_portal_user(user=user, include_archived=True)
        if client is None:
            return False
        if client.status == Client.Status.ARCHIVED and not getattr(view, "allow_archived", False):
            raise ClientArchived
        request.portal_client = client  # type: ignore[attr-defined]
        return True


def portal_client(request: Request) -> Client:
    client = getattr(request, "portal_client", None)
    assert isinstance(client, Client)  # IsPortalClient ran first: this only narrows the type
    return client


def portal_user(request: Request) -> User:
    user = request.user
    assert isinstance(user, User)  # IsPortalClient ran first: this only narrows the type
    return user
