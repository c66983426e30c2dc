"""The session summary as the therapist would print it, drawn in-process
for tests that read its words rather than the PDF's pages."""

import datetime as dt
from typing import Any

from django.utils import timezone

from homework.selectors.period import Period, period_for_dates
from homework.summary import render, selectors


def the_last(days: int) -> Period:
    """Chosen dates: from ``days`` days ago to today, no session."""
    today = timezone.localdate()
    return period_for_dates(since=today - dt.timedelta(days=days), until=today, session=None)


def summary_data_for(
    user: Any,
    client: Any,
    period: Period,
    *,
    full_detail: bool = False,
    now: dt.datetime | None = None,
) -> selectors.SummaryData:
    return selectors.summary_data(
        user=user,
        client=client,
        period=period,
        full_detail=full_detail,
        now=now or timezone.now(),
    )


def summary_document(cast: Any, period: Period, *, full_detail: bool) -> render.SummaryDocument:
    """Tara's summary of Alice for ``period``, read now."""
    return render.summary_document(
        summary_data_for(cast.tara, cast.alice, period, full_detail=full_detail)
    )
