"""Doing an exercise: its page, sending it, and the autosave, from an open or leaving page."""

import uuid
from typing import Any

from django.contrib import messages
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils import formats
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clients.decorators import client_required, is_archived_post
from homework import schedules, selectors, services
from homework.kinds import ResponseInvalid, get_kind
from homework.kinds.base import Shown
from homework.models import Assignment, Entry
from homework.portal.archived import refused_when_archived
from homework.portal.autosave_text import saved_time
from homework.portal.do_page import (
    START_FROM_NEWEST,
    conflict_context,
    render_conflict,
    render_do,
    render_invalid,
)
from homework.portal.forms import EntryEnvelopeForm, NoteForm, response_data
from practice.models import User
from practice.refusals import form_refused
from practice.requests import AuthedRequest


def _keep_draft_when_archived(request: AuthedRequest, assignment_id: int) -> HttpResponse:
    def keep() -> bool:
        save_draft_from_post(user=request.user, assignment_id=assignment_id, post=request.POST)
        return True

    return refused_when_archived(request, keep)


def _assignment_or_404(
    request: AuthedRequest, assignment_id: int, *, for_writing: bool = False
) -> Assignment:
    try:
        return selectors.portal_assignment(
            user=request.user, assignment_id=assignment_id, for_writing=for_writing
        )
    except Assignment.DoesNotExist:
        raise Http404 from None


@require_http_methods(["GET", "POST"])
@client_required(takes_posts_when_archived=True)
def do_assignment(request: AuthedRequest, assignment_id: int) -> HttpResponse:
    if is_archived_post(request):
        return _keep_draft_when_archived(request, assignment_id)
    # Work closed since still takes what the client was writing.
    assignment = _assignment_or_404(request, assignment_id, for_writing=True)
    kind = get_kind(assignment.exercise.kind)
    if request.method == "POST":
        return _submit(request, assignment)
    this_page = _entry_of_this_page(request, assignment)
    if this_page is not None and this_page.is_submitted:
        # Back after sending: what was sent, never a blank form that reads as lost words.
        messages.info(request, _("This was sent. Here it is, just as you sent it."))
        return redirect("homework:entry", key=this_page.key)
    draft = this_page or selectors.open_draft(user=request.user, assignment=assignment)
    if draft is None and assignment.status != Assignment.Status.ACTIVE:
        raise Http404
    # A one-off plan, map or ladder sent is done, and still takes an update.
    updatable = kind.continues_last_sent and not assignment.is_recurring
    if draft is None and not kind.is_log and not updatable:
        done = _already_done(request, assignment)
        if done is not None:
            return done
    # "Use the newer version": the page starts from it, and its first save replaces the draft.
    from_newest = kind.continues_last_sent and request.GET.get("start") == START_FROM_NEWEST
    resumed = draft if draft is not None and not from_newest else None
    envelope = EntryEnvelopeForm(
        initial={
            "key": draft.key if draft else uuid.uuid4(),
            "version": draft.version if draft else 0,
            "sent_count_seen": _sent_count_seen(request, assignment, resumed=resumed),
            "discuss_in_session": draft.discuss_in_session if draft else False,
            "felt_unsafe": draft.felt_unsafe if draft else False,
            "private": draft.private if draft else False,
        }
    )
    if resumed is not None:
        initial = kind.upgrade(resumed.response, resumed.schema_version)
    else:
        previous = selectors.last_sent_entry(user=request.user, assignment=assignment)
        initial = kind.initial(exercise=assignment.exercise, previous=previous)
    form = kind.form(
        exercise=assignment.exercise, initial=initial, asked=resumed.asked if resumed else None
    )
    return render_do(request, assignment, envelope, form, draft=resumed)


def _entry_of_this_page(request: AuthedRequest, assignment: Assignment) -> Entry | None:
    try:
        key = uuid.UUID(request.GET.get("key", ""))
    except ValueError:
        return None
    return selectors.own_entry_under_key(user=request.user, assignment=assignment, key=key)


def _sent_count_seen(
    request: AuthedRequest, assignment: Assignment, *, resumed: Entry | None
) -> int | None:
    if not get_kind(assignment.exercise.kind).continues_last_sent:
        return None
    if resumed is not None:
        return resumed.sent_when_opened
    return selectors.sent_count(user=request.user, assignment=assignment)


def _already_done(request: AuthedRequest, assignment: Assignment) -> HttpResponse | None:
    """Done work opened by its address shows what was sent, not a blank copy that reads as lost."""
    today = selectors.client_today(assignment.client)
    if assignment.is_recurring:
        slot = schedules.slot_for(assignment, today)
        sent = slot and selectors.sent_for_slot(user=request.user, assignment=assignment, on=slot)
        next_on = schedules.next_slot_after(assignment, today)
    else:
        sent = selectors.last_sent_entry(user=request.user, assignment=assignment)
        # Something was sent (``sent=1``); is it done, or still open to add another?
        if (
            sent
            and not schedules.one_off_standing(
                sent=1, due_on=assignment.due_on, today=today, is_log=False
            ).done_for_client
        ):
            return None
        next_on = None
    if not sent:
        return None
    if next_on:
        messages.info(
            request,
            _("You have already done this one. The next one opens on %(date)s.")
            % {"date": formats.date_format(next_on, "WEEKDAY_DATE_FORMAT")},
        )
    else:
        messages.info(request, _("You have already done this one. Here is what you sent."))
    return redirect("homework:entry", key=sent.key)


def _submit(request: AuthedRequest, assignment: Assignment) -> HttpResponse:
    kind = get_kind(assignment.exercise.kind)
    envelope = EntryEnvelopeForm(request.POST)
    data = response_data(request.POST)
    if not envelope.is_valid():
        form = kind.form(exercise=assignment.exercise, data=request.POST)
        return render_do(request, assignment, envelope, form, status=400)
    try:
        entry = services.entry_submit(
            user=request.user,
            assignment_id=assignment.pk,
            key=envelope.cleaned_data["key"],
            base_version=envelope.cleaned_data["version"],
            data=data,
            flags=envelope.flags(),
            shown=Shown.from_post(request.POST),
            sent_count_seen=envelope.cleaned_data["sent_count_seen"],
        )
    except ResponseInvalid as invalid:
        return render_invalid(request, assignment, envelope, invalid)
    except services.EntryConflict as conflict:
        return render_conflict(request, assignment, conflict, data, envelope=envelope)
    except ObjectDoesNotExist:
        raise Http404 from None
    messages.success(request, _("Sent. Thank you for taking the time."))
    return redirect("homework:entry", key=entry.key)


def save_draft_from_post(*, user: User, assignment_id: int, post: Any) -> Entry:
    envelope = EntryEnvelopeForm(post)
    if not envelope.is_valid():
        raise ValidationError(envelope.errors.as_text())
    return services.entry_save_draft(
        user=user,
        assignment_id=assignment_id,
        key=envelope.cleaned_data["key"],
        base_version=envelope.cleaned_data["version"],
        data=response_data(post),
        flags=envelope.flags(),
        shown=Shown.from_post(post),
        page_save=envelope.page_save(),
        # The page is going and cannot show a choice: the words are kept, and the choice waits.
        sent_count_seen=envelope.cleaned_data["sent_count_seen"],
        leaving=True,
    )


def save_edit_from_post(*, user: User, post: Any) -> services.EditTried:
    envelope = EntryEnvelopeForm(post)
    if not envelope.is_valid():
        raise ValidationError(envelope.errors.as_text())
    return services.entry_edit_or_keep_words(
        user=user,
        key=envelope.cleaned_data["key"],
        base_version=envelope.cleaned_data["version"],
        data=response_data(post),
        flags=envelope.flags(),
        shown=Shown.from_post(post),
        leaving=True,
    )


def save_note_from_post(*, user: User, post: Any) -> None:
    key = uuid.UUID(str(post.get("key", "")))  # ValueError for anything else
    note = NoteForm(post)
    services.entry_add_note_or_keep_words(
        user=user,
        key=key,
        text=note.cleaned_data["text"] if note.is_valid() else None,
        typed=str(post.get("text", "")),
        leaving=True,
    )


@require_POST
@client_required(takes_posts_when_archived=True)
def autosave(request: AuthedRequest, assignment_id: int) -> HttpResponse:
    if is_archived_post(request):
        return _keep_draft_when_archived(request, assignment_id)
    assignment = _assignment_or_404(request, assignment_id, for_writing=True)
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
            shown=Shown.from_post(request.POST),
            page_save=envelope.page_save(),
            sent_count_seen=envelope.cleaned_data["sent_count_seen"],
            leaving=envelope.cleaned_data["leaving"],
        )
    except ResponseInvalid as invalid:
        return form_refused(request, JsonResponse({"errors": invalid.errors}, status=400))
    except services.EntryConflict as conflict:
        context = conflict_context(conflict, data, envelope=envelope, user=request.user)
        return JsonResponse({"conflict": context}, status=409)
    except ObjectDoesNotExist:
        raise Http404 from None
    return JsonResponse(
        {
            "version": entry.version,
            "saved_at": entry.updated_at.isoformat(),
            "saved_time": saved_time(entry.updated_at),
        }
    )
