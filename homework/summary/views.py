"""The admin's "Print session summary": opens the PDF in the browser.

Wired into the client admin's URLs as ``admin:clients_client_summary``
(``/admin/clients/client/<id>/summary/``), behind ``admin_site.admin_view``.
Optional query: ``since``, ``until`` (YYYY-MM-DD) and ``full_detail``, or
``session`` (one session's id, as its row in the admin links it).
"""

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_GET

from clients.models import AccessEvent, Client
from homework.summary.http import period_query_from, serve_summary
from homework.summary.period import PeriodInvalid
from homework.summary.selectors import client_for_summary
from practice.requests import acting_user


@require_GET
def client_summary(request: HttpRequest, object_id: str) -> HttpResponse:
    user = acting_user(request)
    try:
        client = client_for_summary(user=user, client_id=int(object_id))
    except (ValueError, Client.DoesNotExist):
        raise Http404 from None
    try:
        query = period_query_from(request.GET)
        return serve_summary(
            user=user, client=client, query=query, action=AccessEvent.Action.PRINTED
        )
    except PeriodInvalid as invalid:  # malformed, or a session not this client's
        for name, problems in invalid.errors.items():
            messages.error(request, f"{name}: {' '.join(problems)}")
        return redirect("admin:clients_client_change", client.pk)
