"""Changelist filters that list only what the person filtering may see."""

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from clients.models import Client
from clients.selectors import clients_for_user
from practice.requests import acting_user, parse_id


class ClientStatusFilter(admin.SimpleListFilter):
    """Active clients by default: archived ones drop out of the list until asked for."""

    title = _("status")
    parameter_name = "status"
    ALL = "all"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [
            (Client.Status.ACTIVE, _("Active")),
            (Client.Status.ARCHIVED, _("Archived")),
            (self.ALL, _("All")),
        ]

    def choices(self, changelist: Any) -> Any:
        # Django's "All" choice (no parameter) would mean "active" here; ours are explicit.
        for value, label in self.lookup_choices:
            yield {
                "selected": (self.value() or Client.Status.ACTIVE) == value,
                "query_string": changelist.get_query_string({self.parameter_name: value}),
                "display": label,
            }

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value() or Client.Status.ACTIVE
        if value == self.ALL:
            return queryset
        if value not in Client.Status.values:
            return queryset.none()
        return queryset.filter(status=value)


class ScopedClientFilter(admin.SimpleListFilter):
    """Filter by client, offering only the acting person's active clients."""

    title = _("client")
    parameter_name = "client"
    field_path = "client"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            (str(pk), name)
            for pk, name in clients_for_user(user=acting_user(request))
            .filter(status=Client.Status.ACTIVE)
            .order_by("display_name")
            .values_list("pk", "display_name")
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if not value:
            return queryset
        client_id = parse_id(value)
        if client_id is None:
            return queryset.none()
        # The changelist's queryset is already scoped: another's id finds nothing.
        return queryset.filter(**{self.field_path: client_id})


class EntryClientFilter(ScopedClientFilter):
    field_path = "assignment__client"
