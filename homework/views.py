"""The portal pages for doing homework. Thin: validate, call a service, render."""

import uuid
from typing import Any

from django.contrib import messages
from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clients.decorators import client_required
from homework import schedules, selectors, services
from homework.forms import EntryEnvelopeForm, response_data
from homework.kinds import ResponseInvalid, get_kind
from homework.models import Assignment, Entry
from practice.requests import AuthedRequest


@require_GET
@client_required
def dashboard(request: AuthedRequest) -> HttpResponse:
    return render(
        request,
        "homework/dashboard.html",
        {
            "today": timezone.localdate(),
            "todo": selectors.todo_for_client(user=request.user),
            "recent": selectors.recent_entries_for_client(user=request.user),
        },
    )


def _assignment_or_404(request: AuthedRequest, assignment_id: int) -> Assignment:
    try:
        return selectors.portal_assignment(user=request.user, assignment_id=assignment_id)
    except Assignment.DoesNotExist:
        raise Http404 from None


@require_http_methods(["GET", "POST"])
@client_required
def do_assignment(request: AuthedRequest, assignment_id: int) -> HttpResponse:
    """Show the exercise's form (continuing a draft if there is one) and take
    the finished entry."""
    assignment = _assignment_or_404(request, assignment_id)
    kind = get_kind(assignment.exercise.kind)
    if request.method == "POST":
        return _submit(request, assignment)
    draft = selectors.open_draft(user=request.user, assignment=assignment)
    if draft is None and not kind.is_log:
        done = _sent_for_todays_slot(request, assignment)
        if done is not None:
            return done
    envelope = EntryEnvelopeForm(
        initial={
            "key": draft.key if draft else uuid.uuid4(),
            "version": draft.version if draft else 0,
            "discuss_in_session": draft.discuss_in_session if draft else False,
            "felt_unsafe": draft.felt_unsafe if draft else False,
            "private": draft.private if draft else False,
        }
    )
    if draft is not None:
        initial = kind.upgrade(draft.response, draft.schema_version)
    else:
        previous = selectors.last_sent_entry(user=request.user, assignment=assignment)
        initial = kind.initial(exercise=assignment.exercise, previous=previous)
    form = kind.form(exercise=assignment.exercise, initial=initial)
    return _render_do(request, assignment, envelope, form, draft=draft)


def _sent_for_todays_slot(request: AuthedRequest, assignment: Assignment) -> HttpResponse | None:
    """A recurring exercise is done once per slot: if today's is sent, show it."""
    if not assignment.is_recurring:
        return None
    today = selectors.client_today(assignment.client)
    slot = schedules.slot_for(assignment, today)
    sent = slot and selectors.sent_for_slot(user=request.user, assignment=assignment, on=slot)
    if not sent:
        return None
    next_on = schedules.next_slot_after(assignment, today)
    if next_on:
        messages.info(
            request,
            _("You have already done this one. The next one opens on %(date)s.")
            % {"date": formats.date_format(next_on, "l j F")},
        )
    else:
        messages.info(request, _("You have already done this one. Here is what you sent."))
    return redirect("homework:entry", key=sent.key)


def _render_do(
    request: AuthedRequest,
    assignment: Assignment,
    envelope: EntryEnvelopeForm,
    form: Any,
    *,
    draft: Entry | None = None,
    status: int = 200,
    conflict: dict[str, Any] | None = None,
) -> HttpResponse:
    kind = get_kind(assignment.exercise.kind)
    return render(
        request,
        "homework/do.html",
        {
            "assignment": assignment,
            "kind": kind,
            "envelope": envelope,
            "form": form,
            "draft": draft,
            "conflict": conflict,
        },
        status=status,
    )


def _submit(request: AuthedRequest, assignment: Assignment) -> HttpResponse:
    kind = get_kind(assignment.exercise.kind)
    envelope = EntryEnvelopeForm(request.POST)
    data = response_data(request.POST)
    if not envelope.is_valid():
        form = kind.form(exercise=assignment.exercise, data=request.POST)
        return _render_do(request, assignment, envelope, form, status=400)
    try:
        entry = services.entry_submit(
            user=request.user,
            assignment_id=assignment.pk,
            key=envelope.cleaned_data["key"],
            base_version=envelope.cleaned_data["version"],
            data=data,
            flags=envelope.flags(),
        )
    except ResponseInvalid as invalid:
        form = kind.form(exercise=assignment.exercise, data=request.POST)
        with timezone.override(assignment.client.timezone):
            form.is_valid()  # the same rules, shown beside each field
        for key, messages_for_key in invalid.errors.items():
            if not form.owns_key(key):  # e.g. a field this exercise does not have
                form.add_error(None, f"{key}: {' '.join(messages_for_key)}")
        return _render_do(request, assignment, envelope, form, status=400)
    except services.EntryConflict as conflict:
        form = kind.form(exercise=assignment.exercise, data=request.POST)
        return _render_do(
            request,
            assignment,
            envelope,
            form,
            status=409,
            conflict=_conflict_context(conflict.entry, data),
        )
    except ObjectDoesNotExist:
        raise Http404 from None
    messages.success(request, _("Sent. Thank you for taking the time."))
    return redirect("homework:entry", key=entry.key)


def _conflict_context(entry: Entry, mine: dict[str, Any]) -> dict[str, Any]:
    """Both versions side by side, answer by answer, so nothing is lost."""
    kind = get_kind(entry.assignment.exercise.kind)
    return {
        "version": entry.version,
        "submitted": entry.is_submitted,
        "rows": kind.compare(
            exercise=entry.assignment.exercise,
            mine=mine,
            theirs=kind.upgrade(entry.response, entry.schema_version),
        ),
    }


@require_POST
@client_required
def autosave(request: AuthedRequest, assignment_id: int) -> JsonResponse:
    """Save a draft while the client types. Answers in JSON for the page's script."""
    assignment = _assignment_or_404(request, assignment_id)
    envelope = EntryEnvelopeForm(request.POST)
    if not envelope.is_valid():
        return JsonResponse({"errors": envelope.errors}, status=400)
    data = response_data(request.POST)
    try:
        entry = services.entry_save_draft(
            user=request.user,
            assignment_id=assignment.pk,
            key=envelope.cleaned_data["key"],
            base_version=envelope.cleaned_data["version"],
            data=data,
            flags=envelope.flags(),
        )
    except ResponseInvalid as invalid:
        return JsonResponse({"errors": invalid.errors}, status=400)
    except services.EntryConflict as conflict:
        return JsonResponse({"conflict": _conflict_context(conflict.entry, data)}, status=409)
    except ObjectDoesNotExist:
        raise Http404 from None
    return JsonResponse({"version": entry.version, "saved_at": entry.updated_at.isoformat()})


@require_GET
@client_required
def entry_detail(request: AuthedRequest, key: uuid.UUID) -> HttpResponse:
    try:
        entry = selectors.portal_entry(user=request.user, key=key)
    except Entry.DoesNotExist:
        raise Http404 from None
    if not entry.is_submitted:
        return redirect("homework:do", assignment_id=entry.assignment_id)
    kind = get_kind(entry.assignment.exercise.kind)
    shown = kind.present(entry)
    # The kind's display template reads its context at the top level, as
    # in the admin and the export.
    return render(
        request,
        "homework/entry.html",
        {**shown, "entry": entry, "kind": kind, "shown": shown},
    )


@require_GET
@client_required
def history(request: AuthedRequest) -> HttpResponse:
    entries = selectors.recent_entries_for_client(user=request.user, limit=200)
    return render(request, "homework/history.html", {"entries": entries})


@require_GET
@client_required
def progress(request: AuthedRequest) -> HttpResponse:
    """The client's own pictures: urge curve, ladder, map, check-in totals."""
    sections = []
    for assignment, entries in selectors.progress_for_client(user=request.user):
        kind = get_kind(assignment.exercise.kind)
        context = kind.progress_context(assignment=assignment, entries=entries)
        if context is not None:
            sections.append(
                {"template": kind.progress_template, "assignment": assignment, "data": context}
            )
    return render(request, "homework/progress.html", {"sections": sections})
