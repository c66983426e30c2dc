"""Looking back: everything the client has written, and their own progress."""

import datetime as dt
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from clients.decorators import client_required
from homework import selectors
from homework.kinds import get_kind
from homework.kinds.timeline import timeline_of
from practice.requests import AuthedRequest

HISTORY_PAGE_SIZE = 50
PROGRESS_TIMELINE_DAYS = 28


@require_safe
@client_required
def history(request: AuthedRequest) -> HttpResponse:
    # A page at a time, every entry reachable: the oldest may matter most (a protection order).
    exercises = selectors.history_exercises_for_client(user=request.user)
    chosen = _chosen_exercise(request.GET.get("exercise"), {pk for pk, _title in exercises})
    page = Paginator(
        selectors.history_for_client(user=request.user, exercise_id=chosen), HISTORY_PAGE_SIZE
    ).get_page(request.GET.get("page"))
    entries = list(page.object_list)
    return render(
        request,
        "homework/history.html",
        {
            "entries": entries,
            "page": page,
            "exercises": exercises,
            "chosen": chosen,
            "pager_query": urlencode({"exercise": chosen}) + "&" if chosen else "",
            # Said once above the list rather than on every line it applies to.
            "any_changeable": any(entry.client_can_edit for entry in entries),
        },
    )


def _chosen_exercise(value: str | None, theirs: set[int]) -> int | None:
    try:
        exercise_id = int(value or "")
    except ValueError:
        return None
    return exercise_id if exercise_id in theirs else None


@require_safe
@client_required
def progress(request: AuthedRequest) -> HttpResponse:
    sections = []
    mine = selectors.progress_for_client(user=request.user)
    for assignment, entries in mine:
        kind = get_kind(assignment.exercise.kind)
        context = kind.progress_context(assignment=assignment, entries=entries)
        if context is not None:
            sections.append(
                {"template": kind.progress_template, "assignment": assignment, "data": context}
            )
    # The last four weeks on the client's own calendar, private entries included.
    today = timezone.localdate()
    timeline = timeline_of(
        (entry for _assignment, entries in mine for entry in entries),
        since=today - dt.timedelta(days=PROGRESS_TIMELINE_DAYS - 1),
        until=today,
        zone=timezone.get_current_timezone(),
        for_client=True,
    )
    return render(request, "homework/progress.html", {"sections": sections, "timeline": timeline})
