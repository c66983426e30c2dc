from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from clients.selectors import clients_for_user
from homework import services
from homework.kinds import ResponseInvalid, get_kind
from homework.models import Assignment, Entry, Exercise
from homework.selectors import (
    assignments_for_user,
    entries_for_user,
    entry_readable_by_staff,
    exercises_for_user,
)
from practice.admin_access import RoleAdmin
from practice.requests import acting_user


class ExerciseForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Exercise
        fields = ("kind", "title", "instructions", "therapist_note", "options", "is_active")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("kind"):
            try:
                cleaned["options"] = get_kind(cleaned["kind"]).clean_options(cleaned.get("options"))
            except ResponseInvalid as invalid:
                for message in invalid.errors.get("options", []):
                    self.add_error("options", message)
        return cleaned


@admin.register(Exercise)
class ExerciseAdmin(RoleAdmin):
    therapist_can = frozenset({"view", "add", "change"})
    manager_can = frozenset({"view", "add", "change"})
    form = ExerciseForm
    list_display = ("title", "kind", "owner", "is_active")
    list_filter = ("kind", "is_active")
    search_fields = ("title", "instructions")
    list_select_related = ("owner",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Exercise]:
        return exercises_for_user(user=acting_user(request)).select_related("owner")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Therapists edit their own exercises; the practice's shared library is the manager's.
        if (
            obj is not None
            and not acting_user(request).is_manager
            and obj.owner_id != acting_user(request).pk
        ):
            return False
        return super().has_change_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Exercise, form: Any, change: bool) -> None:
        saved = services.exercise_save(actor=acting_user(request), exercise=obj)
        obj.pk = saved.pk


class AssignmentForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Assignment
        fields = (
            "client",
            "exercise",
            "instructions",
            "starts_on",
            "due_on",
            "schedule",
            "weekdays",
            "ends_on",
            "no_contact_since",
            "status",
        )


@admin.register(Assignment)
class AssignmentAdmin(RoleAdmin):
    therapist_can = frozenset({"view", "add", "change"})
    manager_can = frozenset({"view", "add", "change"})
    form = AssignmentForm
    list_display = ("exercise", "client", "starts_on", "due_on", "schedule", "status")
    list_filter = ("status", "schedule", "exercise__kind")
    search_fields = ("exercise__title", "client__display_name")
    autocomplete_fields = ("exercise",)
    list_select_related = ("exercise", "client")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Assignment]:
        return assignments_for_user(user=acting_user(request)).select_related("exercise", "client")

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "client":
            kwargs["queryset"] = clients_for_user(user=acting_user(request)).filter(status="active")
        elif db_field.name == "exercise":
            kwargs["queryset"] = exercises_for_user(user=acting_user(request)).filter(
                is_active=True
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request: HttpRequest, obj: Assignment, form: Any, change: bool) -> None:
        data = {name: form.cleaned_data[name] for name in AssignmentForm.Meta.fields}
        if change:
            saved = services.assignment_update(actor=acting_user(request), assignment=obj, **data)
        else:
            data.pop("status")
            saved = services.assignment_create(actor=acting_user(request), **data)
        obj.pk = saved.pk


@admin.register(Entry)
class EntryAdmin(RoleAdmin):
    """Clients' words are theirs: staff read entries, and never edit them."""

    list_display = ("exercise", "client", "submitted_at", "flags", "excerpt")
    list_filter = ("felt_unsafe", "discuss_in_session", "assignment__exercise__kind")
    search_fields = ("assignment__client__display_name", "assignment__exercise__title")
    date_hierarchy = "submitted_at"
    fields = ("exercise", "client", "submitted_at", "flags", "content")
    readonly_fields = fields
    ordering = ("-felt_unsafe", "-discuss_in_session", "-submitted_at")

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        # "What came back" links here filtered by client; the queryset is scoped anyway.
        return lookup == "assignment__client__id__exact" or super().lookup_allowed(
            lookup, value, request
        )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Entry]:
        return entries_for_user(user=acting_user(request)).select_related(
            "assignment__exercise", "assignment__client"
        )

    @admin.display(description=_("exercise"), ordering="assignment__exercise__title")
    def exercise(self, obj: Entry) -> str:
        return obj.assignment.exercise.title

    @admin.display(description=_("client"), ordering="assignment__client__display_name")
    def client(self, obj: Entry) -> str:
        return obj.assignment.client.display_name

    @admin.display(description=_("flags"))
    def flags(self, obj: Entry) -> str:
        flags = []
        if obj.felt_unsafe:
            flags.append(str(_("felt unsafe")))
        if obj.discuss_in_session:
            flags.append(str(_("talk in session")))
        return ", ".join(flags) or "—"

    @admin.display(description=_("excerpt"))
    def excerpt(self, obj: Entry) -> str:
        if not entry_readable_by_staff(obj):
            return str(_("Private: kept by the client for themselves"))
        return get_kind(obj.assignment.exercise.kind).excerpt(obj)

    @admin.display(description=_("what the client wrote"))
    def content(self, obj: Entry) -> SafeString:
        if not entry_readable_by_staff(obj):
            return format_html("<p>{}</p>", _("The client has kept this entry private."))
        kind = get_kind(obj.assignment.exercise.kind)
        return SafeString(
            render_to_string(kind.display_template, {"entry": obj, **kind.present(obj)})
            # What the client added after the entry was read (escaped by the template).
            + render_to_string("homework/partials/client_notes.html", {"entry": obj})
        )
