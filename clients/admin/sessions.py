"""Sessions in the admin: their list (each client's are added and moved on their page)."""

from django.db.models import QuerySet
from django.http import HttpRequest
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
