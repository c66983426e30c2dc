"""The access log in the admin: who at the practice looked at which client's
records, filtered by client, staff member, action and date.

The manager's alone. The log is the practice's oversight of everyone who
reads clients' records, therapists included, and a therapist's own looks at
their clients are on it; the client sees their own lines in the portal
(clients.views.who_looked). Nobody adds, changes or deletes a line here: it
is the record of what happened.
"""

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from clients.admin.filters import ScopedClientFilter
from clients.models import AccessEvent
from clients.selectors import access_events_for_staff, clients_for_user, staff_members
from practice.admin_access import RoleAdmin
from practice.requests import acting_user, parse_id


class AnyClientFilter(ScopedClientFilter):
    """By client, archived ones included: looks at a closed notebook are still looks."""

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            (str(pk), name)
            for pk, name in clients_for_user(user=acting_user(request))
            .order_by("display_name", "pk")
            .values_list("pk", "display_name")
        ]


class StaffMemberFilter(admin.SimpleListFilter):
    """By the member of staff who looked; Django's own filter would list every account, clients' too."""

    title = _("staff member")
    parameter_name = "staff"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(str(user.pk), str(user)) for user in staff_members()]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if not value:
            return queryset
        actor_id = parse_id(value)
        if actor_id is None:
            return queryset.none()
        return queryset.filter(actor_id=actor_id)


@admin.register(AccessEvent)
class AccessEventAdmin(RoleAdmin):
    therapist_can: frozenset[str] = frozenset()
    manager_can = frozenset({"view"})
    instead_of_deleting = _(
        "The access log is kept whole: it is the record of who looked at clients' records."
    )
    list_display = ("at", "actor", "action", "what", "client")
    list_filter = (AnyClientFilter, StaffMemberFilter, "action")
    search_fields = ("client__display_name",)
    search_help_text = _("Search by the client's name.")
    date_hierarchy = "at"
    stacks_on_a_phone = True
    actions = None  # no bulk action: nothing is changed or deleted here
    fields = ("at", "actor", "action", "what", "client")
    readonly_fields = fields
    list_per_page = 100

    def get_queryset(self, request: HttpRequest) -> QuerySet[AccessEvent]:
        return access_events_for_staff(user=acting_user(request))
