"""List filters behind the admin home's "See all" links."""

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clients.models import Client
from homework.models import readable_by_staff_q
from homework.selectors import new_entries, new_since_for, overdue_exactly
from practice.admin_site import previous_sign_in


class PastDueFilter(admin.SimpleListFilter):
    """One-off work past its due date with nothing sent: the home's "Past their due date" list."""

    title = _("due date")
    parameter_name = "due"
    PAST = "past"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [(self.PAST, _("Past due, nothing sent yet"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if not value:
            return queryset
        if value != self.PAST:
            return queryset.none()
        return overdue_exactly(
            queryset.filter(client__status=Client.Status.ACTIVE), now=timezone.now()
        )


class NewEntriesFilter(admin.SimpleListFilter):
    """What the home calls new, and what has not been read yet."""

    title = _("new")
    parameter_name = "new"
    SINCE_SIGN_IN = "since_sign_in"
    UNREAD = "unread"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        since = (
            _("Since you last signed in") if previous_sign_in(request) else _("In the last 7 days")
        )
        return [(self.SINCE_SIGN_IN, since), (self.UNREAD, _("Not read yet"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if not value:
            return queryset
        if value == self.SINCE_SIGN_IN:
            since = new_since_for(previous_sign_in(request), now=timezone.now())
            return new_entries(queryset, since=since)
        if value == self.UNREAD:
            # A private entry is never read by staff: it is not "waiting to be read".
            return queryset.filter(readable_by_staff_q(), seen_at__isnull=True)
        return queryset.none()


class SharedFlagFilter(admin.SimpleListFilter):
    """The client's flags, on shared entries only: a private entry's flags are private too."""

    title = _("flags")
    parameter_name = "flag"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [
            ("unsafe", _("Felt unsafe")),
            ("review", _("An answer to review")),
            ("discuss", _("To talk about in session")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "unsafe":
            return queryset.filter(readable_by_staff_q(), felt_unsafe=True)
        if self.value() == "review":
            return queryset.filter(readable_by_staff_q(), needs_review=True)
        if self.value() == "discuss":
            return queryset.filter(readable_by_staff_q(), discuss_in_session=True)
        return queryset
