import datetime as dt
import json
from typing import Any
from urllib.parse import urlsplit

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, Model, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.loader import render_to_string
from django.urls import Resolver404, URLPattern, path, resolve, reverse
from django.utils import formats, timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from clients.admin_filters import EntryClientFilter, ScopedClientFilter
from clients.models import Client
from clients.selectors import clients_for_user
from homework import admin_views as workspace
from homework import services
from homework.admin_filters import NewEntriesFilter, PastDueFilter
from homework.admin_forms import (
    ASSIGNMENT_FIELDS,
    AssignmentForm,
    EntryCommentForm,
    ExerciseForm,
    IdAutocompleteSelect,
)
from homework.display import changed_note, entry_html, schedule_text
from homework.kinds import all_kinds, get_kind
from homework.models import Assignment, Entry, Exercise
from homework.selectors import (
    assignments_for_user,
    client_today,
    entries_for_user,
    entry_commentable_by,
    entry_readable_by_staff,
    exercises_for_user,
    flags_first,
)
from homework.workspace import client_admin  # noqa: F401 (registers the client's page)
from practice.admin_access import RoleAdmin
from practice.bidi import isolated_text
from practice.dates import as_zone
from practice.requests import acting_user, parse_id


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
            # Read only: what the client is asked, in words, rather than the
            # JSON it is kept in and the hints for editing that.
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
            # New work takes exercises still in the library (the form refuses
            # others); work being edited keeps the one it has, as its form does.
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
            and not acting_user(request).is_manager
            and obj.owner_id != acting_user(request).pk
        ):
            return False
        return super().has_change_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Exercise, form: Any, change: bool) -> None:
        saved = services.exercise_save(actor=acting_user(request), exercise=obj)
        obj.pk = saved.pk


def _picking_an_assignments_exercise(request: HttpRequest) -> bool:
    """Whether this search is the assignment form's exercise picker (the
    admin's autocomplete names the field it serves)."""
    return (
        request.GET.get("app_label") == Assignment._meta.app_label
        and request.GET.get("model_name") == Assignment._meta.model_name
        and request.GET.get("field_name") == "exercise"
    )


def _exercise_of_assignment_being_edited(request: HttpRequest) -> list[int]:
    """The exercise of the assignment whose page asks (from the Referer: the
    autocomplete request carries nothing else), if it is one the person may see.

    Without a Referer the retired exercise is simply not listed: it still
    shows as chosen, and the form still accepts it.
    """
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


@admin.register(Assignment)
class AssignmentAdmin(RoleAdmin):
    therapist_can = frozenset({"view", "add", "change"})
    manager_can = frozenset({"view", "add", "change"})
    instead_of_deleting = _(
        "Work you have set is never deleted: what the client wrote for it hangs on it. "
        "To stop it, open it and set its status to “Cancelled” (under More). It leaves "
        "the client's to-do list, and what they wrote is kept."
    )
    form = AssignmentForm
    list_display = ("exercise", "client", "starts_on", "schedule_in_words", "status")
    stacks_on_a_phone = True
    list_filter = (ScopedClientFilter, PastDueFilter, "status", "schedule", "exercise__kind")
    search_fields = ("exercise__title", "client__display_name")
    autocomplete_fields = ("exercise",)
    list_select_related = ("exercise", "client")
    change_form_template = "admin/homework/assignment/change_form.html"

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "preview/",
                self.admin_site.admin_view(self.preview_view),
                name="homework_assignment_preview",
            ),
            *super().get_urls(),
        ]

    def preview_view(self, request: HttpRequest) -> HttpResponse:
        return workspace.assignment_preview(self, request)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Assignment]:
        return assignments_for_user(user=acting_user(request)).select_related("exercise", "client")

    def get_fieldsets(self, request: HttpRequest, obj: Assignment | None = None) -> Any:
        more = ("no_contact_since", "status") if obj else ("no_contact_since",)
        return (
            (None, {"fields": ("client", "exercise")}),
            (_("What the client reads"), {"fields": ("instructions",)}),
            (
                _("When"),
                {"fields": ("schedule", "starts_on", "due_on", "weekdays", "ends_on")},
            ),
            (_("More"), {"fields": more, "classes": ("collapse",)}),
        )

    def get_readonly_fields(
        self, request: HttpRequest, obj: Assignment | None = None
    ) -> tuple[str, ...]:
        # An assignment stays with its client (its entries hang on it), archived or not.
        return ("client",) if obj is not None else ()

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        """Today, and due by the client's next session (or in a week): on the
        client's calendar, which the schedule and the due date are read on."""
        initial: dict[str, Any] = dict(super().get_changeform_initial_data(request))
        client_id = parse_id(initial.get("client"))
        client = (
            clients_for_user(user=acting_user(request)).filter(pk=client_id).first()
            if client_id is not None
            else None
        )
        # Daily work set on the practice's evening starts on a far-east
        # client's tomorrow; started on the practice's today, its first day
        # would be gone for them before it was set.
        zone = as_zone(client.timezone) if client else timezone.get_default_timezone()
        today = timezone.localdate(timezone=zone)
        initial.setdefault("starts_on", today)
        due = today + dt.timedelta(days=7)
        if client is not None:
            upcoming = (
                client.sessions.filter(starts_at__gt=timezone.now())
                .order_by("starts_at")
                .values_list("starts_at", flat=True)
                .first()
            )
            if upcoming:
                # The session's day for the client: 07:00 in London is the
                # evening before in Los Angeles.
                due = timezone.localdate(upcoming, zone)
        initial.setdefault("due_on", due)
        return initial

    def get_form(
        self,
        request: HttpRequest,
        obj: Assignment | None = None,
        change: bool = False,
        **kwargs: Any,
    ) -> Any:
        form = super().get_form(request, obj, change, **kwargs)
        if obj is not None and "exercise" in form.base_fields:
            # Work set with an exercise since retired (or a former therapist's
            # own) keeps it on offer: otherwise it could not be saved, not even
            # to cancel it.
            field: forms.ModelChoiceField[Exercise] = form.base_fields["exercise"]  # type: ignore[assignment]
            offered = field.queryset if field.queryset is not None else Exercise.objects.none()
            field.queryset = offered | Exercise.objects.filter(pk=obj.exercise_id)
        return form

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "client":
            kwargs["queryset"] = clients_for_user(user=acting_user(request)).filter(
                status=Client.Status.ACTIVE
            )
        elif db_field.name == "exercise":
            kwargs["queryset"] = exercises_for_user(user=acting_user(request)).filter(
                is_active=True
            )
            kwargs["widget"] = IdAutocompleteSelect(
                db_field, self.admin_site, using=kwargs.get("using")
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> Any:
        # The library's own words, so the page can offer them to personalise.
        library = exercises_for_user(user=acting_user(request)).filter(is_active=True)
        extra = {
            "library_instructions": {e.pk: e.instructions for e in library},
            **(extra_context or {}),
        }
        return super().changeform_view(request, object_id, form_url, extra)

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Model | None = None,
    ) -> Any:
        # Drawn for a post only when the save was refused: the form comes
        # back as the therapist left it, and so does the preview beside it.
        # Saved work opens with its own: its exercise is already chosen.
        if request.method == "POST":
            context["preview_html"] = workspace.assignment_preview_html(request)
        elif isinstance(obj, Assignment):
            context["preview_html"] = workspace.saved_assignment_preview_html(request, obj)
        return super().render_change_form(request, context, add, change, form_url, obj)

    @admin.display(description=_("schedule"), ordering="schedule")
    def schedule_in_words(self, obj: Assignment) -> str:
        return schedule_text(obj)

    def save_model(self, request: HttpRequest, obj: Assignment, form: Any, change: bool) -> None:
        data = {
            name: form.cleaned_data[name] for name in ASSIGNMENT_FIELDS if name in form.cleaned_data
        }
        if change:
            saved = services.assignment_update(actor=acting_user(request), assignment=obj, **data)
            # New days may have gone to new work (services.assignment_update):
            # the form's object stands for it from here, to say so and go there.
            obj.rescheduled_from, obj.starts_on = saved.rescheduled_from, saved.starts_on
        else:
            data.pop("status", None)
            saved = services.assignment_create(actor=acting_user(request), **data)
        obj.pk = saved.pk

    def log_change(self, request: HttpRequest, obj: Assignment, message: Any) -> Any:
        """New days that went to new work (services.assignment_update) are
        logged on both, so each one's history says where the days went: the
        ended work that it ended, the new work that it was added."""
        ended = obj.rescheduled_from
        if ended is None:
            return super().log_change(request, obj, message)
        assert ended.ends_on is not None  # set on it by the split, to its last day
        values = {"date": formats.date_format(ended.ends_on, "l j F")}
        super().log_change(
            request, ended, _("Ended on %(date)s: the new days carry on as new work.") % values
        )
        return self.log_addition(
            request, obj, _("Added: carries on from the work ended on %(date)s.") % values
        )

    def response_change(self, request: HttpRequest, obj: Assignment) -> HttpResponse:
        """After new days, to the new work they went to, saying what happened
        to the days before (services.assignment_update)."""
        if obj.rescheduled_from is None:
            return super().response_change(request, obj)
        if obj.starts_on == client_today(obj.client):
            message = str(
                _("The new days count from today; what came before stays as it was asked.")
            )
        else:
            message = _(
                "The new days count from %(date)s; what came before stays as it was asked."
            ) % {"date": formats.date_format(obj.starts_on, "l j F")}
        self.message_user(request, message, messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:homework_assignment_change", args=[obj.pk]))

    def response_add(
        self, request: HttpRequest, obj: Assignment, post_url_continue: str | None = None
    ) -> HttpResponse:
        """Back to the client's page: that is where the therapist came from."""
        if "_addanother" in request.POST or "_continue" in request.POST or "_popup" in request.POST:
            return super().response_add(request, obj, post_url_continue)
        self.message_user(
            request,
            _("“%(exercise)s” is assigned to %(client)s: %(schedule)s.")
            % {
                "exercise": isolated_text(obj.exercise.title),
                "client": isolated_text(obj.client.display_name),
                "schedule": schedule_text(obj),
            },
            messages.SUCCESS,
        )
        return HttpResponseRedirect(reverse("admin:clients_client_change", args=[obj.client_id]))


class SharedFlagFilter(admin.SimpleListFilter):
    """The client's flags, on shared entries only: a private entry's flags are private too."""

    title = _("flags")
    parameter_name = "flag"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("unsafe", _("Felt unsafe")), ("discuss", _("To talk about in session"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "unsafe":
            return queryset.filter(private=False, felt_unsafe=True)
        if self.value() == "discuss":
            return queryset.filter(private=False, discuss_in_session=True)
        return queryset


@admin.register(Entry)
class EntryAdmin(RoleAdmin):
    """Clients' words are theirs: staff read entries, and never edit them."""

    instead_of_deleting = _(
        "A client's entries are never deleted here: they are the client's own words. "
        "The client decides what you see of them, and can keep any entry private."
    )

    list_display = ("exercise", "client", "sent", "flags", "excerpt", "read", "comments")
    stacks_on_a_phone = True
    list_filter = (
        EntryClientFilter,
        NewEntriesFilter,
        SharedFlagFilter,
        "assignment__exercise__kind",
    )
    search_fields = ("assignment__client__display_name", "assignment__exercise__title")
    date_hierarchy = "submitted_at"
    fields = ("exercise", "client", "sent", "flags", "first_read", "content")
    readonly_fields = fields
    change_form_template = "admin/homework/entry/change_form.html"

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "<path:object_id>/comment/",
                self.admin_site.admin_view(self.comment_view),
                name="homework_entry_comment",
            ),
            *super().get_urls(),
        ]

    def comment_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        return workspace.entry_comment(self, request, object_id)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Entry]:
        return (
            flags_first(entries_for_user(user=acting_user(request)))
            .select_related("assignment__exercise", "assignment__client")
            .annotate(comment_count=Count("comments"))
        )

    def get_ordering(self, request: HttpRequest) -> tuple[str, ...]:
        return ("-shared_unsafe", "-shared_discuss", "-submitted_at")

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """The list shows excerpts of clients' words: each client whose words
        are on the page gets a line in their access log."""
        response = super().changelist_view(request, extra_context)
        changelist = (getattr(response, "context_data", None) or {}).get("cl")
        if changelist is not None:
            # The page's own rows, read once: the template reuses them.
            services.entry_list_record_view(
                actor=acting_user(request), entries=changelist.result_list
            )
        return response

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """Opening an entry is reading it: the first read by the client's
        therapist fixes it (the client can no longer change what was read)."""
        entry = self.get_object(request, object_id)
        if entry is None:
            return super().change_view(request, object_id, form_url, extra_context)
        user = acting_user(request)
        services.entry_mark_seen(actor=user, entry=entry)
        extra = {
            "comments": list(entry.comments.select_related("author")),
            "can_comment": entry_commentable_by(user=user, entry=entry),
            "comment_form": EntryCommentForm(),
            "client": entry.assignment.client,
            **(extra_context or {}),
        }
        return super().change_view(request, object_id, form_url, extra)

    @admin.display(description=_("exercise"), ordering="assignment__exercise__title")
    def exercise(self, obj: Entry) -> str:
        return obj.assignment.exercise.title

    @admin.display(description=_("client"), ordering="assignment__client__display_name")
    def client(self, obj: Entry) -> str:
        return obj.assignment.client.display_name

    @admin.display(
        description=Entry._meta.get_field("submitted_at").verbose_name, ordering="submitted_at"
    )
    def sent(self, obj: Entry) -> str:
        # As the admin shows any time, then, if the client changed the entry
        # after sending it, when: what was read before may read differently now.
        sent = formats.localize(timezone.localtime(obj.submitted_at)) if obj.submitted_at else "—"
        return " · ".join(filter(None, [sent, changed_note(obj)]))

    @admin.display(description=_("flags"))
    def flags(self, obj: Entry) -> SafeString | str:
        if not entry_readable_by_staff(obj):
            return "—"  # a private entry's flags are the client's too
        if not (obj.felt_unsafe or obj.discuss_in_session):
            return "—"
        # Marked as on the admin home, so "felt unsafe" stands out here too.
        return render_to_string("admin/homework/partials/flag_badges.html", {"entry": obj})

    @admin.display(description=_("excerpt"))
    def excerpt(self, obj: Entry) -> str:
        if not entry_readable_by_staff(obj):
            return str(_("Private: kept by the client for themselves"))
        # The client's words in their own direction (Arabic, Hebrew) in a
        # list that runs left to right.
        return format_html(
            '<span dir="auto">{}</span>', get_kind(obj.assignment.exercise.kind).excerpt(obj)
        )

    @admin.display(description=_("read"), ordering="seen_at")
    def read(self, obj: Entry) -> str:
        # Words, not red and green icons: an unread entry is news, not an alarm.
        if not entry_readable_by_staff(obj):
            return "—"
        return str(_("read")) if obj.seen_at else str(_("new"))

    @admin.display(description=Entry._meta.get_field("seen_at").verbose_name)
    def first_read(self, obj: Entry) -> str:
        # Said here rather than as the field's help text, which promised the
        # client could still edit beside the very date that ended it.
        if obj.seen_at is None:
            return str(
                _("Not yet. Until their therapist reads it, the client may still change it.")
            )
        return str(
            _(
                "%(date)s. The client can no longer change what they sent; "
                "they can still add a note to it."
            )
            % {"date": formats.localize(timezone.localtime(obj.seen_at))}
        )

    @admin.display(description=_("comments"), ordering="comment_count")
    def comments(self, obj: Entry) -> int:
        return obj.comment_count  # type: ignore[attr-defined,no-any-return]

    @admin.display(description=_("what the client wrote"))
    def content(self, obj: Entry) -> SafeString:
        # Under the change form's h1 (the page) and h2 (the entry's name).
        return entry_html(obj, heading_level=3)
