"""The portal pages for doing homework. Thin: validate, call a service, render."""

import logging
import uuid
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
    require_safe,
)

from clients.decorators import client_required, notebook_closed, notebook_is_closed
from homework import schedules, selectors, services
from homework.autosave_text import autosave_messages, saved_time
from homework.forms import EntryEnvelopeForm, NoteForm, PrivacyForm, response_data
from homework.kinds import ResponseInvalid, get_kind
from homework.kinds.base import Shown
from homework.models import Assignment, Entry
from practice.models import User
from practice.refusals import form_refused
from practice.requests import AuthedRequest

logger = logging.getLogger(__name__)

# Entries on one page of "What I've written".
HISTORY_PAGE_SIZE = 50


def _refused_in_closed_notebook(request: AuthedRequest, keep: Callable[[], bool]) -> HttpResponse:
    """Refuse a post from a closed notebook, keeping its words first (``keep``
    calls the one service that keeps them and says whether it did): nothing
    can be sent any more, but the words are the client's, and go in their
    download. Keeping is best effort: the refusal is said either way."""
    try:
        kept = keep()
    except Exception:
        logger.warning("Could not keep a draft sent to a closed notebook.", exc_info=True)
        kept = False
    return notebook_closed(request, kept=kept)


def _keep_draft_in_closed_notebook(request: AuthedRequest, assignment_id: int) -> HttpResponse:
    """Words saved or sent after the therapist archived the client are kept as a draft."""

    def keep() -> bool:
        save_draft_from_post(user=request.user, assignment_id=assignment_id, post=request.POST)
        return True

    return _refused_in_closed_notebook(request, keep)


# Pages that only read answer HEAD too (require_safe), as `curl -I` and health
# checks expect; pages whose GET writes (an access log, a token) keep require_GET.
@require_safe
@client_required
def dashboard(request: AuthedRequest) -> HttpResponse:
    drafts = selectors.drafts_for_client(user=request.user)
    todo = selectors.todo_for_client(user=request.user)
    open_ids = {assignment.pk for assignment in todo.assignments}
    return render(
        request,
        "homework/dashboard.html",
        {
            "today": todo.today,  # the client's own, as To do was read for
            "todo": [(assignment, drafts.get(assignment.pk)) for assignment in todo.assignments],
            # Begun before the therapist closed the work: still theirs to send.
            "unfinished": [draft for pk, draft in drafts.items() if pk not in open_ids],
            "recent": selectors.recent_entries_for_client(user=request.user, limit=5),
            "comments": selectors.recent_comments_for_client(user=request.user),
        },
    )


def _assignment_or_404(
    request: AuthedRequest, assignment_id: int, *, for_writing: bool = False
) -> Assignment:
    try:
        return selectors.portal_assignment(
            user=request.user, assignment_id=assignment_id, for_writing=for_writing
        )
    except Assignment.DoesNotExist:
        raise Http404 from None


# The address's ``start`` that opens work continuing the last entry sent on
# the newest one, over a draft begun from an older one.
START_FROM_NEWEST = "newest"


@require_http_methods(["GET", "POST"])
@client_required(takes_closed_notebook_posts=True)
def do_assignment(request: AuthedRequest, assignment_id: int) -> HttpResponse:
    """Show the exercise's form (continuing a draft if there is one) and take
    the finished entry."""
    if notebook_is_closed(request):
        return _keep_draft_in_closed_notebook(request, assignment_id)
    # Work the therapist has since closed still takes what the client was
    # writing: sent, or opened again while a draft of it waits.
    assignment = _assignment_or_404(request, assignment_id, for_writing=True)
    kind = get_kind(assignment.exercise.kind)
    if request.method == "POST":
        return _submit(request, assignment)
    draft = selectors.open_draft(user=request.user, assignment=assignment)
    if draft is None and assignment.status != Assignment.Status.ACTIVE:
        raise Http404
    if draft is None and not kind.is_log:
        done = _already_done(request, assignment)
        if done is not None:
            return done
    # "Use the newer version", chosen when a newer one was sent since this
    # page's draft began: the page starts from it, and its first save
    # replaces the draft, which the client saw beside it.
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
    return _render_do(request, assignment, envelope, form, draft=resumed)


def _sent_count_seen(
    request: AuthedRequest, assignment: Assignment, *, resumed: Entry | None
) -> int | None:
    """What the page says it opened on (EntryEnvelopeForm.sent_count_seen): a
    draft carried on, what its own page opened on; a page filled from the
    last entry sent, how many are sent now; other work, nothing."""
    if not get_kind(assignment.exercise.kind).continues_last_sent:
        return None
    if resumed is not None:
        return resumed.sent_when_opened
    return selectors.sent_count(user=request.user, assignment=assignment)


def _already_done(request: AuthedRequest, assignment: Assignment) -> HttpResponse | None:
    """Work that is done for now, opened again by its address (a bookmark, the
    back button): show what was sent rather than a blank copy, which would
    read as though it were lost. Done as "To do" counts it: a recurring
    exercise once its open slot is sent, a one-off once
    ``schedules.one_off_standing`` says so."""
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
    editing: Entry | None = None,
    refused_words: bool = False,
) -> HttpResponse:
    """``refused_words``: changes to a sent entry sent back refused, with
    words the client typed in them (session.js treats them as not sent)."""
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


def _envelope_after_conflict(post: Any, conflict: dict[str, Any]) -> EntryEnvelopeForm:
    """The form shown with a conflict: sending it again keeps this page's text,
    replacing the other draft, or (if that one was sent) as a separate entry."""
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
            shown=Shown.from_post(request.POST),
            sent_count_seen=envelope.cleaned_data["sent_count_seen"],
        )
    except ResponseInvalid as invalid:
        return _render_invalid(request, assignment, envelope, invalid)
    except services.EntryConflict as conflict:
        form = kind.form(exercise=assignment.exercise, data=request.POST)
        context = _conflict_context(conflict, data, envelope=envelope, user=request.user)
        return _render_do(
            request,
            assignment,
            _envelope_after_conflict(request.POST, context),
            form,
            status=409,
            conflict=context,
        )
    except ObjectDoesNotExist:
        raise Http404 from None
    messages.success(request, _("Sent. Thank you for taking the time."))
    return redirect("homework:entry", key=entry.key)


def _render_invalid(
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
        _render_do(
            request,
            assignment,
            envelope,
            form,
            status=400,
            editing=editing,
            refused_words=refused_words,
        ),
    )


def _conflict_context(
    conflict: "services.EntryConflict",
    mine: dict[str, Any],
    *,
    envelope: EntryEnvelopeForm,
    user: User,
) -> dict[str, Any]:
    """Both versions side by side, answer by answer (rows too), so nothing is lost.

    ``sent_count_seen``: for a page that continues the last entry sent, how many
    are sent now: the client has seen the newest beside their own words, so
    keeping theirs is checked against what is sent from now on.
    ``updated_since``: a newer entry was sent since the page opened
    (EntrySentSince): keeping the page's words keeps its own entry, and
    sends them as the newest version.
    ``begun_since_opened``: the page opened with nothing saved (version 0),
    and a draft was begun after it. Perhaps in another tab; but perhaps by
    this very page before it was reloaded: its last words go as it leaves,
    and can arrive after the reloaded page was built, blank. The page says
    so rather than "another tab or device". Neither is chosen for the
    client: which words belong together is theirs to say.
    """
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


def save_draft_from_post(*, user: User, assignment_id: int, post: Any) -> Entry:
    """Save a draft from posted form fields (the quick exit's last words).

    Raises ValidationError, ResponseInvalid, EntryConflict or DoesNotExist
    like the autosave does; the caller decides what to tell whom.
    """
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
        # The page is going, and cannot show a choice: its words are kept,
        # with what it opened on, for the choice when they are carried on.
        sent_count_seen=envelope.cleaned_data["sent_count_seen"],
        leaving=True,
    )


def save_edit_from_post(*, user: User, post: Any) -> services.EditTried:
    """Save changes to a sent entry from posted form fields (the quick exit's
    last words on the edit page); changes that cannot be saved are kept as
    the entry's unsent note (services.entry_edit_or_keep_words). Raises
    ValidationError or DoesNotExist when there is nothing of the client's to
    keep them on."""
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
    """Add the note a client was writing on a sent entry, from posted form
    fields (the quick exit's last words: the note form has no autosave); one
    that cannot be added is kept unsent on the entry instead
    (services.entry_add_note_or_keep_words)."""
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
@client_required(takes_closed_notebook_posts=True)
def autosave(request: AuthedRequest, assignment_id: int) -> HttpResponse:
    """Save a draft while the client types. Answers in JSON for the page's script."""
    if notebook_is_closed(request):
        return _keep_draft_in_closed_notebook(request, assignment_id)
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
        context = _conflict_context(conflict, data, envelope=envelope, user=request.user)
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
    """``refused_words``: the note form sent back refused, with words the
    client typed in it (session.js treats them as not sent)."""
    kind = get_kind(entry.assignment.exercise.kind)
    return render(
        request,
        "homework/entry.html",
        {
            "entry": entry,
            # The kind's template gets everything its present() gives, as in the admin;
            # its headings sit under the page's h1 (the exercise's title).
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


def _keep_edit_in_closed_notebook(request: AuthedRequest, key: uuid.UUID) -> HttpResponse:
    """Changes sent after the therapist archived the client are kept as the entry's unsent note."""

    def keep() -> bool:
        entry = services.entry_keep_refused_edit(
            user=request.user, key=key, data=response_data(request.POST), include_archived=True
        )
        return bool(entry.note_draft)

    return _refused_in_closed_notebook(request, keep)


@require_http_methods(["GET", "POST"])
@client_required(takes_closed_notebook_posts=True)
def entry_edit(request: AuthedRequest, key: uuid.UUID) -> HttpResponse:
    """Change a sent entry until the therapist has read it."""
    if notebook_is_closed(request):
        return _keep_edit_in_closed_notebook(request, key)
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
            _("Your therapist has read this, so it stays as it is. You can add a note below."),
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
        return _render_do(request, assignment, envelope, form, editing=entry)
    envelope = EntryEnvelopeForm(request.POST)
    data = response_data(request.POST)
    if envelope.is_valid() and envelope.cleaned_data["key"] != entry.key:
        envelope.add_error(None, _("This form belongs to another entry."))
    if not envelope.is_valid():
        form = kind.form(exercise=assignment.exercise, data=request.POST, asked=entry.asked)
        return _render_do(
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
        return _render_invalid(
            request,
            assignment,
            envelope,
            refused,
            editing=entry,
            refused_words=kept.new_words,
        )
    if isinstance(refused, services.EntryConflict):
        form = kind.form(exercise=assignment.exercise, data=request.POST)
        context = _conflict_context(refused, data, envelope=envelope, user=request.user)
        context["submitted"] = False  # still editable: sending again replaces it
        context["kept_as_note"] = kept.kept and kept.new_words
        return _render_do(
            request,
            assignment,
            _envelope_after_conflict(request.POST, context),
            form,
            status=409,
            conflict=context,
            editing=entry,
        )
    # EntryLocked: the therapist read it between this page's load and its post.
    return _edit_arrived_after_reading(request, _own_entry_or_404(request, key), kept)


def _edit_arrived_after_reading(
    request: AuthedRequest, entry: Entry, words: "services.KeptWords"
) -> HttpResponse:
    """The therapist read the entry before the changes arrived: it stays as
    it was, and the new words wait in the note form, so none are lost."""
    note = NoteForm(initial={"text": words.note})
    if words.kept:
        said = _(
            "Your therapist has read this, so it stays as it was. What you changed is in "
            "the note below, kept here for you: your therapist sees it only once you send "
            "it. Send it as it is, or change it first."
        )
    else:
        said = _(
            "Your therapist has read this, so it stays as it was. What you changed is in "
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
            _("Now private: only you can read it.")
            if entry.private
            else _("Now shared with your therapist."),
        )
    return redirect("homework:entry", key=entry.key)


def _keep_note_in_closed_notebook(request: AuthedRequest, key: uuid.UUID) -> HttpResponse:
    """A note sent after the therapist archived the client is kept as the entry's unsent note."""

    def keep() -> bool:
        entry = services.entry_keep_note_draft(
            user=request.user,
            key=key,
            text=str(request.POST.get("text", "")),
            include_archived=True,
        )
        return bool(entry.note_draft)

    return _refused_in_closed_notebook(request, keep)


@require_POST
@client_required(takes_closed_notebook_posts=True)
def entry_add_note(request: AuthedRequest, key: uuid.UUID) -> HttpResponse:
    if notebook_is_closed(request):
        return _keep_note_in_closed_notebook(request, key)
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


@require_safe
@client_required
def history(request: AuthedRequest) -> HttpResponse:
    # A page at a time, every entry reachable: a month of daily logs is
    # hundreds, and the oldest records may matter most (a protection order).
    # A page number that is not one shows the nearest page, not an error.
    page = Paginator(selectors.history_for_client(user=request.user), HISTORY_PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    entries = list(page.object_list)
    return render(
        request,
        "homework/history.html",
        {
            "entries": entries,
            "page": page,
            # Said once above the list rather than on every line it applies to.
            "any_changeable": any(entry.client_can_edit for entry in entries),
        },
    )


@require_safe
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
