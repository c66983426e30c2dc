"""The page that fills an exercise: drawn, refused field by field, or showing a conflict."""

import uuid
from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from homework import selectors, services
from homework.kinds import ResponseInvalid, get_kind
from homework.models import Assignment, Entry
from homework.portal.autosave_text import autosave_messages, saved_time
from homework.portal.forms import EntryEnvelopeForm
from practice.models import User
from practice.refusals import form_refused
from practice.requests import AuthedRequest

# ``start`` opens continuing work on the newest entry, over a draft begun from an older one.
START_FROM_NEWEST = "newest"


def render_do(
    request: AuthedRequest,
    assignment: Assignment,
    envelope: EntryEnvelopeForm,
    form: Any,
    *,
    draft: Entry | None = None,
    status: int = 200,
    conflict: dict[str, Any] | None = None,
    editing: Entry | None = None,
    refused_words: bool = False,
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
            "draft_saved_time": saved_time(draft.updated_at) if draft else "",
            "conflict": conflict,
            "editing": editing,
            "refused_words": refused_words,
            "autosave_messages": autosave_messages(),
        },
        status=status,
    )


def envelope_after_conflict(post: Any, conflict: dict[str, Any]) -> EntryEnvelopeForm:
    """Sending again keeps this page's text, so nothing is lost."""
    data = post.copy()
    if conflict["sent_count_seen"] is not None:
        data["sent_count_seen"] = str(conflict["sent_count_seen"])
    if conflict["submitted"]:
        data["key"], data["version"] = conflict["fresh_key"], "0"
    else:  # the other draft may be another key's (a second tab's first save)
        data["key"], data["version"] = conflict["key"], str(conflict["version"])
    envelope = EntryEnvelopeForm(data)
    envelope.is_valid()
    return envelope


def render_invalid(
    request: AuthedRequest,
    assignment: Assignment,
    envelope: EntryEnvelopeForm,
    invalid: ResponseInvalid,
    *,
    editing: Entry | None = None,
    refused_words: bool = False,
) -> HttpResponse:
    kind = get_kind(assignment.exercise.kind)
    form = kind.form(
        exercise=assignment.exercise,
        data=request.POST,
        asked=editing.asked if editing is not None else None,
    )
    with timezone.override(assignment.client.timezone):
        form.is_valid()  # the same rules, shown beside each field
    for key, messages_for_key in invalid.errors.items():
        if not form.owns_key(key):  # e.g. a field this exercise does not have
            form.add_error(None, f"{key}: {' '.join(messages_for_key)}")
    return form_refused(
        request,
        render_do(
            request,
            assignment,
            envelope,
            form,
            status=400,
            editing=editing,
            refused_words=refused_words,
        ),
    )


def render_conflict(
    request: AuthedRequest,
    assignment: Assignment,
    conflict: "services.EntryConflict",
    mine: dict[str, Any],
    *,
    envelope: EntryEnvelopeForm,
    editing: Entry | None = None,
    kept_as_note: bool = False,
) -> HttpResponse:
    kind = get_kind(assignment.exercise.kind)
    form = kind.form(exercise=assignment.exercise, data=request.POST)
    context = conflict_context(conflict, mine, envelope=envelope, user=request.user)
    if editing is not None:
        context["submitted"] = False
        context["kept_as_note"] = kept_as_note
    return render_do(
        request,
        assignment,
        envelope_after_conflict(request.POST, context),
        form,
        status=409,
        conflict=context,
        editing=editing,
    )


def conflict_context(
    conflict: "services.EntryConflict",
    mine: dict[str, Any],
    *,
    envelope: EntryEnvelopeForm,
    user: User,
) -> dict[str, Any]:
    entry = conflict.entry
    assignment = entry.assignment
    kind = get_kind(assignment.exercise.kind)
    updated_since = isinstance(conflict, services.EntrySentSince)
    sent_count_seen = None
    if envelope.cleaned_data["sent_count_seen"] is not None:
        sent_count_seen = selectors.sent_count(user=user, assignment=assignment)
    own_key, own_version = envelope.cleaned_data["key"], envelope.cleaned_data["version"]
    return {
        "key": str(own_key if updated_since else entry.key),
        "version": own_version if updated_since else entry.version,
        "submitted": entry.is_submitted and not updated_since,
        "updated_since": updated_since,
        "begun_since_opened": own_version == 0 and not entry.is_submitted and not updated_since,
        "sent_count_seen": sent_count_seen,
        "fresh_key": str(uuid.uuid4()),
        "sent_url": reverse("homework:entry", args=[entry.key]),
        "newer_url": reverse("homework:do", args=[assignment.pk]) + f"?start={START_FROM_NEWEST}",
        "rows": kind.compare(
            exercise=assignment.exercise,
            mine=mine,
            theirs=kind.upgrade(entry.response, entry.schema_version),
        ),
    }
