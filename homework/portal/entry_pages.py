"""A sent entry's pages: reading, changing until read, private or shared, adding a note."""

import uuid

from django.contrib import messages
from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clients.decorators import client_required, is_archived_post
from clients.readers import NOW_SHARED
from homework import selectors, services
from homework.kinds import ResponseInvalid, get_kind
from homework.kinds.base import Shown
from homework.models import Assignment, Entry
from homework.portal.archived import refused_when_archived
from homework.portal.autosave_text import autosave_messages
from homework.portal.do_page import (
    render_conflict,
    render_do,
    render_invalid,
)
from homework.portal.forms import EntryEnvelopeForm, NoteForm, PrivacyForm, response_data
from practice.refusals import form_refused
from practice.requests import AuthedRequest


def _own_entry_or_404(request: AuthedRequest, key: uuid.UUID) -> Entry:
    try:
        return selectors.portal_entry_with_notes(user=request.user, key=key)
    except Entry.DoesNotExist:
        raise Http404 from None


@require_GET
@client_required
def entry_detail(request: AuthedRequest, key: uuid.UUID) -> HttpResponse:
    entry = _own_entry_or_404(request, key)
    if not entry.is_submitted:
        return redirect("homework:do", assignment_id=entry.assignment_id)
    return _render_entry(request, entry, NoteForm(kept=entry.note_draft))


def _render_entry(
    request: AuthedRequest,
    entry: Entry,
    note_form: NoteForm,
    *,
    status: int = 200,
    refused_words: bool = False,
) -> HttpResponse:
    kind = get_kind(entry.assignment.exercise.kind)
    return render(
        request,
        "homework/entry.html",
        {
            "entry": entry,
            # A plan, map or ladder changes as life does: any version sent can start the next.
            "can_update": kind.continues_last_sent
            and entry.assignment.status == Assignment.Status.ACTIVE,
            "display": render_to_string(
                kind.display_template,
                {"entry": entry, "heading_level": 2, **kind.present(entry)},
                request=request,
            ),
            "note_form": note_form,
            "refused_words": refused_words,
            # The note form's words when a send cannot go (send-guard.js).
            "autosave_messages": autosave_messages(),
        },
        status=status,
    )


def _keep_edit_when_archived(request: AuthedRequest, key: uuid.UUID) -> HttpResponse:
    def keep() -> bool:
        entry = services.entry_keep_refused_edit(
            user=request.user, key=key, data=response_data(request.POST), include_archived=True
        )
        return bool(entry.note_draft)

    return refused_when_archived(request, keep)


@require_http_methods(["GET", "POST"])
@client_required(takes_posts_when_archived=True)
def entry_edit(request: AuthedRequest, key: uuid.UUID) -> HttpResponse:
    if is_archived_post(request):
        return _keep_edit_when_archived(request, key)
    entry = _own_entry_or_404(request, key)
    if not entry.is_submitted:
        return redirect("homework:do", assignment_id=entry.assignment_id)
    if not entry.client_can_edit:
        if request.method == "POST":
            words = services.entry_edit_keep_words(
                user=request.user, key=entry.key, data=response_data(request.POST), entry=entry
            )
            return _edit_arrived_after_reading(request, entry, words)
        messages.info(
            request,
            _(
                "Your therapist has marked this as read, so it stays as it is. You can add a note below."
            ),
        )
        return redirect("homework:entry", key=entry.key)
    assignment = entry.assignment
    kind = get_kind(assignment.exercise.kind)
    if request.method == "GET":
        envelope = EntryEnvelopeForm(
            initial={
                "key": entry.key,
                "version": entry.version,
                "discuss_in_session": entry.discuss_in_session,
                "felt_unsafe": entry.felt_unsafe,
                "private": entry.private,
            }
        )
        initial = kind.upgrade(entry.response, entry.schema_version)
        form = kind.form(exercise=assignment.exercise, initial=initial, asked=entry.asked)
        return render_do(request, assignment, envelope, form, editing=entry)
    envelope = EntryEnvelopeForm(request.POST)
    data = response_data(request.POST)
    if envelope.is_valid() and envelope.cleaned_data["key"] != entry.key:
        envelope.add_error(None, _("This form belongs to another entry."))
    if not envelope.is_valid():
        form = kind.form(exercise=assignment.exercise, data=request.POST, asked=entry.asked)
        return render_do(
            request,
            assignment,
            envelope,
            form,
            status=400,
            editing=entry,
            refused_words=services.has_new_words(entry, data),
        )
    tried = services.entry_edit_or_keep_words(
        user=request.user,
        key=entry.key,
        base_version=envelope.cleaned_data["version"],
        data=data,
        flags=envelope.flags(),
        shown=Shown.from_post(request.POST),
    )
    refused, kept = tried.refused, tried.words
    if refused is None:
        messages.success(request, _("Your changes are saved."))
        return redirect("homework:entry", key=entry.key)
    assert kept is not None  # a refused change's words are always accounted for
    if isinstance(refused, ResponseInvalid):
        return render_invalid(
            request,
            assignment,
            envelope,
            refused,
            editing=entry,
            refused_words=kept.new_words,
        )
    if isinstance(refused, services.EntryConflict):
        return render_conflict(
            request,
            assignment,
            refused,
            data,
            envelope=envelope,
            editing=entry,
            kept_as_note=kept.kept and kept.new_words,
        )
    # EntryLocked: the therapist read it between this page's load and its post.
    return _edit_arrived_after_reading(request, _own_entry_or_404(request, key), kept)


def _edit_arrived_after_reading(
    request: AuthedRequest, entry: Entry, words: "services.KeptWords"
) -> HttpResponse:
    """The entry stays as it was; the new words wait in the note form, so none are lost."""
    note = NoteForm(initial={"text": words.note})
    if words.kept:
        said = _(
            "Your therapist has marked this as read, so it stays as it was. What you changed is in "
            "the note below, kept here for you: nobody at the practice sees it until you "
            "send it. Send it as it is, or change it first."
        )
    else:
        said = _(
            "Your therapist has marked this as read, so it stays as it was. What you changed is in "
            "the note below, only on this page: it is too long to keep for you. Shorten "
            "it and send it, or send it as two notes."
        )
    messages.info(request, said)
    return _render_entry(request, entry, note, status=409)


@require_POST
@client_required
def entry_privacy(request: AuthedRequest, key: uuid.UUID) -> HttpResponse:
    entry = _own_entry_or_404(request, key)
    form = PrivacyForm(request.POST)
    if not form.is_valid():
        return HttpResponse(_("Choose private or shared."), status=400, content_type="text/plain")
    try:
        entry = services.entry_set_private(
            user=request.user, key=entry.key, private=form.cleaned_data["private"]
        )
    except services.EntryLocked:
        messages.info(request, _("Your therapist has already read this, so it stays shared."))
    except ObjectDoesNotExist:
        raise Http404 from None
    else:
        messages.success(
            request,
            _("Now private: only you can read it.") if entry.private else NOW_SHARED,
        )
    return redirect("homework:entry", key=entry.key)


def _keep_note_when_archived(request: AuthedRequest, key: uuid.UUID) -> HttpResponse:
    def keep() -> bool:
        entry = services.entry_keep_note_draft(
            user=request.user,
            key=key,
            text=str(request.POST.get("text", "")),
            include_archived=True,
        )
        return bool(entry.note_draft)

    return refused_when_archived(request, keep)


@require_POST
@client_required(takes_posts_when_archived=True)
def entry_add_note(request: AuthedRequest, key: uuid.UUID) -> HttpResponse:
    if is_archived_post(request):
        return _keep_note_when_archived(request, key)
    entry = _own_entry_or_404(request, key)
    form = NoteForm(request.POST)
    try:
        tried = services.entry_add_note_or_keep_words(
            user=request.user,
            key=entry.key,
            text=form.cleaned_data["text"] if form.is_valid() else None,
            typed=str(request.POST.get("text", "")),
        )
    except ObjectDoesNotExist:
        raise Http404 from None
    if tried.note is not None:
        messages.success(request, _("Your note is added."))
        return redirect("homework:entry", key=entry.key)
    if tried.refused is not None:
        form.add_error(None, tried.refused)
    return form_refused(
        request,
        _render_entry(request, entry, form, status=400, refused_words=form.holds_words()),
    )
