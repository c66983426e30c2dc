"""The exercise library in the admin."""

import copy
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Model, Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from homework import services
from homework.kinds import ExerciseKind, all_kinds, get_kind
from homework.models import Exercise
from homework.selectors import exercises_for_user
from homework.selectors.library_languages import language_name, versions_of
from homework.workspace.exercise_preview import exercise_preview, preview_html
from homework.workspace.forms import ExerciseForm
from practice.admin_access import RoleAdmin, not_found
from practice.languages import language_or_default, offered_languages
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
    list_display = ("title", "kind", "language", "whose", "is_active")
    list_filter = ("kind", "language", "is_active")
    search_fields = ("title", "instructions")
    list_select_related = ("owner",)

    change_form_template = "admin/homework/exercise/change_form.html"

    class Media:
        # Draws a kind's own options editor (a worksheet's questions) where it has one, and
        # keeps the preview beside the form current.
        js = ("js/admin-questions.js", "js/admin-exercise-preview.js")
        css = {"all": ("css/admin-exercise-preview.css",)}

    def get_queryset(self, request: HttpRequest) -> QuerySet[Exercise]:
        return exercises_for_user(user=acting_user(request)).select_related("owner")

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "preview/",
                self.admin_site.admin_view(self.preview_view),
                name="homework_exercise_preview",
            ),
            path(
                "<path:object_id>/preview/",
                self.admin_site.admin_view(self.preview_view),
                name="homework_exercise_saved_preview",
            ),
            path(
                "<path:object_id>/copy/",
                self.admin_site.admin_view(self.copy_view),
                name="homework_exercise_copy",
            ),
            *super().get_urls(),
        ]

    def preview_view(self, request: HttpRequest, object_id: str | None = None) -> HttpResponse:
        return exercise_preview(self, request, object_id)

    def copy_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """ "Make a copy to edit": a library exercise the person may read becomes their own."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        exercise = self.get_object(request, object_id)
        if exercise is None:
            return not_found(self, request, object_id)
        if not self.has_add_permission(request):
            raise PermissionDenied
        copied = services.exercise_copy(actor=acting_user(request), exercise=exercise)
        messages.success(request, _("This copy is yours to change. The original stays as it was."))
        return HttpResponseRedirect(reverse("admin:homework_exercise_change", args=[copied.pk]))

    def get_form(
        self, request: HttpRequest, obj: Exercise | None = None, change: bool = False, **kwargs: Any
    ) -> Any:
        # A kind's own option fields are the form's to add (ExerciseForm), not the model's.
        if kwargs.get("fields") is not None:
            own = set(_kind_option_fields())
            kwargs["fields"] = [name for name in kwargs["fields"] if name not in own]
        form: Any = super().get_form(request, obj, change, **kwargs)
        form.acting_user = acting_user(request)
        given = form.base_fields.get("translation_of")
        if obj is not None and isinstance(given, forms.ModelChoiceField):
            # A version is of an exercise in another language (the model's clean() says so too).
            offered = given.queryset if given.queryset is not None else Exercise.objects.none()
            given.queryset = (
                offered.exclude(pk=obj.pk)
                .exclude(language=obj.language)
                .filter(Q(owner__isnull=True) | Q(owner_id=obj.owner_id), kind=obj.kind)
            )
        return form

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "translation_of":
            kwargs["form_class"] = VersionOfField
            # Only what the person may see (get_form leaves out this exercise's own language).
            kwargs["queryset"] = (
                exercises_for_user(user=acting_user(request))
                .filter(translation_of__isnull=True)
                .order_by("language", "title")
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        """In the language its author reads; from "Add a version in …", a copy of the one it
        gives, to put into the new language's words."""
        user = acting_user(request)
        initial: dict[str, Any] = dict(super().get_changeform_initial_data(request))
        source_id = parse_id(initial.pop("translation_of", None))
        initial.setdefault("language", language_or_default(user.language))
        source = (
            exercises_for_user(user=user).filter(pk=source_id).first()
            if source_id is not None
            else None
        )
        if source is not None:
            initial.update(
                translation_of=source.pk,
                kind=source.kind,
                title=source.title,
                instructions=source.instructions,
                therapist_note=source.therapist_note,
                options=copy.deepcopy(source.options),
            )
        return initial

    def get_fieldsets(self, request: HttpRequest, obj: Exercise | None = None) -> Any:
        options: tuple[tuple[Any, dict[str, Any]], ...]
        if obj is not None and not self.has_change_permission(request, obj):
            # Read only: what the client is asked, in words rather than the stored JSON.
            options = ((_("What the client is asked"), {"fields": ("asked_of_the_client",)}),)
        else:
            json_box = {"fields": ("options",), "classes": ("asked-of-the-client",)}
            # Each kind with fields of its own for its options; the page shows the chosen kind's.
            own = tuple(
                (
                    kind.label,
                    {"fields": fields, "classes": ("kind-options", f"kind-options-{kind.slug}")},
                )
                for kind, fields in _kinds_with_option_fields()
            )
            options = ((_("What the client is asked"), json_box), *own)
        return (
            (None, {"fields": ("kind", "title", "is_active")}),
            (_("Language"), {"fields": ("language", "translation_of")}),
            (_("For the client"), {"fields": ("instructions",)}),
            (_("For therapists"), {"fields": ("therapist_note",)}),
            *options,
        )

    @admin.display(description=_("questions"))
    def asked_of_the_client(self, obj: Exercise) -> SafeString:
        kind = get_kind(obj.kind)
        if kind.options_form is not None:
            # A reading's text as the therapist would edit it, then its prompts.
            values = kind.options_form.initial_from(obj.options)
            return format_html_join(
                "",
                '<p><strong>{}</strong></p><div class="pre" dir="auto">{}</div>',
                (
                    (field.label, values[name])
                    for name, field in kind.options_form.base_fields.items()
                    if values.get(name)
                ),
            )
        asked = kind.questions_asked(obj)
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
        # "worksheet" finds worksheets: the kind's label, not only its title.
        found, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        term = search_term.strip().lower()
        kinds = [kind.slug for kind in all_kinds() if term and term in str(kind.label).lower()]
        if kinds:
            found = found | queryset.filter(kind__in=kinds)
        return found, may_have_duplicates

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Therapists edit their own exercises; the practice's shared library is the manager's.
        if (
            obj is not None
            and not is_acting_manager(acting_user(request))
            and obj.owner_id != acting_user(request).pk
        ):
            return False
        return super().has_change_permission(request, obj)

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Model | None = None,
    ) -> Any:
        context["preview_html"] = preview_html(
            request, saved=obj if isinstance(obj, Exercise) else None
        )
        if isinstance(obj, Exercise):
            context.update(self._versions_context(request, obj))
        return super().render_change_form(request, context, add, change, form_url, obj)

    def _versions_context(self, request: HttpRequest, exercise: Exercise) -> dict[str, Any]:
        """Its versions in other languages the person may see, and "Add a version in …" for each
        offered language it has none in: a copy to put into that language's words."""
        others = list(
            versions_of(exercise, user=acting_user(request)).order_by("language", "title")
        )
        had = {exercise.language, *(other.language for other in others)}
        add = reverse("admin:homework_exercise_add")
        return {
            "versions": [
                {
                    "exercise": other,
                    "language_name": language_name(other.language),
                    "url": reverse("admin:homework_exercise_change", args=[other.pk]),
                }
                for other in others
            ],
            "add_versions": [
                {
                    "label": _("Add a version in %(language)s") % {"language": language_name(code)},
                    "url": f"{add}?{urlencode({'translation_of': exercise.pk, 'language': code})}",
                }
                for code, _name in offered_languages()
                if code not in had and self.has_add_permission(request)
            ],
        }

    def save_model(self, request: HttpRequest, obj: Exercise, form: Any, change: bool) -> None:
        saved = services.exercise_save(actor=acting_user(request), exercise=obj)
        obj.pk = saved.pk


class VersionOfField(forms.ModelChoiceField):  # type: ignore[type-arg]
    """Each exercise it may give named with its language: the same title may be in several."""

    def label_from_instance(self, obj: Exercise) -> str:
        return f"{obj.title} ({language_name(obj.language)})"


def _kinds_with_option_fields() -> list[tuple[ExerciseKind, tuple[str, ...]]]:
    """Each kind with its own option fields, named as ExerciseForm names them."""
    return [
        (kind, tuple(f"{kind.slug}_{name}" for name in kind.options_form.base_fields))
        for kind in all_kinds()
        if kind.options_form is not None
    ]


def _kind_option_fields() -> list[str]:
    return [name for _kind, fields in _kinds_with_option_fields() for name in fields]
