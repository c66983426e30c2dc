"""Programs in the admin: the list, and the builder's pages (homework.workspace.program_editor)."""

from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext_lazy as _

from homework.models import Program
from homework.selectors.programs import programs_for_user
from homework.services import programs as services
from homework.workspace import program_editor
from homework.workspace.program_forms import ProgramForm
from practice.admin_access import RoleAdmin
from practice.languages import language_or_default
from practice.requests import acting_user


@admin.register(Program)
class ProgramAdmin(RoleAdmin):
    therapist_can = frozenset({"view", "add", "change"})
    manager_can = frozenset({"view", "add", "change"})
    instead_of_deleting = _(
        "Programs are never deleted: clients already on one keep their own copy of its steps. "
        "To take one out of the library, open it and untick “In the library”."
    )
    form = ProgramForm
    list_display = ("title", "language", "whose", "step_count", "is_active")
    list_filter = ("language", "is_active")
    search_fields = ("title",)
    fields = ("title", "language", "description", "is_active")

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        """In the language its author reads."""
        initial: dict[str, Any] = dict(super().get_changeform_initial_data(request))
        initial.setdefault("language", language_or_default(acting_user(request).language))
        return initial

    def get_queryset(self, request: HttpRequest) -> QuerySet[Program]:
        return (
            programs_for_user(user=acting_user(request))
            .select_related("owner")
            .annotate(step_count=Count("steps"))
        )

    def get_urls(self) -> list[URLPattern]:
        wrap = self.admin_site.admin_view
        return [
            path(
                "<path:object_id>/preview/",
                wrap(self.preview_view),
                name="homework_program_preview",
            ),
            path("<path:object_id>/copy/", wrap(self.copy_view), name="homework_program_copy"),
            *super().get_urls(),
        ]

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        return program_editor.program_change(self, request, object_id)

    def preview_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return program_editor.program_preview(self, request, object_id)

    def copy_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return program_editor.program_copy(self, request, object_id)

    @admin.display(description=_("whose"), ordering="owner__name")
    def whose(self, obj: Program) -> str:
        return str(obj.owner) if obj.owner is not None else str(_("The practice"))

    @admin.display(description=_("steps"), ordering="step_count")
    def step_count(self, obj: Program) -> int:
        return int(getattr(obj, "step_count", 0))

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A therapist may read the practice's programs but edit only their own.
        if obj is not None and not services.can_edit_program(acting_user(request), obj):
            return False
        return super().has_change_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Program, form: Any, change: bool) -> None:
        made = services.program_create(actor=acting_user(request), details=form.details())
        obj.pk = made.pk
        obj.owner = made.owner

    def response_add(
        self, request: HttpRequest, obj: Program, post_url_continue: str | None = None
    ) -> HttpResponse:
        """Straight on to its steps: a program is nothing until it has some."""
        messages.success(
            request,
            _("The program “%(title)s” was added. Now add its steps, then save.") % {"title": obj},
        )
        return HttpResponseRedirect(reverse("admin:homework_program_change", args=[obj.pk]))
