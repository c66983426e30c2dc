"""What the admin view and the API share: reading the period from a request,
and sending a summary back as a PDF, its reading recorded."""

import datetime as dt

from django.http import HttpResponse, QueryDict
from django.utils import timezone

from clients.models import Client
from homework.selectors.period import PeriodQuery, latest_day, parse_period_query, practice_date
from homework.services import records_record_view
from homework.summary.selectors import next_session_at
from homework.summary.services import SummaryPdf, summary_pdf
from practice.models import User

PARAMETERS = ("since", "until", "full_detail", "session")


def latest_day_for(*, user: User, client: Client, now: dt.datetime) -> dt.date:
    upcoming = next_session_at(user=user, client=client, now=now)
    return latest_day(today=practice_date(now), next_session_at=upcoming)


def period_query_from(params: QueryDict, *, user: User, client: Client) -> PeriodQuery:
    """PeriodInvalid, naming the parameter, for anything malformed."""
    now = timezone.now()
    return parse_period_query(
        {name: params.get(name) for name in PARAMETERS},
        today=practice_date(now),
        latest=latest_day_for(user=user, client=client, now=now),
    )


def pdf_response(summary: SummaryPdf) -> HttpResponse:
    """The file name says nothing about whom."""
    response = HttpResponse(summary.content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{summary.filename}"'
    response["Content-Length"] = str(len(summary.content))
    return response


def serve_summary(params: QueryDict, *, user: User, client: Client, action: str) -> HttpResponse:
    """The period read from ``params`` (PeriodInvalid, naming the parameter, for anything
    malformed); the look is written to the client's access log; printing marks nothing as read."""
    query = period_query_from(params, user=user, client=client)
    summary = summary_pdf(user=user, client=client, query=query)
    records_record_view(actor=user, client=client, action=action, what=summary.description)
    return pdf_response(summary)
