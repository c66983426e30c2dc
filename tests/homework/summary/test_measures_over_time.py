"""The session summary (the PDF, as Since last session draws it) shows each measure's totals from
the first ever sent, each in its published band, and the change from first to latest."""

import datetime as dt

import pytest
from django.utils import timezone

from homework.selectors.period import PeriodQuery
from homework.summary import render, selectors
from tests.conftest import Cast
from tests.factories import EntryFactory
from tests.helpers_measures import answers, assigned, library_measure, measure, sent_total

from .conftest import pdf_text

pytestmark = pytest.mark.django_db


def summary_of(cast: Cast, *, full_detail: bool = False) -> str:
    now = timezone.now()
    period = selectors.resolve_period(
        user=cast.tara, client=cast.alice, query=PeriodQuery(), now=now
    )
    data = selectors.summary_data(
        user=cast.tara, client=cast.alice, period=period, full_detail=full_detail, now=now
    )
    return pdf_text(render.render_summary_pdf(render.summary_document(data), generated_at=now))


def test_the_pdf_reads_from_the_first_score_ever_with_bands_and_the_change(cast: Cast):
    work = assigned(cast.alice, measure("PHQ-9", reliable_change=6, cutoff=10))
    # Long before the period: the change still reads from here.
    sent_total(work, 17, days_ago=120)
    for weeks in range(15, 0, -1):
        sent_total(work, 12, days_ago=weeks * 7)
    sent_total(work, 6, days_ago=2)
    text = " ".join(summary_of(cast).split())
    assert "Measures over time" in text
    assert "Reliably improved, crossed the cutoff, now below it" in text
    assert "first 17, latest 6" in text
    assert "Published band" in text and "High" in text and "Middling" in text
    # A brief summary lists the first and the latest few, the rest counted.
    assert "11 more in between" in text
    full = " ".join(summary_of(cast, full_detail=True).split())
    assert "more in between" not in full


def test_a_private_total_never_reaches_the_summary(cast: Cast):
    work = assigned(cast.alice, measure("PHQ-9", reliable_change=6, cutoff=10))
    sent_total(work, 4, days_ago=20)
    sent_total(work, 19, days_ago=2, private=True)
    text = " ".join(summary_of(cast).split())
    assert "One score so far" in text and "19" not in text.split("Measures over time")[1][:400]


def test_each_subscale_is_drawn_over_time_against_its_own_bands_with_its_change(cast: Cast):
    dass = library_measure("DASS-21")
    work = assigned(cast.alice, dass)
    for days_ago, points in ((30, 2), (2, 0)):
        EntryFactory.create(
            assignment=work,
            response=answers(dass, [points] * 21),
            submitted_at=timezone.now() - dt.timedelta(days=days_ago),
        )
    text = " ".join(summary_of(cast).split())
    # Each of the three, in the measure's order, after the total, which has no published figure
    # to read its change against: its first and latest say it.
    assert text.index("First 42, latest 0.") < text.index("Depression")
    assert text.index("Depression") < text.index("Anxiety") < text.index("Stress")
    # 28 to 0 on each: the subscale's own reliable change and cutoff, not the total's.
    assert "first 28, latest 0; a change of 6.7 points is reliable; cutoff 10" in text
    assert "first 28, latest 0; a change of 5.8 points is reliable; cutoff 8" in text
    assert "Extremely severe" in text and "Normal" in text
