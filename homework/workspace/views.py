"""The therapist's workspace pages in the admin: thin views over selectors and services."""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.clickjacking import xframe_options_sameorigin

from clients.models import Client, Session
from clients.selectors import NO_EARLIER_SESSION_WEEKS, session_window
from homework import selectors, services
from homework.kinds import get_kind
from homework.models import Assignment, Entry
from homework.schedules import Tally
from homework.selectors.period import latest_day, period_for_window, practice_date
from homework.selectors.work_in_period import recurring_in_period
from homework.summary.render import summary_context
from homework.summary.selectors import staff_timeline, summary_data
from homework.summary.views import DatesForm
from homework.workspace.display import entry_html, reminder_waits_warning, schedule_text
from homework.workspace.entry_walk import FROM_SINCE_LAST_SESSION
from homework.workspace.forms import BulkAssignForm, EntryCommentForm, normalise_schedule
from homework.workspace.reading import back_to, to_mark_read
from practice.admin_access import not_found
from practice.bidi import isolated_text
from practice.dates import where_clocks_differ
from practice.refusals import form_refused
from practice.requests import acting_user, parse_id

if TYPE_CHECKING:
    from django.http import QueryDict

    from practice.models import User

if TYPE_CHECKING:
    AdminOf = admin.ModelAdmin[Any]
else:
    AdminOf = admin.ModelAdmin


@dataclass(frozen=True)
class GlanceRow:
    """One assignment in "Homework at a glance"."""

    assignment: Assignment
    progress: selectors.AssignmentProgress  # over its whole schedule so far
    schedule: str
    # Recurring work: the window's count, the session summary's for the same period.
    in_window: Tally | None
    began_before: bool  # begun before the window

    @property
    def counts_window(self) -> bool:
        """The window's count is said once the work began before the window."""
        return self.in_window is not None and (self.began_before or bool(self.in_window.expected))

    @property
    def counts_whole(self) -> bool:
        """Also say the whole schedule's count where it differs from the window's."""
        return self.progress.is_recurring and (self.began_before or not self.counts_window)


def since_last_session(model_admin: AdminOf, request: HttpRequest, object_id: str) -> HttpResponse:
    """What came back since the client's previous session, as the session summary reads it."""
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET"])
    user = acting_user(request)
    try:
        client = selectors.staff_client(user=user, client_id=object_id)
    except (Client.DoesNotExist, ValueError, ValidationError):
        return not_found(model_admin, request, object_id)
    now = timezone.now()
    window = session_window(client=client, now=now)
    services.since_last_session_record_view(actor=user, client=client)
    report = selectors.since_last_session(user=user, client=client, window=window)
    upcoming = window.upcoming.starts_at if window.upcoming is not None else None
    # What came back is the session summary's own reading of the same period.
    period = period_for_window(window)
    summary = summary_context(
        summary_data(user=user, client=client, period=period, full_detail=False, now=now)
    )
    shown = summary["data"].entries
    # Each recurring assignment counted over the window as the session summary counts a period.
    first_day = selectors.client_today(client, window.start)
    in_window = recurring_in_period(
        [a for a, progress in report.assignments if progress.is_recurring],
        client=client,
        period=period,
        now=now,
    )
    glance = [
        GlanceRow(a, c, schedule_text(a), in_window.get(a.pk), a.starts_on < first_day)
        for a, c in report.assignments
    ]
    context = {
        **model_admin.admin_site.each_context(request),
        **summary,
        "opts": model_admin.opts,
        "title": _("Since last session: %(client)s")
        % {"client": isolated_text(client.display_name)},
        "client": client,
        "report": report,
        "no_earlier_session_weeks": NO_EARLIER_SESSION_WEEKS,
        "upcoming_their_time": _in_client_time_zone_if_not_ours(report.window.upcoming, client),
        "shared_entries": shown,
        "link_entries": True,
        # Each entry opens with the ones before and after it here (entry_walk).
        "entry_query": f"?from={FROM_SINCE_LAST_SESSION}",
        # What the page shows: the period's entries, and the flags carried from before it.
        "to_mark_read": to_mark_read(
            user,
            client,
            [*shown, *summary["data"].unsafe_before, *summary["data"].review_before],
        ),
        "assignments": glance,
        # The cycle on one timeline, as the summary draws it (summary.selectors).
        "timeline": staff_timeline(
            report.entries,
            client=client,
            since=first_day,
            until=selectors.client_today(client, window.end),
        ),
        "counts_window": any(row.counts_window for row in glance),
        "here": request.get_full_path(),
        # The pickers' last day, from the session this page already names as next.
        "dates_form": DatesForm(
            latest=latest_day(today=practice_date(now), next_session_at=upcoming)
        ),
    }
    return TemplateResponse(request, "admin/clients/client/since_last_session.html", context)


def _in_client_time_zone_if_not_ours(session: Session | None, client: Client) -> str:
    """When ``session`` starts on the client's clock, where that differs from the practice's."""
    if session is None:
        return ""
    return where_clocks_differ(
        session.starts_at, client.timezone, "WEEKDAY_MONTH_DAY_TIME_FORMAT", marked=False
    )


def entry_comment(model_admin: AdminOf, request: HttpRequest, object_id: str) -> HttpResponse:
    """Save the therapist's note on an entry; on a refusal, say why and keep the text."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    user = acting_user(request)
    try:
        entry = selectors.staff_entry(user=user, entry_id=object_id)
    except (Entry.DoesNotExist, ValueError, ValidationError):
        return not_found(model_admin, request, object_id)
    back = back_to(request, reverse("admin:homework_entry_change", args=[entry.pk]))
    form = EntryCommentForm(request.POST)
    if form.is_valid():
        try:
            services.entry_comment_add(actor=user, entry=entry, text=form.cleaned_data["text"])
        except ValidationError as refused:
            for message in refused.messages:
                form.add_error("text", message)
        except PermissionDenied as refused:
            messages.error(request, str(refused))
            return HttpResponseRedirect(back)
        else:
            messages.success(
                request,
                _("Comment saved. %(client)s will see it beside their entry.")
                % {"client": isolated_text(entry.assignment.client.display_name)},
            )
            return HttpResponseRedirect(back)
    # The page shows the entry again beside the comment: a look like any other.
    services.entry_record_view(actor=user, entry=entry)
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "title": _("Your comment needs another look"),
        "entry": entry,
        "entry_html": entry_html(entry, heading_level=3),
        "comment_form": form,
        "next": back,
    }
    return form_refused(
        request,
        TemplateResponse(request, "admin/homework/entry/comment.html", context, status=400),
    )


@xframe_options_sameorigin
def assignment_preview(model_admin: AdminOf, request: HttpRequest) -> HttpResponse:
    """The exercise as the client will see it, from the assignment form as it stands."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    context = _preview_context(user=acting_user(request), data=request.POST)
    # An exercise outside the therapist's library is refused as one that does not exist.
    status = 404 if context.get("not_yours") else 200
    return TemplateResponse(
        request, "admin/homework/assignment/preview.html", context, status=status
    )


def assignment_preview_html(request: HttpRequest) -> str:
    """The same preview, drawn into the assignment form the admin shows again
    after refusing a save: the frame shows the kept input straight away
    instead of waiting for the next change to ask for it."""
    context = _preview_context(user=acting_user(request), data=request.POST)
    return render_to_string("admin/homework/assignment/preview.html", context, request=request)


def saved_assignment_preview_html(request: HttpRequest, assignment: Assignment) -> str:
    """The preview of work as saved, drawn into its change page as it opens."""
    context = preview_of(assignment)
    return render_to_string("admin/homework/assignment/preview.html", context, request=request)


def _preview_context(*, user: "User", data: "QueryDict") -> dict[str, Any]:
    exercise_id = parse_id(data.get("exercise"))
    exercise = (
        selectors.exercises_for_user(user=user).filter(pk=exercise_id).first()
        if exercise_id is not None
        else None
    )
    if exercise is None:
        return {"exercise": None, "not_yours": bool(data.get("exercise"))}
    form = BulkAssignForm(data, exercises=selectors.exercises_for_user(user=user))
    form.is_valid()  # a half-filled form still previews; errors show in the form itself
    cleaned = dict(form.cleaned_data)
    normalise_schedule(cleaned)
    sample = Assignment(
        exercise=exercise,
        instructions=(data.get("instructions") or "").strip(),
        schedule=cleaned.get("schedule") or Assignment.Schedule.ONCE,
        weekdays=cleaned.get("weekdays") or [],
        days_before=cleaned.get("days_before"),
        due_on=cleaned.get("due_on"),
        ends_on=cleaned.get("ends_on"),
    )
    if cleaned.get("starts_on") is not None:
        sample.starts_on = cleaned["starts_on"]
        sample.weekdays_default_to_start()
    return preview_of(sample)


def preview_of(assignment: Assignment) -> dict[str, Any]:
    """What the preview template draws: ``assignment`` (saved or not) as its client sees it."""
    exercise = assignment.exercise
    kind = get_kind(exercise.kind)
    return {
        "exercise": exercise,
        "assignment": assignment,
        "schedule": schedule_text(assignment),
        "kind": kind,
        "form": kind.form(exercise=exercise, initial=kind.initial(exercise=exercise)),
    }


def assign_to_clients(
    model_admin: AdminOf, request: HttpRequest, queryset: QuerySet[Client]
) -> HttpResponse | None:
    """Choose an exercise and schedule, then assign it to every selected client, all or none."""
    user = acting_user(request)
    selected = set(request.POST.getlist(ACTION_CHECKBOX_NAME))
    clients = list(queryset.select_related("contact_profile").order_by("display_name"))
    if request.POST.get("select_across") != "1" and len(clients) != len(selected):
        messages.error(
            request,
            _("Some of the chosen clients are not yours to assign to. Nothing was assigned."),
        )
        return None
    exercises = selectors.exercises_for_user(user=user).filter(is_active=True)
    form = BulkAssignForm(
        request.POST if "apply" in request.POST else None,
        exercises=exercises,
        clients=clients,
        acting_user=user,
        initial={"schedule": Assignment.Schedule.ONCE},
    )
    if "apply" in request.POST and form.is_valid():
        details = {name: form.cleaned_data[name] for name in form.Meta.fields}
        try:
            made = services.assignment_create_many(actor=user, clients=clients, **details)
        except PermissionDenied as refused:
            messages.error(request, _("%(reason)s Nothing was assigned.") % {"reason": refused})
            return None
        except ValidationError as refused:
            # On the field to change where the form has it, the rest above the form.
            if hasattr(refused, "error_dict"):
                for name, field_messages in refused.message_dict.items():
                    form.add_error(
                        name if name in form.fields else None, ValidationError(field_messages)
                    )
            else:
                form.add_error(None, ValidationError(refused.messages))
            form.add_error(None, _("Nothing was assigned."))
        else:
            messages.success(
                request,
                ngettext(
                    "“%(exercise)s” was assigned to %(count)d client.",
                    "“%(exercise)s” was assigned to %(count)d clients.",
                    len(made),
                )
                % {"exercise": details["exercise"].title, "count": len(made)},
            )
            for assignment in made:
                if warning := reminder_waits_warning(assignment):
                    messages.warning(request, warning)
            return None
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "title": _("Assign an exercise to several clients"),
        "clients": clients,
        "form": form,
        "media": model_admin.media + form.media,
        "action_checkbox_name": ACTION_CHECKBOX_NAME,
        "library_instructions": {e.pk: e.instructions for e in exercises},
    }
    return TemplateResponse(request, "admin/clients/client/assign_many.html", context)
