"""Sessions in the admin: the table of them on the client's page, and their list."""

from typing import Any

from django.contrib import admin
from django.db import models
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.timesince import timesince, timeuntil
from django.utils.translation import gettext_lazy as _

from clients.admin.filters import ScopedClientFilter
from clients.admin.forms import SessionInlineFormSet, SessionStartsField, SessionStartsWidget
from clients.models import Session
from clients.selectors import sessions_for_user
from practice.admin_access import RoleAdmin
from practice.requests import acting_user


class SessionInline(admin.TabularInline):  # type: ignore[type-arg]
    """Sessions are recorded on the client's page; "since last session" starts from them."""

    model = Session
    formset = SessionInlineFormSet
    formfield_overrides = {
        models.DateTimeField: {"form_class": SessionStartsField, "widget": SessionStartsWidget}
    }
    extra = 1
    fields = ("starts_at", "when")
    readonly_fields = ("when",)
    ordering = ("-starts_at",)
    verbose_name = _("session")
    verbose_name_plural = _("Sessions: add the next one in the empty row")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Session]:
        # Each row is labelled with str(session), which names the client.
        return super().get_queryset(request).select_related("client")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return True

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return True

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return True

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return True

    @admin.display(description=_("when"))
    def when(self, obj: Session) -> str:
        if obj.pk is None:
            return ""
        now = timezone.now()
        if timezone.localdate(obj.starts_at) == timezone.localdate(now):
            return str(_("today"))
        if obj.starts_at > now:
            return str(_("in %(time)s") % {"time": timeuntil(obj.starts_at, now, depth=1)})
        return str(_("%(time)s ago") % {"time": timesince(obj.starts_at, now, depth=1)})


class SessionAdmin(RoleAdmin):
    """Sessions listed; registered with the links to prepare for them."""

    therapist_can = frozenset({"view"})
    manager_can = frozenset({"view"})
    instead_of_deleting = _(
        "To remove a session, open the client's page and tick “Delete” on its row in "
        "the sessions table. Nothing the client wrote goes with it."
    )
    list_display: tuple[str, ...] = ("starts_at", "client")
    stacks_on_a_phone = True  # like the therapist's other lists, each value named
    search_fields = ("client__display_name",)
    # The client's page shows their recent sessions and links here for all of them.
    list_filter = (ScopedClientFilter,)
    date_hierarchy = "starts_at"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Session]:
        return sessions_for_user(user=acting_user(request)).select_related("client")
