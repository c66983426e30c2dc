"""What the admin view and the API share: reading the period from a request,
and sending a summary back as a PDF."""

from django.http import HttpResponse, QueryDict
from django.utils import timezone

from homework.summary.period import PeriodQuery, parse_period_query, practice_date
from homework.summary.services import SummaryPdf

PARAMETERS = ("since", "until", "full_detail")


def period_query_from(params: QueryDict) -> PeriodQuery:
    """PeriodInvalid, naming the parameter, for anything malformed."""
    return parse_period_query(
        {name: params.get(name) for name in PARAMETERS}, today=practice_date(timezone.now())
    )


def pdf_response(summary: SummaryPdf) -> HttpResponse:
    """Opens in the browser's PDF viewer; the file name says nothing about whom."""
    response = HttpResponse(summary.content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{summary.filename}"'
    response["Content-Length"] = str(len(summary.content))
    return response
