"""The exercise library in the admin."""

import json
from typing import Any
from urllib.parse import urlsplit

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import Resolver404, resolve
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from homework import services
from homework.kinds import all_kinds, get_kind
from homework.models import Assignment, Exercise
from homework.selectors import assignments_for_user, exercises_for_user
from homework.workspace.forms import ExerciseForm
from practice.admin_access import RoleAdmin
from practice.requests import acting_user, parse_id
from practice.roles import is_acting_manager


@admin.register(Exercise)
class ExerciseAdmin(RoleAdmin):
    therapist_can = frozenset({"view", "add", "change"})
    manager_can = frozenset({"view", "add", "change"})
    instead_of_deleting = _(
        "Exercises are never deleted: work set with them, and what clients wrote for it, "
        "is read through them. To take one out of the library, open it and untick "
        "“In the library”. Work already set with it carries on."
    )
    form = ExerciseForm
    list_display = ("title", "kind", "whose", "is_active")
    list_filter = ("kind", "is_active")
    search_fields = ("title", "instructions")
    list_select_related = ("owner",)

    class Media:
        # Draws a kind's own options editor (a worksheet's questions) where it has one.
        js = ("js/admin-questions.js",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Exercise]:
        return exercises_for_user(user=acting_user(request)).select_related("owner")

    def get_fieldsets(self, request: HttpRequest, obj: Exercise | None = None) -> Any:
        options: tuple[Any, dict[str, Any]]
        if obj is not None and not self.has_change_permission(request, obj):
            # Read only: what the client is asked, in words rather than the stored JSON.
            options = (_("What the client is asked"), {"fields": ("asked_of_the_client",)})
        else:
            options = (_("Kind options"), {"fields": ("options",), "description": _options_help()})
        return (
            (None, {"fields": ("kind", "title", "is_active")}),
            (_("For the client"), {"fields": ("instructions",)}),
            (_("For therapists"), {"fields": ("therapist_note",)}),
            options,
        )

    @admin.display(description=_("questions"))
    def asked_of_the_client(self, obj: Exercise) -> SafeString:
        asked = get_kind(obj.kind).questions_asked(obj)
        return format_html(
            "<ol>{}</ol>",
            format_html_join("", '<li dir="auto">{}</li>', ((q["text"],) for q in asked)),
        )

    @admin.display(description=_("whose"), ordering="owner__name")
    def whose(self, obj: Exercise) -> str:
        # No owner: the practice's shared library (a bare "-" said nothing).
        return str(obj.owner) if obj.owner is not None else str(_("The practice"))

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Exercise], search_term: str
    ) -> tuple[QuerySet[Exercise], bool]:
        if _picking_an_assignments_exercise(request):
            # New work takes exercises still in the library; work being edited keeps its own.
            queryset = queryset.filter(is_active=True) | Exercise.objects.filter(
                pk__in=_exercise_of_assignment_being_edited(request)
            )
        # "worksheet" finds worksheets: the kind's label, not only its title.
        found, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        term = search_term.strip().lower()
        kinds = [kind.slug for kind in all_kinds() if term and term in str(kind.label).lower()]
        if kinds:
            found = found | queryset.filter(kind__in=kinds)
        return found, may_have_duplicates

    def autocomplete_label(self, obj: Exercise) -> str:
        """What the library picker shows: the title, and which kind it is."""
        return f"{obj.title} · {get_kind(obj.kind).label}"

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Therapists edit their own exercises; the practice's shared library is the manager's.
        if (
            obj is not None
            and not is_acting_manager(acting_user(request))
            and obj.owner_id != acting_user(request).pk
        ):
            return False
        return super().has_change_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Exercise, form: Any, change: bool) -> None:
        saved = services.exercise_save(actor=acting_user(request), exercise=obj)
        obj.pk = saved.pk


def _picking_an_assignments_exercise(request: HttpRequest) -> bool:
    """Whether this search is the assignment form's exercise picker."""
    return (
        request.GET.get("app_label") == Assignment._meta.app_label
        and request.GET.get("model_name") == Assignment._meta.model_name
        and request.GET.get("field_name") == "exercise"
    )


def _exercise_of_assignment_being_edited(request: HttpRequest) -> list[int]:
    """The exercise of the assignment whose page asks, if it is one the person may see."""
    try:
        match = resolve(urlsplit(request.headers.get("referer", "")).path)
    except Resolver404:
        return []
    if match.url_name != "homework_assignment_change":
        return []
    assignment_id = parse_id(match.kwargs.get("object_id"))
    if assignment_id is None:
        return []
    return list(
        assignments_for_user(user=acting_user(request))
        .filter(pk=assignment_id)
        .values_list("exercise_id", flat=True)
    )


def _options_help() -> SafeString:
    examples = [kind for kind in all_kinds() if kind.options_example is not None]
    intro = format_html(
        "<p>{} <code>{}</code>. {}</p>",
        _("Most kinds need nothing here: leave it as"),
        "{}",
        _("Kinds that take options check them when you save, and say what to fix."),
    )
    if not examples:
        return intro
    shown = format_html_join(
        "",
        "<details class='options-example'><summary>{}</summary><pre>{}</pre></details>",
        (
            (
                _("Example for “%(kind)s”") % {"kind": kind.label},
                json.dumps(kind.options_example, indent=2, ensure_ascii=False),
            )
            for kind in examples
        ),
    )
    return format_html("{}{}", intro, shown)
