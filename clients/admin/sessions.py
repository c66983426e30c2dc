"""Sessions in the admin: their list (each client's are added and moved on their page)."""

from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clients.admin.filters import ScopedClientFilter
from clients.models import Session
from clients.selectors import sessions_for_user
from practice.admin_access import RoleAdmin
from practice.requests import acting_user


class SessionAdmin(RoleAdmin):
    """Sessions listed; registered with the links to prepare for them."""

    therapist_can = frozenset({"view"})
    manager_can = frozenset({"view"})
    instead_of_deleting = _(
        "To remove a session, open the client's page and choose “Remove” beside it under "
        "Sessions. Nothing the client wrote goes with it."
    )
    list_display: tuple[str, ...] = ("starts_at", "client")
    stacks_on_a_phone = True  # like the therapist's other lists, each value named
    search_fields = ("client__display_name",)
    # The client's page shows their recent sessions and links here for all of them.
    list_filter = (ScopedClientFilter,)
    date_hierarchy = "starts_at"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Session]:
        return sessions_for_user(user=acting_user(request)).select_related("client")

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """A session is changed with its client, in the Sessions card's form."""
        session = self.get_object(request, object_id)
        if session is None:
            return super().change_view(request, object_id, form_url, extra_context)
        return HttpResponseRedirect(
            reverse("admin:clients_client_session_change", args=[session.client_id, session.pk])
        )
