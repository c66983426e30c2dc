"""Looking back: everything the client has written, and their own progress."""

from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from clients.decorators import client_required
from homework import selectors
from homework.kinds import get_kind
from practice.requests import AuthedRequest

# Entries on one page of "What I've written".
HISTORY_PAGE_SIZE = 50


@require_safe
@client_required
def history(request: AuthedRequest) -> HttpResponse:
    # A page at a time, every entry reachable: a month of daily logs is
    # hundreds, and the oldest records may matter most (a protection order).
    # A page number that is not one shows the nearest page, not an error.
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
            # The pager's links keep the choice as they turn the page.
            "pager_query": urlencode({"exercise": chosen}) + "&" if chosen else "",
            # Said once above the list rather than on every line it applies to.
            "any_changeable": any(entry.client_can_edit for entry in entries),
        },
    )


def _chosen_exercise(value: str | None, theirs: set[int]) -> int | None:
    """The exercise asked for, if it is one of the client's own with
    something sent; anything else (none, not a number, someone else's)
    shows everything, as a page number that is not one shows a page."""
    try:
        exercise_id = int(value or "")
    except ValueError:
        return None
    return exercise_id if exercise_id in theirs else None


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
