"""Dates people read: the year is named whenever it is not this year at the practice."""

import datetime as dt

import pytest
from django.template import Context, Template
from django.utils import timezone

from homework.display import schedule_text
from homework.models import Assignment
from practice.dates import calendar_day

pytestmark = pytest.mark.django_db


def test_a_date_this_year_leaves_the_year_out_and_any_other_names_it():
    this_year = timezone.localdate().year
    assert calendar_day(dt.date(this_year, 1, 5), "j M") == "5 Jan"
    assert calendar_day(dt.date(2020, 1, 5), "j M") == "5 Jan 2020"
    assert calendar_day(dt.date(this_year + 10, 12, 31), "l j F") == (
        f"{dt.date(this_year + 10, 12, 31):%A} 31 December {this_year + 10}"
    )


def test_this_year_is_the_practices_year(just_past_new_year_in_berlin):
    """Just after midnight on 1 January at the practice, it is still 31 December
    in UTC: a date in the new year is this year's."""
    assert calendar_day(dt.date(2027, 1, 1), "j M") == "1 Jan"
    assert calendar_day(dt.date(2026, 12, 31), "j M") == "31 Dec 2026"


@pytest.fixture
def just_past_new_year_in_berlin(monkeypatch, settings):
    settings.TIME_ZONE = "Europe/Berlin"
    moment = dt.datetime(2026, 12, 31, 23, 30, tzinfo=dt.UTC)  # 00:30 on 1 January in Berlin
    monkeypatch.setattr(timezone, "now", lambda: moment)


def test_the_template_filter_names_the_year_of_a_moment_from_another_year():
    moment = timezone.make_aware(dt.datetime(1900, 1, 1, 9, 30))
    html = Template('{% load dates %}{{ moment|calendar_day:"l j F" }}').render(
        Context({"moment": moment})
    )
    assert html == "Monday 1 January 1900"


def test_schedules_name_the_year_of_an_end_date_in_another_year():
    weekly = Assignment(
        schedule="weekly",
        weekdays=[6],
        starts_on=dt.date(2026, 11, 1),
        ends_on=dt.date(2036, 12, 31),
    )
    assert schedule_text(weekly) == "Every Sunday until Wednesday 31 December 2036"
