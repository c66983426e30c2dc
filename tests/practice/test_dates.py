"""Dates people read: the year is named whenever it is not this year at the practice."""

import datetime as dt
import zoneinfo

import pytest
from django.conf import settings
from django.template import Context, Template
from django.utils import formats, timezone, translation

from homework.models import Assignment
from homework.workspace.display import schedule_text
from practice import dates
from practice.dates import (
    ClientTimeZone,
    calendar_day,
    clocks_differ,
    in_client_time_zone,
    years_named_within,
)
from practice.languages import in_language

# Dates name their year by the real calendar: the tests that read "this year" run
# at each --clock moment (clock); the rest pin their own days and years.
pytestmark = pytest.mark.django_db


@pytest.mark.clock
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


# -- times in the client's life, on the client's clock

LOS_ANGELES = zoneinfo.ZoneInfo("America/Los_Angeles")
# A Tuesday, 21:00 in Los Angeles: 05:00 on the Wednesday in London.
TUESDAY_NIGHT = dt.datetime(2026, 11, 24, 21, 0, tzinfo=LOS_ANGELES)


def test_a_time_in_their_life_reads_on_their_clock_and_says_so():
    with timezone.override("Europe/London"):
        shown = in_client_time_zone(TUESDAY_NIGHT, "America/Los_Angeles", "l j F Y, H:i")
    assert shown == "Tuesday 24 November 2026, 21:00 (their time)"


@pytest.mark.clock
def test_no_marker_when_the_reader_keeps_the_same_clock():
    with timezone.override("America/Los_Angeles"):
        assert (
            in_client_time_zone(TUESDAY_NIGHT, "America/Los_Angeles", "D j M, H:i")
            == "Tue 24 Nov, 21:00"
        )
    # Lisbon and London keep the same time all year: no marker between them.
    summer = dt.datetime(2026, 7, 1, 21, 0, tzinfo=dt.UTC)
    with timezone.override("Europe/London"):
        assert in_client_time_zone(summer, "Europe/Lisbon", "H:i") == "22:00"
        assert not clocks_differ(summer, "Europe/Lisbon")


def test_the_marker_follows_the_offsets_at_that_moment_not_the_names():
    # Reykjavik keeps UTC all year: London's clock in winter, an hour behind in summer.
    winter = dt.datetime(2026, 1, 10, 21, 0, tzinfo=dt.UTC)
    summer = dt.datetime(2026, 7, 10, 21, 0, tzinfo=dt.UTC)
    with timezone.override("Europe/London"):
        assert in_client_time_zone(winter, "Atlantic/Reykjavik", "H:i") == "21:00"
        assert in_client_time_zone(summer, "Atlantic/Reykjavik", "H:i") == "21:00 (their time)"


def test_a_page_that_says_it_once_prints_no_marker_but_knows_it_needs_the_note():
    clock = ClientTimeZone(zone="America/Los_Angeles", noted=True)
    with (
        timezone.override("Europe/London"),
        years_named_within(dt.date(2026, 11, 1), dt.date(2026, 11, 30)),
    ):
        assert clock.show(TUESDAY_NIGHT, "D j M, H:i") == "Tue 24 Nov, 21:00"
    assert clock.differed
    same = ClientTimeZone(zone="Europe/London", noted=True)
    with timezone.override("Europe/London"):
        same.show(TUESDAY_NIGHT, "D j M, H:i")
    assert not same.differed


# -- in a document about a stretch of days (the session summary)


def test_within_one_year_its_dates_leave_the_year_out_and_others_name_it():
    with years_named_within(dt.date(2020, 3, 1), dt.date(2020, 3, 28)):
        assert calendar_day(dt.date(2020, 3, 3), "j M") == "3 Mar"
        assert calendar_day(dt.date(2021, 1, 3), "D j M") == "Sun 3 Jan 2021"
    # Outside the block, this year's rule again.
    assert calendar_day(dt.date(2020, 3, 3), "j M") == "3 Mar 2020"


@pytest.mark.clock
def test_over_new_year_every_date_names_its_year():
    this_year = timezone.localdate().year
    with years_named_within(dt.date(this_year - 1, 12, 20), dt.date(this_year, 1, 10)):
        assert calendar_day(dt.date(this_year, 1, 3), "j M") == f"3 Jan {this_year}"
        assert calendar_day(dt.date(this_year - 1, 12, 30), "j M") == f"30 Dec {this_year - 1}"


def test_a_time_in_their_life_names_the_year_before_the_hour():
    clock = ClientTimeZone(zone="America/Los_Angeles", noted=True)
    with (
        timezone.override("Europe/London"),
        years_named_within(dt.date(2026, 11, 1), dt.date(2027, 1, 10)),
    ):
        assert clock.show(TUESDAY_NIGHT, "D j M, H:i") == "Tue 24 Nov 2026, 21:00"
        assert clock.show(TUESDAY_NIGHT, "l j F Y, H:i") == "Tuesday 24 November 2026, 21:00"
    with years_named_within(dt.date(2026, 11, 1), dt.date(2026, 11, 30)):
        assert clock.show(TUESDAY_NIGHT, "D j M, H:i") == "Tue 24 Nov, 21:00"


@pytest.mark.parametrize(
    ("format_name", "value", "expected"),
    [
        ("DATETIME_FORMAT", dt.datetime(2026, 11, 20, 2, 48), "20 Nov 2026, 02:48"),
        ("SHORT_DATETIME_FORMAT", dt.datetime(2026, 11, 20, 14, 5), "20/11/2026 14:05"),
        ("TIME_FORMAT", dt.time(10, 0), "10:00"),
    ],
)
def test_the_admin_lists_read_times_on_the_clock_the_rest_of_the_product_uses(
    format_name, value, expected
):
    # Django's en-GB formats read "2:48 a.m." and "10 a.m." in the admin's
    # lists (entries sent, next session) beside "Fri 20 Nov, 02:48" on the
    # admin home, the portal and the summary.
    with translation.override("en-gb"):
        assert formats.date_format(value, format_name) == expected


def test_a_day_formatted_once_still_reads_in_each_language_asked():
    # Days are formatted once per format and language (practice.dates._day_in_words).
    day = dt.date(2020, 1, 5)
    assert calendar_day(day, "j F") == "5 January 2020"
    with translation.override("de"):
        assert calendar_day(day, "j F") == "5 Januar 2020"
    assert calendar_day(day, "j F") == "5 January 2020"


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
@pytest.mark.parametrize("name", dates.NAMED_FORMATS)
def test_every_named_date_shape_is_given_in_every_offered_language(language, name):
    with in_language(language):
        assert formats.get_format(name) != name


@pytest.mark.parametrize(
    ("language", "shape", "this_year", "another_year"),
    [
        ("en-gb", "WEEKDAY_DATE_FORMAT", "Monday 7 December", "Tuesday 7 December 2027"),
        ("es", "WEEKDAY_DATE_FORMAT", "lunes 7 de diciembre", "martes 7 de diciembre de 2027"),
        ("es", "j M", "7 Dic", "7 Dic de 2027"),
        ("en-gb", "ABBR_WEEKDAY_DATE_FORMAT", "Mon 7 Dec", "Tue 7 Dec 2027"),
        ("es", "ABBR_WEEKDAY_DATE_FORMAT", "lun 7 dic", "mar 7 dic de 2027"),
    ],
)
def test_dates_read_in_each_languages_own_order(language, shape, this_year, another_year):
    with (
        in_language(language),
        dates.years_named_within(dt.date(2026, 1, 1), dt.date(2026, 12, 31)),
    ):
        assert dates.calendar_day(dt.date(2026, 12, 7), shape) == this_year
        assert dates.calendar_day(dt.date(2027, 12, 7), shape) == another_year
