"""Work set for a client in the admin."""

import datetime as dt
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, path, reverse
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from clients.admin.filters import ScopedClientFilter
from clients.models import Client
from clients.selectors import clients_for_user
from homework import services
from homework.kinds import get_kind
from homework.models import Assignment, Exercise
from homework.selectors import assignments_for_user, client_today, exercises_for_user
from homework.selectors.library_languages import offered_versions, reading_language
from homework.workspace import views
from homework.workspace.display import reminder_waits_warning, schedule_text
from homework.workspace.filters import PastDueFilter
from homework.workspace.forms import ASSIGNMENT_FIELDS, AssignmentForm, kind_assignment_fields
from homework.workspace.library_picker import LibraryChoiceField
from practice.admin_access import RoleAdmin
from practice.bidi import isolated_text
from practice.dates import as_zone
from practice.requests import acting_user, parse_id


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
    list_select_related = ("exercise", "client")
    change_form_template = "admin/homework/assignment/change_form.html"
    actions = ("end_today",)

    @admin.action(description=_("End the chosen open-ended work today"))
    def end_today(self, request: HttpRequest, queryset: QuerySet[Assignment]) -> None:
        """Work set "until I stop it" stops here."""
        ended = 0
        for assignment in queryset.select_related("client", "exercise"):
            try:
                services.assignment_end(actor=acting_user(request), assignment=assignment)
            except ValidationError:
                continue
            self.log_change(request, assignment, _("Ended today: it no longer repeats."))
            ended += 1
        if ended:
            self.message_user(
                request,
                ngettext(
                    "%(count)d piece of work ends today.",
                    "%(count)d pieces of work end today.",
                    ended,
                )
                % {"count": ended},
                messages.SUCCESS,
            )
        else:
            self.message_user(
                request,
                _("Nothing was changed: only work that repeats with no last day can be ended."),
                messages.INFO,
            )

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
        return views.assignment_preview(self, request)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Assignment]:
        return assignments_for_user(user=acting_user(request)).select_related("exercise", "client")

    def get_fieldsets(self, request: HttpRequest, obj: Assignment | None = None) -> Any:
        # Saved work shows only what its kind uses; a new form offers them all, the page's script
        # showing each only for an exercise whose kind uses it.
        extra = get_kind(obj.exercise.kind).assignment_fields if obj else kind_assignment_fields()
        return (
            (None, {"fields": ("client", "exercise", "language_confirmed", *extra)}),
            (_("What the client reads"), {"fields": ("instructions",)}),
            (
                _("When"),
                {
                    "fields": (
                        "schedule",
                        "starts_on",
                        "due_on",
                        "weekdays",
                        "days_before",
                        "ends_on",
                    )
                },
            ),
            *([(_("More"), {"fields": ("status",), "classes": ("collapse",)})] if obj else []),
        )

    def get_readonly_fields(
        self, request: HttpRequest, obj: Assignment | None = None
    ) -> tuple[str, ...]:
        # An assignment stays with its client (its entries hang on it), archived or not.
        return ("client",) if obj is not None else ()

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        """Today, and due by the client's next session."""
        initial: dict[str, Any] = dict(super().get_changeform_initial_data(request))
        client_id = parse_id(initial.get("client"))
        client = (
            clients_for_user(user=acting_user(request)).filter(pk=client_id).first()
            if client_id is not None
            else None
        )
        # Daily work set on the practice's evening starts on a far-east client's tomorrow.
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
        form: Any = super().get_form(request, obj, change, **kwargs)
        user = acting_user(request)
        form.acting_user = user
        field = form.base_fields.get("exercise")
        if not isinstance(field, LibraryChoiceField):
            return form
        if obj is not None:
            # Work set with an exercise since retired keeps it on offer.
            offered = field.queryset if field.queryset is not None else Exercise.objects.none()
            field.queryset = offered | Exercise.objects.filter(pk=obj.exercise_id)
        client = obj.client if obj is not None else self._client_chosen(request)
        if client is not None:
            chosen = {obj.exercise_id if obj is not None else None}
            chosen.add(parse_id(request.POST.get("exercise")))
            field.for_reader(
                reading_language(client),
                among=offered_versions(user=user),
                keep=frozenset(pk for pk in chosen if pk is not None),
            )
        return form

    def _client_chosen(self, request: HttpRequest) -> Client | None:
        """The client the add form is for (the link from their page, or the form as posted), so
        the picker can put what they read first."""
        client_id = parse_id(request.POST.get("client") or request.GET.get("client"))
        if client_id is None:
            return None
        return clients_for_user(user=acting_user(request)).filter(pk=client_id).first()

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "client":
            kwargs["queryset"] = clients_for_user(user=acting_user(request)).filter(
                status=Client.Status.ACTIVE
            )
        elif db_field.name == "exercise":
            kwargs["queryset"] = exercises_for_user(user=acting_user(request)).filter(
                is_active=True
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
        library = list(exercises_for_user(user=acting_user(request)).filter(is_active=True))
        extra = {
            "library_instructions": {e.pk: e.instructions for e in library},
            "library_fields": {
                "all": kind_assignment_fields(),
                "exercises": {e.pk: get_kind(e.kind).assignment_fields for e in library},
            },
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
        # Drawn for a post only after a refused save, so the preview matches the form as left.
        if request.method == "POST":
            context["preview_html"] = views.assignment_preview_html(request)
        elif isinstance(obj, Assignment):
            context["preview_html"] = views.saved_assignment_preview_html(request, obj)
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
            # New days may have gone to new work.
            obj.rescheduled_from, obj.starts_on = saved.rescheduled_from, saved.starts_on
        else:
            data.pop("status", None)
            saved = services.assignment_create(actor=acting_user(request), **data)
        obj.pk = saved.pk

    def log_change(self, request: HttpRequest, obj: Assignment, message: Any) -> Any:
        """New days that went to new work are logged on both, so each history says where."""
        ended = obj.rescheduled_from
        if ended is None:
            return super().log_change(request, obj, message)
        assert ended.ends_on is not None  # set on it by the split, to its last day
        values = {"date": formats.date_format(ended.ends_on, "WEEKDAY_DATE_FORMAT")}
        super().log_change(
            request, ended, _("Ended on %(date)s: the new days carry on as new work.") % values
        )
        return self.log_addition(
            request, obj, _("Added: carries on from the work ended on %(date)s.") % values
        )

    def response_change(self, request: HttpRequest, obj: Assignment) -> HttpResponse:
        """After new days, to the new work they went to, saying what happened to the days before."""
        if obj.rescheduled_from is None:
            return super().response_change(request, obj)
        if obj.starts_on == client_today(obj.client):
            message = str(
                _("The new days count from today; what came before stays as it was asked.")
            )
        else:
            message = _(
                "The new days count from %(date)s; what came before stays as it was asked."
            ) % {"date": formats.date_format(obj.starts_on, "WEEKDAY_DATE_FORMAT")}
        self.message_user(request, message, messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:homework_assignment_change", args=[obj.pk]))

    def response_add(
        self, request: HttpRequest, obj: Assignment, post_url_continue: str | None = None
    ) -> HttpResponse:
        """Back to the client's page: that is where the therapist came from."""
        self._warn_if_reminder_waits(request, obj)
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

    def _warn_if_reminder_waits(self, request: HttpRequest, obj: Assignment) -> None:
        warning = reminder_waits_warning(obj)
        if warning:
            self.message_user(request, warning, messages.WARNING)
