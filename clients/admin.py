from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import Count, Max, Q, QuerySet
from django.http import HttpRequest
from django.urls import URLPattern, path
from django.utils.translation import gettext_lazy as _

from clients import services
from clients.models import Client, Session
from clients.selectors import clients_for_user, sessions_for_user
from homework.summary.views import client_summary
from practice.admin_access import RoleAdmin
from practice.models import User
from practice.requests import acting_user


class SessionInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Session
    extra = 1
    fields = ("starts_at",)
    ordering = ("-starts_at",)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return True

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return True

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return True

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return True


@admin.register(Client)
class ClientAdmin(RoleAdmin):
    therapist_can = frozenset({"view", "add", "change"})
    manager_can = frozenset({"view", "add", "change"})
    list_display = ("display_name", "therapist", "status", "open_assignments", "last_entry_at")
    list_filter = ("status",)
    search_fields = ("display_name",)
    inlines = (SessionInline,)
    change_form_template = "admin/clients/client/change_form.html"
    fieldsets = (
        (None, {"fields": ("display_name", "therapist", "status")}),
        (
            _("Reminders"),
            {
                "fields": (
                    "contact_email",
                    "timezone",
                    "reminder_channel",
                    ("quiet_hours_start", "quiet_hours_end"),
                )
            },
        ),
        (_("Portal"), {"fields": ("portal_user",)}),
    )

    def get_urls(self) -> list[URLPattern]:
        summary = path(
            "<path:object_id>/summary/",
            self.admin_site.admin_view(client_summary),
            name="clients_client_summary",
        )
        return [summary, *super().get_urls()]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Client]:
        return (
            clients_for_user(user=acting_user(request))
            .select_related("therapist", "portal_user")
            .annotate(
                open_count=Count(
                    "assignments", filter=Q(assignments__status="active"), distinct=True
                ),
                last_entry=Max("assignments__entries__submitted_at"),
            )
        )

    def get_readonly_fields(
        self, request: HttpRequest, obj: Client | None = None
    ) -> tuple[str, ...]:
        readonly = ("portal_user",)
        return readonly if acting_user(request).is_manager else (*readonly, "therapist")

    def get_list_filter(self, request: HttpRequest) -> tuple[Any, ...]:
        return ("status", "therapist") if acting_user(request).is_manager else ("status",)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "therapist":
            kwargs["queryset"] = User.objects.filter(role=User.Role.THERAPIST, is_active=True)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    @admin.display(description=_("open work"), ordering="open_count")
    def open_assignments(self, obj: Client) -> int:
        return obj.open_count  # type: ignore[attr-defined,no-any-return]

    @admin.display(description=_("last entry"), ordering="last_entry")
    def last_entry_at(self, obj: Client) -> Any:
        return obj.last_entry  # type: ignore[attr-defined]

    def save_model(
        self, request: HttpRequest, obj: Client, form: "forms.ModelForm[Client]", change: bool
    ) -> None:
        fields = {
            name: form.cleaned_data[name]
            for name in form.cleaned_data
            if name in services.CLIENT_EDITABLE_FIELDS or name == "therapist"
        }
        if change:
            saved = services.client_update(actor=acting_user(request), client=obj, **fields)
        else:
            therapist = fields.pop("therapist", None)
            saved = services.client_create(
                actor=acting_user(request), therapist=therapist, **fields
            )
        obj.pk = saved.pk

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        client = form.instance
        for session_form in formset.forms:
            if not session_form.has_changed() or not session_form.cleaned_data:
                continue
            session = session_form.instance
            if session_form.cleaned_data.get("DELETE") and session.pk:
                services.session_cancel(actor=acting_user(request), session=session)
            elif session.pk:
                services.session_reschedule(
                    actor=acting_user(request),
                    session=session,
                    starts_at=session_form.cleaned_data["starts_at"],
                )
            else:
                services.session_schedule(
                    actor=acting_user(request),
                    client=client,
                    starts_at=session_form.cleaned_data["starts_at"],
                )


@admin.register(Session)
class SessionAdmin(RoleAdmin):
    therapist_can = frozenset({"view"})
    manager_can = frozenset({"view"})
    list_display = ("starts_at", "client")
    list_select_related = ("client",)
    date_hierarchy = "starts_at"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Session]:
        return sessions_for_user(user=acting_user(request)).select_related("client")
