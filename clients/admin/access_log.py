"""The access log in the admin."""

import csv
import datetime as dt
from collections.abc import Iterator
from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.views.main import ERROR_FLAG, PAGE_VAR
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, path
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clients.admin.filters import ScopedClientFilter
from clients.models import AccessEvent
from clients.selectors import access_events_for, clients_for_user, staff_members
from practice.admin_access import RoleAdmin
from practice.requests import acting_user, parse_id


class AnyClientFilter(ScopedClientFilter):
    """By client, archived ones included: looks at an archived client are still looks."""

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


class DayRangeForm(forms.Form):
    """The first and last day of a range, both optional, both in the practice's time zone."""

    since = forms.DateField(label=_("From"), required=False)
    until = forms.DateField(label=_("To"), required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        since, until = cleaned.get("since"), cleaned.get("until")
        if since and until and since > until:
            raise forms.ValidationError(
                _("The first day comes after the last: swap them, or change one.")
            )
        return cleaned

    def error_text(self) -> str:
        return " ".join(str(message) for errors in self.errors.values() for message in errors)

    def moments(self) -> tuple[dt.datetime | None, dt.datetime | None]:
        """From the first day's start, to before the start of the day after the last."""

        def start(day: dt.date) -> dt.datetime:
            return timezone.make_aware(dt.datetime.combine(day, dt.time.min))

        since, until = self.cleaned_data.get("since"), self.cleaned_data.get("until")
        return (
            start(since) if since else None,
            start(until + dt.timedelta(days=1)) if until else None,
        )


class DayRangeFilter(admin.ListFilter):
    """From one day to another: what an audit asks for ("every look in March")."""

    title = _("days")
    template = "admin/clients/accessevent/day_range_filter.html"
    parameters = ("since", "until")

    def __init__(
        self, request: HttpRequest, params: dict[str, Any], model: Any, model_admin: Any
    ) -> None:
        super().__init__(request, params, model, model_admin)
        for name in self.parameters:
            if name in params:
                value = params.pop(name)
                self.used_parameters[name] = value[-1] if isinstance(value, list) else value
        self.form = DayRangeForm(
            {name: self.used_parameters.get(name, "") for name in self.parameters}
        )
        # The other filters, the search and the order, kept as hidden fields of the form.
        self.kept = {
            key: value
            for key, value in request.GET.items()
            if key not in (*self.parameters, PAGE_VAR, ERROR_FLAG)
        }

    def has_output(self) -> bool:
        return True

    def expected_parameters(self) -> list[str | None]:
        return list(self.parameters)

    def choices(self, changelist: Any) -> Iterator[Any]:
        # One choice, the form (drawn from ``spec`` by the template).
        yield {"selected": bool(self.used_parameters), "query_string": "", "display": ""}

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if not self.form.is_valid():
            # Nothing rather than everything: a list ignoring a mistyped day would pass for it.
            return queryset.none()
        since, before = self.form.moments()
        if since is not None:
            queryset = queryset.filter(at__gte=since)
        if before is not None:
            queryset = queryset.filter(at__lt=before)
        return queryset


def spreadsheet_safe(value: str) -> str:
    """A cell a spreadsheet shows as text, never runs as a formula (a client's name is typed by staff)."""
    return f"'{value}" if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


@admin.register(AccessEvent)
class AccessEventAdmin(RoleAdmin):
    therapist_can: frozenset[str] = frozenset()
    manager_can = frozenset({"view"})
    instead_of_deleting = _(
        "The access log is kept whole: it is the record of who looked at clients' records."
    )
    list_display = ("at", "actor", "action", "what", "client")
    list_filter = (AnyClientFilter, StaffMemberFilter, "action", DayRangeFilter)
    search_fields = ("client__display_name",)
    search_help_text = _("Search by the client's name.")
    date_hierarchy = "at"
    stacks_on_a_phone = True
    actions = None  # no bulk action: nothing is changed or deleted here
    fields = ("at", "actor", "action", "what", "client")
    readonly_fields = fields
    list_per_page = 100
    change_list_template = "admin/clients/accessevent/change_list.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[AccessEvent]:
        return access_events_for(user=acting_user(request))

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "export.csv",
                self.admin_site.admin_view(self.export_csv_view),
                name="clients_accessevent_export_csv",
            ),
            *super().get_urls(),
        ]

    def export_csv_view(self, request: HttpRequest) -> HttpResponse:
        """The list as filtered, every line of it rather than a page, as CSV."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        days = DayRangeForm({name: request.GET.get(name, "") for name in DayRangeFilter.parameters})
        try:
            if not days.is_valid():
                raise IncorrectLookupParameters(days.error_text())
            changelist = self.get_changelist_instance(request)
        except IncorrectLookupParameters as refused:
            return HttpResponse(
                str(refused)
                or gettext("These filters cannot be read: open the list and choose again."),
                status=400,
                content_type="text/plain; charset=utf-8",
            )
        events = changelist.get_queryset(request).select_related("actor", "client")
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="access-log.csv"'
        writer = csv.writer(response)
        writer.writerow(
            [
                gettext("when"),
                gettext("staff member"),
                gettext("staff member's email"),
                gettext("action"),
                gettext("what"),
                gettext("client"),
                gettext("client id"),
            ]
        )
        for event in events.iterator(chunk_size=2000):
            writer.writerow(
                [
                    timezone.localtime(event.at).isoformat(),
                    spreadsheet_safe(str(event.actor)),
                    spreadsheet_safe(event.actor.email),
                    event.get_action_display(),
                    spreadsheet_safe(event.what),
                    spreadsheet_safe(event.client.display_name),
                    event.client_id,
                ]
            )
        return response
