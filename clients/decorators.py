from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone

from clients.selectors import client_for_portal_user

View = Callable[..., HttpResponse]


def client_required(view: View) -> View:
    """The portal is for clients with an active record; staff go to the admin."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        user = request.user
        if not user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if user.is_staff:
            return redirect("admin:index")
        client = client_for_portal_user(user=user)
        if client is None:
            raise PermissionDenied
        # Dates on the portal are the client's own local dates and times.
        with timezone.override(client.timezone):
            return view(request, *args, **kwargs)

    return wrapper
