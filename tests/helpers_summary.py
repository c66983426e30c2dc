"""The session summary as the therapist would print it, drawn in-process
for tests that read its words rather than the PDF's pages."""

from typing import Any

from django.utils import timezone

from homework.selectors.period import Period
from homework.summary import render, selectors


def summary_document(cast: Any, period: Period, *, full_detail: bool) -> render.SummaryDocument:
    """Tara's summary of Alice for ``period``, read now."""
    data = selectors.summary_data(
        user=cast.tara,
        client=cast.alice,
        period=period,
        full_detail=full_detail,
        now=timezone.now(),
    )
    return render.summary_document(data)
