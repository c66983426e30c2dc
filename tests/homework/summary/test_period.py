import datetime as dt

import pytest

from homework.selectors.period import (
    MAX_PERIOD_DAYS,
    PeriodInvalid,
    PeriodQuery,
    latest_day,
    parse_period_query,
    period_for_dates,
)

TODAY = dt.date(2026, 3, 12)


def parse(**params: str | None) -> PeriodQuery:
    return parse_period_query(params, today=TODAY)


def problems(**params: str | None) -> dict[str, list[str]]:
    with pytest.raises(PeriodInvalid) as caught:
        parse(**params)
    return caught.value.errors


def test_no_dates_means_since_the_last_session():
    query = parse()
    assert query == PeriodQuery()
    assert not query.chosen_dates


def test_both_dates_are_taken_as_given():
    query = parse(since="2026-02-01", until="2026-02-28", full_detail="true")
    assert (query.since, query.until, query.full_detail) == (
        dt.date(2026, 2, 1),
        dt.date(2026, 2, 28),
        True,
    )


def test_one_date_alone_fills_in_the_other():
    assert parse(since="2026-03-01").until == TODAY
    only_until = parse(until="2026-03-10")
    assert only_until.since == dt.date(2026, 2, 11)


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"since": "yesterday"}, "since"),
        ({"since": "2026-02-30"}, "since"),
        ({"since": "1/3"}, "since"),
        ({"since": "2026-03-01T10:00"}, "since"),
        ({"until": "x" * 100_000}, "until"),
        ({"until": "03/13/2026"}, "until"),  # month first: not the admin's format
        ({"since": "2026-03-13"}, "since"),
        ({"since": "2026-03-10", "until": "2026-03-01"}, "until"),
        ({"since": "2020-01-01", "until": "2026-03-01"}, "until"),
        ({"full_detail": "maybe"}, "full_detail"),
        # Far ends of the calendar: refused by name, never an overflow (a 500).
        ({"until": "2026-03-13"}, "until"),
        ({"until": "2099-01-01"}, "until"),
        ({"until": "9999-12-31"}, "until"),
        ({"until": "0001-01-01"}, "until"),
        ({"since": "0001-01-01", "until": "2026-03-01"}, "since"),
        ({"since": "1999-12-31"}, "since"),
    ],
)
def test_bad_parameters_are_named(params, name):
    errors = problems(**params)
    assert list(errors) == [name]
    assert all(errors[name])


def test_the_period_may_end_on_the_next_sessions_day_and_no_later():
    """The regular summary runs to the next session's day, so chosen dates may too."""
    session_day = TODAY + dt.timedelta(days=3)
    latest = latest_day(today=TODAY, next_session_at=dt.datetime(2026, 3, 15, 10, tzinfo=dt.UTC))
    assert latest == session_day
    query = parse_period_query({"until": session_day.isoformat()}, today=TODAY, latest=latest)
    assert query.until == session_day
    after = (session_day + dt.timedelta(days=1)).isoformat()
    refused = parse_period_query
    with pytest.raises(PeriodInvalid) as caught:
        refused({"since": "2026-03-01", "until": after}, today=TODAY, latest=latest)
    assert caught.value.errors == {
        "until": ["This is after the next session. Choose 15 March 2026 or earlier."]
    }
    # A session already past leaves today the last day.
    assert latest_day(today=TODAY, next_session_at=None) == TODAY
    assert latest_day(today=TODAY, next_session_at=dt.datetime(2026, 3, 1, tzinfo=dt.UTC)) == TODAY


def test_messages_speak_of_start_and_end_dates_not_parameters():
    assert problems(since="2026-03-10", until="2026-03-01") == {
        "until": ["The end date is before the start date. Choose a later end date."]
    }
    too_long = problems(since="2020-01-01", until="2026-03-01")["until"]
    assert too_long == [
        "The period can be at most 400 days long. Move the start and end dates closer together."
    ]


def test_messages_do_not_echo_what_was_sent():
    errors = problems(since="<script>alert(1)</script>")
    assert "<script>" not in " ".join(errors["since"])


def test_the_longest_period_is_allowed_and_one_day_more_is_not():
    since = TODAY - dt.timedelta(days=MAX_PERIOD_DAYS - 1)
    assert parse(since=since.isoformat(), until=TODAY.isoformat()).since == since
    too_early = since - dt.timedelta(days=1)
    assert "until" in problems(since=too_early.isoformat(), until=TODAY.isoformat())


def test_chosen_dates_cover_whole_practice_days(settings):
    period = period_for_dates(since=dt.date(2026, 3, 1), until=dt.date(2026, 3, 1), session=None)
    assert period.end - period.start == dt.timedelta(days=1)
    assert str(period.start.tzinfo) == settings.TIME_ZONE
    assert period.key == "20260301-20260301-dates"


# -- the last day counted, on the practice's calendar or the client's


def test_the_last_day_counted_is_on_the_calendar_asked_for():
    from zoneinfo import ZoneInfo

    from clients.models import Session
    from homework.selectors.period import period_between_sessions

    london, auckland, los_angeles = (
        ZoneInfo(name) for name in ("Europe/London", "Pacific/Auckland", "America/Los_Angeles")
    )
    # 20:30 in London: already tomorrow morning in Auckland.
    now = dt.datetime(2026, 3, 10, 20, 30, tzinfo=london)
    running = period_between_sessions(target=None, previous=None, now=now)
    assert running.as_of(now) == dt.date(2026, 3, 10)
    assert running.as_of(now, zone=auckland) == dt.date(2026, 3, 11)
    assert running.as_of(now, zone=los_angeles) == dt.date(2026, 3, 10)
    # A session at 16:00 in London is 05:00 the next day in Auckland: their
    # whole day of the session's London date is over by then.
    session = Session(starts_at=dt.datetime(2026, 3, 12, 16, 0, tzinfo=london))
    ahead = period_between_sessions(target=session, previous=None, now=now)
    later = now + dt.timedelta(days=5)
    assert ahead.as_of(later) == dt.date(2026, 3, 11)
    assert ahead.as_of(later, zone=auckland) == dt.date(2026, 3, 12)
    # Chosen dates are the days asked for, on any calendar.
    chosen = period_for_dates(since=dt.date(2026, 3, 1), until=dt.date(2026, 3, 10), session=None)
    assert chosen.as_of(later, zone=auckland) == chosen.as_of(later) == dt.date(2026, 3, 10)


@pytest.mark.parametrize("digits", ["２０２６-０３-０１", "٢٠٢٦-٠٣-٠١"])
def test_a_date_in_other_digits_is_asked_for_in_the_format_not_called_impossible(digits):
    """Full-width or Arabic-Indic digits are a format to correct, not a day
    that "does not exist"."""
    assert problems(since=digits)["since"] == [
        "Enter a date as DD/MM/YYYY, for example 01/03/2026."
    ]


def test_a_session_is_read_by_its_number():
    assert parse(session="42") == PeriodQuery(session_id=42)
    assert not parse(session="42").chosen_dates


@pytest.mark.parametrize("raw", ["tomorrow", "-3", "0", "4.5", "9" * 30, "４２"])
def test_a_session_that_is_not_a_number_is_refused_by_name(raw):
    assert list(problems(session=raw)) == ["session"]


def test_a_session_and_dates_together_are_refused():
    assert list(problems(session="42", since="2026-03-01")) == ["session"]
