"""Help now: the client's plan, the practice's contact, crisis lines; public when signed out."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from homework.selectors.within_reach import within_reach_for_client
from practice.models import User


@require_safe
def help_now(request: HttpRequest) -> HttpResponse:
    user = request.user
    reach = within_reach_for_client(user=user) if isinstance(user, User) else None
    plan = None
    if reach is not None and reach.kind is not None and reach.entry is not None:
        plan = reach.kind.help_now(reach.entry)
    return render(
        request,
        "homework/help_now.html",
        {
            "for_a_client": isinstance(user, User) and user.is_client,
            "reach": reach,
            "plan": plan,
            "on_help_now": True,
        },
    )
