"""The portal's home: what there is to do, what was begun, what came back."""

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from clients.decorators import client_required
from homework import selectors
from homework.selectors.programs import programs_for_client
from practice.requests import AuthedRequest


@require_safe
@client_required
def dashboard(request: AuthedRequest) -> HttpResponse:
    drafts = selectors.drafts_for_client(user=request.user)
    todo = selectors.todo_for_client(user=request.user)
    open_ids = {assignment.pk for assignment in todo.assignments}
    programs = programs_for_client(user=request.user)
    # A released step is ordinary work on To do: its card only says which step of which program.
    step_of = {
        assignment_id: (program, number)
        for program in programs
        for assignment_id, number in program.open_steps.items()
    }
    return render(
        request,
        "homework/dashboard.html",
        {
            "today": todo.today,  # the client's own, as To do was read for
            "todo": [
                (assignment, drafts.get(assignment.pk), step_of.get(assignment.pk))
                for assignment in todo.assignments
            ],
            # A line for each program with no step on To do now, or paused: when the next comes.
            "programs_waiting": [
                program
                for program in programs
                if program.is_paused or not open_ids & program.open_steps.keys()
            ],
            # Begun before the therapist closed the work: still theirs to send.
            "unfinished": [draft for pk, draft in drafts.items() if pk not in open_ids],
            # What was sent leaves To do for here (schedules.one_off_standing).
            "recent": selectors.done_recently_for_client(user=request.user),
            "comments": selectors.recent_comments_for_client(user=request.user),
        },
    )
