"""The admin's "Print session summary": opens the PDF in the browser, behind
``admin_site.admin_view``."""

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from clients.admin.client_pages import client_page_context
from clients.models import AccessEvent, Client
from homework.selectors.period import (
    EARLIEST_DATE,
    PeriodInvalid,
    as_admin_date,
    format_in_words,
    kept_date,
)
from homework.summary.http import latest_day_for, serve_summary
from homework.summary.selectors import client_for_summary
from practice.refusals import form_refused
from practice.requests import acting_user

if TYPE_CHECKING:
    from django.contrib import admin

    AdminOf = admin.ModelAdmin[Any]
else:
    AdminOf = object

DATE_FIELDS = ("since", "until")


@dataclass(frozen=True)
class DatesForm:
    latest: dt.date
    since: str = ""
    until: str = ""
    full_detail: bool = False
    errors: Mapping[str, list[str]] = field(default_factory=dict)
    earliest: dt.date = EARLIEST_DATE

    @property
    def format_in_words(self) -> str:
        return format_in_words()

    @property
    def after_latest(self) -> str:
        """Said on the page before a tab opens, for a day the server would refuse as too late."""
        return _("This is after the last day you can print. Choose %(day)s or earlier.") % {
            "day": as_admin_date(self.latest)
        }

    @property
    def other_errors(self) -> list[str]:
        return [
            message
            for name, messages in self.errors.items()
            if name not in DATE_FIELDS
            for message in messages
        ]


def client_summary(model_admin: AdminOf, request: HttpRequest, object_id: str) -> HttpResponse:
    if request.method != "GET":
        return HttpResponseNotAllowed(["GET"])
    user = acting_user(request)
    try:
        client = client_for_summary(user=user, client_id=int(object_id))
    except (ValueError, Client.DoesNotExist):
        raise Http404 from None
    try:
        return serve_summary(
            request.GET, user=user, client=client, action=AccessEvent.Action.PRINTED
        )
    except PeriodInvalid as invalid:  # malformed, or a session not this client's
        # The form opened this tab: it shows again with the dates kept and the reason beside them.
        form = DatesForm(
            latest=latest_day_for(user=user, client=client, now=timezone.now()),
            since=kept_date(request.GET.get("since")),
            until=kept_date(request.GET.get("until")),
            full_detail=bool(request.GET.get("full_detail")),
            errors=invalid.errors,
        )
        context = client_page_context(
            model_admin, request, client, _("Print for other dates: %(client)s"), dates_form=form
        )
        response = TemplateResponse(
            request, "admin/clients/client/print_dates.html", context, status=400
        )
        return form_refused(request, response)
