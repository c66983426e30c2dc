"""The client's page and the sessions list, as the therapist works from them."""

from typing import Any

from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.db.models import Model, OuterRef, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from clients.admin.clients import ClientAdmin
from clients.admin.sessions import SessionAdmin
from clients.models import Client, Session
from clients.selectors import with_prepared_for
from homework import selectors as homework_selectors
from homework.models import Entry
from homework.summary.views import client_summary
from homework.workspace import client_programs, erasure, reading, views
from homework.workspace.now import client_now, measures_over_time
from practice.requests import acting_user


class ClientChangeList(ChangeList):
    """The client list, each row with what its "open work" column counts."""

    def get_queryset(
        self, request: HttpRequest, exclude_parameters: Any = None
    ) -> QuerySet[Client]:
        queryset = super().get_queryset(request, exclude_parameters)
        return homework_selectors.with_open_work(queryset, now=timezone.now())


@admin.register(Client)
class ClientWorkspaceAdmin(ClientAdmin):
    list_display = (*ClientAdmin.list_display, "open_assignments", "last_entry_at")
    actions = ("assign_exercise", *ClientAdmin.actions)
    change_form_template = "admin/clients/client/change_form.html"

    def get_urls(self) -> list[URLPattern]:
        def wrap(view: Any) -> Any:
            return self.admin_site.admin_view(view)

        return [
            path(
                "<path:object_id>/since-last-session/",
                wrap(self.since_last_session_view),
                name="clients_client_since_last_session",
            ),
            path(
                "<path:object_id>/mark-read/",
                wrap(self.mark_read_view),
                name="clients_client_mark_read",
            ),
            path(
                "<path:object_id>/summary/",
                wrap(self.summary_view),
                name="clients_client_summary",
            ),
            path(
                "<path:object_id>/programs/assign/",
                wrap(self.assign_program_view),
                name="clients_client_assign_program",
            ),
            *(
                path(
                    f"<path:object_id>/programs/<int:client_program_id>/{action}/",
                    wrap(self.program_change_view),
                    {"action": action},
                    name=f"clients_client_program_{action}",
                )
                for action in client_programs.ACTIONS
            ),
            path("<path:object_id>/erase/", wrap(self.erase_view), name="clients_client_erase"),
            path(
                "<path:object_id>/erase/export.json",
                wrap(self.erase_export_json_view),
                name="clients_client_erase_export_json",
            ),
            path(
                "<path:object_id>/erase/export.pdf",
                wrap(self.erase_export_pdf_view),
                name="clients_client_erase_export_pdf",
            ),
            *super().get_urls(),
        ]

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Model | None = None,
    ) -> Any:
        # Here, not in change_view: a form drawn after a refusal keeps the block above it.
        if isinstance(obj, Client) and obj.pk:
            user = acting_user(request)
            context["now"] = client_now(user=user, client=obj, now=timezone.now())
            context["measures"] = measures_over_time(user=user, client=obj)
            context.update(client_programs.panel_context(request, user=user, client=obj))
        return super().render_change_form(request, context, add, change, form_url, obj)

    def assign_program_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return client_programs.assign_program(self, request, object_id)

    def program_change_view(
        self, request: HttpRequest, object_id: str, client_program_id: int, action: str
    ) -> HttpResponse:
        return client_programs.program_change(
            self,
            request,
            object_id,
            client_program_id,
            change=client_programs.ACTIONS[action],
        )

    def erase_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return erasure.erase_page(self, request, object_id)

    def erase_export_json_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return erasure.export_json(self, request, object_id)

    def erase_export_pdf_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return erasure.export_pdf(self, request, object_id)

    def since_last_session_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return views.since_last_session(self, request, object_id)

    def mark_read_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return reading.mark_read(self, request, object_id)

    def summary_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return client_summary(self, request, object_id)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Client]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                last_entry=Subquery(
                    Entry.objects.filter(
                        assignment__client=OuterRef("pk"), status=Entry.Status.SUBMITTED
                    )
                    .order_by("-submitted_at")
                    .values("submitted_at")[:1]
                ),
            )
        )

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return ClientChangeList

    # Not sortable: the count is completion's rule, read in Python.
    def get_readonly_fields(
        self, request: HttpRequest, obj: Client | None = None
    ) -> tuple[str, ...]:
        return (*super().get_readonly_fields(request, obj), "recent_reminders")

    def get_fieldsets(self, request: HttpRequest, obj: Client | None = None) -> Any:
        """Under the contact profile, what became of the latest reminders."""
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None:
            return fieldsets
        return tuple(
            (name, {**options, "fields": (*options["fields"], "recent_reminders")})
            if "contact_preferences" in options["fields"]
            else (name, options)
            for name, options in fieldsets
        )

    @admin.display(description=_("latest reminders"))
    def recent_reminders(self, obj: Client) -> SafeString:
        """Recent reminders, each with what became of it and why (homework.reminders)."""
        return SafeString(  # nosec B703 (a rendered template, escaped as it rendered)
            render_to_string(
                "admin/homework/partials/recent_reminders.html",
                {"client": obj, "reminders": homework_selectors.recent_reminders(client=obj)},
            )
        )

    @admin.display(description=_("open work"))
    def open_assignments(self, obj: Client) -> int:
        return homework_selectors.open_work(obj, now=timezone.now())

    @admin.display(description=_("last entry"), ordering="last_entry")
    def last_entry_at(self, obj: Client) -> Any:
        return obj.last_entry or "—"  # type: ignore[attr-defined]

    @admin.action(description=_("Assign an exercise to the selected clients"))
    def assign_exercise(
        self, request: HttpRequest, queryset: QuerySet[Client]
    ) -> HttpResponse | None:
        return views.assign_to_clients(self, request, queryset)


@admin.register(Session)
class SessionWorkspaceAdmin(SessionAdmin):
    list_display = (*SessionAdmin.list_display, "since_last_session", "summary")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Session]:
        return with_prepared_for(super().get_queryset(request), now=timezone.now())

    @admin.display(description=_("prepare"))
    def since_last_session(self, obj: Session) -> str:
        # That page reads from the last session to now.
        if not getattr(obj, "is_prepared_for", False):
            return "—"
        url = reverse("admin:clients_client_since_last_session", args=[obj.client_id])
        return format_html('<a href="{}">{}</a>', url, _("Since last session"))

    @admin.display(description=_("summary"))
    def summary(self, obj: Session) -> str:
        """This session's own summary (from the one before it), past or to come."""
        url = reverse("admin:clients_client_summary", args=[obj.client_id])
        return format_html(
            '<a href="{}?session={}" target="_blank" rel="noopener">{}</a>',
            url,
            obj.pk,
            _("Print session summary"),
        )
