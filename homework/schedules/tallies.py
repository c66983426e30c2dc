"""Counting slots for the therapist: how much of recurring work came back,
and the words the admin and the summary both say it in ("3 of 9 check-ins").

Pure functions of the schedule and a date: no database, no clock.
"""

import datetime as dt
from dataclasses import dataclass

from django.utils.translation import gettext, ngettext

from homework.schedules.slot_dates import (
    FORTNIGHTLY,
    WEEKLY,
    Scheduled,
    count_slots,
    first_slot,
    open_slot,
    slots,
)
from practice.dates import calendar_day

# What one slot is called when they are counted (``unit``).
DAYS = "days"
WEEKS = "weeks"
CHECK_INS = "check-ins"


def unit(item: Scheduled) -> str:
    """What a slot of ``item`` is called when slots are counted: a day of
    daily work, a week of work on one day a week, and a check-in of work on
    several days a week (nine of them in a month are not "nine weeks")."""
    if item.schedule == FORTNIGHTLY:
        return CHECK_INS
    if item.schedule == WEEKLY:
        return WEEKS if len(set(item.weekdays or [])) <= 1 else CHECK_INS
    return DAYS


@dataclass(frozen=True)
class Coming:
    """While no slot counted is due yet: the one that will be first, still
    open or still to come, and whether something was sent for it already."""

    on: dt.date
    first: bool  # the schedule's first slot; else the next, in a period begun mid-schedule
    sent: bool
    early: bool  # sent before its day came round
    opened: bool = False  # its day has passed, nothing sent: open, not missed, until the next


def count_in_words(*, done: int, expected: int, unit: str, coming: Coming | None = None) -> str:
    """ "3 of 9 check-ins": the words the admin and the summary both use.

    With none due yet, what is true and of use instead ("0 of 0 weeks" reads
    like a fault in the count): whether the first one was sent (as the
    portal says "For today · sent"), or when it is due.
    """
    if not expected:
        if coming is None:
            return gettext("none due yet")  # no slot left to come in the count
        if coming.sent and coming.early:
            return (
                gettext("first one sent early") if coming.first else gettext("next one sent early")
            )
        if coming.sent:
            return gettext("first one sent") if coming.first else gettext("next one sent")
        day = {"day": calendar_day(coming.on, "D j M")}
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
    """Slots with something sent, of the slots expected from one day to another."""

    done: int
    expected: int
    unit: str
    coming: Coming | None = None  # with none expected: the one that will be (``tally_so_far``)

    def __str__(self) -> str:
        return count_in_words(
            done=self.done, expected=self.expected, unit=self.unit, coming=self.coming
        )


def tally(item: Scheduled, *, start: dt.date, end: dt.date, days_sent: int) -> Tally:
    """How much of ``item`` came back from ``start`` to ``end`` (inclusive):
    the one count the admin and the summary both show.

    ``days_sent`` is how many distinct slots from ``start`` to ``end`` have
    something sent: the caller counts them (in SQL or from rows), leaving out
    days after ``end``. Never more done than expected: work sent early is
    filed under a slot still to come (``slot_for_new_entry``), and counts
    once that slot is one of the days expected.
    """
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
    """``tally`` up to the client's ``today``, by the one rule for when a
    slot is due: once its time is over (``open_slot``), or once something
    was sent for it. Until then it is open, not missed: a daily exercise
    would read as missed every morning, and Monday's weekly one from
    Tuesday, while the portal still offers it and files work under it.

    ``latest_sent`` is the latest slot, up to ``today``, with something
    sent: whether the slot still open has been done. ``latest_filed`` is the
    latest with something sent whatever its day: work sent early is filed
    under a slot still to come (``slot_for_new_entry``), and a summary for a
    session stops counting the eve before, though the client may have sent
    that day's already. Not counted, it is said while none is due yet.
    """
    still_open = open_slot(item, today)
    if still_open is None:
        last = today - dt.timedelta(days=1)  # before the first slot, or after the last is over
    elif latest_sent == still_open:
        last = still_open
    else:
        last = still_open - dt.timedelta(days=1)
    counted = tally(item, start=start, end=last, days_sent=days_sent)
    if counted.expected:
        return counted
    # None due yet: the first slot from ``start`` is the one that will be.
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
    )
    return Tally(done=0, expected=0, unit=counted.unit, coming=coming)
