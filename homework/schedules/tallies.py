"""Counting slots for the therapist, and the words the admin and the summary both say it in. Pure
functions of the schedule and a date: no database, no clock."""

import datetime as dt
from dataclasses import dataclass

from django.utils.translation import gettext, ngettext

from homework.schedules.slot_dates import (
    BEFORE_SESSION,
    FORTNIGHTLY,
    WEEKLY,
    Scheduled,
    count_slots,
    first_slot,
    open_slot,
    session_of,
    slots,
)
from practice.dates import calendar_day

DAYS = "days"
WEEKS = "weeks"
CHECK_INS = "check-ins"


def unit(item: Scheduled) -> str:
    """Several days a week counts check-ins: nine of them in a month are not "nine weeks"."""
    if item.schedule in (FORTNIGHTLY, BEFORE_SESSION):
        return CHECK_INS
    if item.schedule == WEEKLY:
        return WEEKS if len(set(item.weekdays or [])) <= 1 else CHECK_INS
    return DAYS


@dataclass(frozen=True)
class Coming:
    on: dt.date
    first: bool
    sent: bool
    early: bool
    opened: bool = False  # its day has passed, nothing sent: open, not missed, until the next
    session_on: dt.date | None = None  # before-session work: the session it is for


def count_in_words(*, done: int, expected: int, unit: str, coming: Coming | None = None) -> str:
    """With none due yet, whether the first was sent or when it is due, not "0 of 0 weeks"."""
    if not expected:
        if coming is None:
            return gettext("none due yet")
        if coming.sent and coming.early:
            return (
                gettext("first one sent early") if coming.first else gettext("next one sent early")
            )
        if coming.sent:
            return gettext("first one sent") if coming.first else gettext("next one sent")
        day = {"day": calendar_day(coming.on, "ABBR_WEEKDAY_DATE_FORMAT")}
        if coming.session_on is not None:
            day["session"] = calendar_day(coming.session_on, "ABBR_WEEKDAY_DATE_FORMAT")
            if coming.opened:
                if coming.first:
                    return (
                        gettext("first one open since %(day)s, for the session on %(session)s")
                        % day
                    )
                return gettext("next one open since %(day)s, for the session on %(session)s") % day
            if coming.first:
                return gettext("first one due %(day)s, for the session on %(session)s") % day
            return gettext("next one due %(day)s, for the session on %(session)s") % day
        if coming.opened:
            # "Due" a day gone by would read as late; it is not, while it is open.
            if coming.first:
                return gettext("first one open since %(day)s") % day
            return gettext("next one open since %(day)s") % day
        if coming.first:
            return gettext("first one due %(day)s") % day
        return gettext("next one due %(day)s") % day
    values = {"done": done, "expected": expected}
    if unit == WEEKS:
        return (
            ngettext("%(done)s of %(expected)s week", "%(done)s of %(expected)s weeks", expected)
            % values
        )
    if unit == CHECK_INS:
        return (
            ngettext(
                "%(done)s of %(expected)s check-in", "%(done)s of %(expected)s check-ins", expected
            )
            % values
        )
    return (
        ngettext("%(done)s of %(expected)s day", "%(done)s of %(expected)s days", expected) % values
    )


@dataclass(frozen=True)
class Tally:
    done: int
    expected: int
    unit: str
    coming: Coming | None = None

    def __str__(self) -> str:
        return count_in_words(
            done=self.done, expected=self.expected, unit=self.unit, coming=self.coming
        )


def tally(item: Scheduled, *, start: dt.date, end: dt.date, days_sent: int) -> Tally:
    """``days_sent`` is counted by the caller, leaving out days after ``end``; work sent early
    counts once its slot is expected, so never more done than expected."""
    expected = count_slots(item, start=start, end=end)
    return Tally(done=min(days_sent, expected), expected=expected, unit=unit(item))


def tally_so_far(
    item: Scheduled,
    *,
    start: dt.date,
    today: dt.date,
    days_sent: int,
    latest_sent: dt.date | None,
    latest_filed: dt.date | None,
) -> Tally:
    """A slot is due once its time is over or something was sent for it; until then it is open, not
    missed. ``latest_filed`` may be a slot still to come, for work sent early."""
    still_open = open_slot(item, today)
    if still_open is None:
        last = today - dt.timedelta(days=1)
    elif latest_sent == still_open:
        last = still_open
    else:
        last = still_open - dt.timedelta(days=1)
    counted = tally(item, start=start, end=last, days_sent=days_sent)
    if counted.expected:
        return counted
    on = next(slots(item, start=start), None)
    if on is None:
        return counted
    sent = latest_filed is not None and latest_filed >= on
    coming = Coming(
        on=on,
        first=on == first_slot(item),
        sent=sent,
        early=sent and on > today,
        opened=not sent and on < today,
        session_on=session_of(item, on),
    )
    return Tally(done=0, expected=0, unit=counted.unit, coming=coming)
