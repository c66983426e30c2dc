"""When a recurring assignment comes round: derived, never pre-generated.

An assignment is one-off (a due date, maybe none) or recurring: every day, or weekly on
chosen weekdays (0 = Monday), from ``starts_on`` until ``ends_on``. Each
date it comes round is a *slot*; an entry belongs to the slot it was
started in (Entry.occurrence_on), or, once a log's entry is sent, to the
slot of the day what it records happened (``slot_for_happened``). A weekly
slot lasts until the next one, so a Monday check-in done on Wednesday
still counts for Monday; and while it lasts it is open, not missed: the
admin's "so far" and the summary count it due only once its time is over
(``open_slot``, ``tally_so_far``).

Where one-off work stands (done, open, overdue: ``one_off_standing``) is
decided here too, for the portal, the admin and the summary alike.

Everything here is a pure function of the schedule and a date: no
database, no clock. Callers pass "today" in the client's time zone. (Only
the words name a date with its year when that is not this year, as every
date shown does: practice.dates.calendar_day.)
"""

import datetime as dt
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from django.db import models
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from practice.dates import calendar_day


class Scheduled(Protocol):
    """What a schedule is made of (an Assignment, or any object with these)."""

    @property
    def schedule(self) -> str: ...
    @property
    def starts_on(self) -> dt.date: ...
    @property
    def ends_on(self) -> dt.date | None: ...
    @property
    def weekdays(self) -> Sequence[int]: ...


ONCE = "once"
DAILY = "daily"
WEEKLY = "weekly"


@dataclass(frozen=True)
class Occurrence:
    """Where a recurring assignment stands on a given day."""

    on: dt.date | None  # the slot that is open (None: not started yet)
    done: bool  # something was sent for that slot
    next_on: dt.date | None  # the slot after it, if the schedule goes on
    is_log: bool = False  # a log takes any number of entries: never "done"
    ended: bool = False  # the schedule's end date has passed

    @property
    def is_last(self) -> bool:
        """The slot offered is the schedule's last: none comes after it. Once
        the schedule has ended it is still offered, so late work has a home
        (``slot_for``), and the portal says it is the last one."""
        return self.on is not None and self.next_on is None


def is_recurring(item: Scheduled) -> bool:
    return item.schedule != ONCE


def _comes_round(item: Scheduled, day: dt.date) -> bool:
    if item.schedule == DAILY:
        return True
    return day.weekday() in set(item.weekdays)


def slots(
    item: Scheduled, *, start: dt.date | None = None, end: dt.date | None = None
) -> Iterator[dt.date]:
    """Every slot between ``start`` and ``end`` (both inclusive, clipped to the schedule)."""
    if not is_recurring(item) or item.ends_on is None:
        return
    if item.schedule == WEEKLY and not item.weekdays:
        return
    day = max(item.starts_on, start or item.starts_on)
    last = min(item.ends_on, end or item.ends_on)
    while day <= last:
        if _comes_round(item, day):
            yield day
        day += dt.timedelta(days=1)


def count_slots(item: Scheduled, *, start: dt.date, end: dt.date) -> int:
    """How many slots fall from ``start`` to ``end`` (inclusive): what
    completion counts as "expected so far" in the admin and the summary.

    Counted, not walked: pages ask this of every assignment, and a schedule
    may run for years (tests hold it equal to counting ``slots``).
    """
    if not is_recurring(item) or item.ends_on is None:
        return 0
    first, last = max(item.starts_on, start), min(item.ends_on, end)
    if last < first:
        return 0
    days = (last - first).days + 1
    if item.schedule == DAILY:
        return days
    chosen = set(item.weekdays)
    # Every whole week holds each chosen weekday once; the days left over
    # fall on the same weekdays as the first days of the range.
    weeks, rest = divmod(days, 7)
    extra = sum(1 for n in range(rest) if (first + dt.timedelta(days=n)).weekday() in chosen)
    return weeks * len(chosen) + extra


# What one slot is called when they are counted (``unit``).
DAYS = "days"
WEEKS = "weeks"
CHECK_INS = "check-ins"


def unit(item: Scheduled) -> str:
    """What a slot of ``item`` is called when slots are counted: a day of
    daily work, a week of work on one day a week, and a check-in of work on
    several days a week (nine of them in a month are not "nine weeks")."""
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


def slot_for(item: Scheduled, day: dt.date) -> dt.date | None:
    """The slot ``day`` falls in: the latest slot on or before it.

    Before the first slot there is none (None); after the schedule ends,
    the last slot stays open, so late work still has a home.
    """
    if not is_recurring(item) or item.ends_on is None:
        return None
    day = min(day, item.ends_on)
    # A weekly slot is at most six days back; a daily one is the day itself.
    for offset in range(7):
        candidate = day - dt.timedelta(days=offset)
        if candidate < item.starts_on:
            return None
        if _comes_round(item, candidate):
            return candidate
    return None


def open_slot(item: Scheduled, day: dt.date) -> dt.date | None:
    """The slot whose time is not over on ``day``: the one ``day`` falls in
    (``slot_for``, the slot the portal offers and files work under) until
    the schedule would come round again, past its end too, so the last
    weekly slot is over a week after it, as the others are. None before
    the first slot and once the last is over."""
    slot = slot_for(item, day)
    if slot is None:
        return None
    comes_round_again = next(
        slot + dt.timedelta(days=n)
        for n in range(1, 8)
        if _comes_round(item, slot + dt.timedelta(days=n))
    )
    return slot if day < comes_round_again else None


def first_slot(item: Scheduled) -> dt.date | None:
    return next(slots(item), None)


def next_slot_after(item: Scheduled, day: dt.date) -> dt.date | None:
    return next(slots(item, start=day + dt.timedelta(days=1)), None)


def slot_for_new_entry(item: Scheduled, day: dt.date) -> dt.date | None:
    """The slot a new entry started on ``day`` belongs to; before the
    schedule starts, the first one (the client is simply early)."""
    if not is_recurring(item):
        return None
    return slot_for(item, day) or first_slot(item)


def slot_for_happened(item: Scheduled, *, happened_on: dt.date, today: dt.date) -> dt.date | None:
    """The slot a log's sent entry counts for: that of the day what it
    records happened, on the client's calendar. An urge log is often filled
    in later, four urges of four days on one evening: filed where it was
    begun, that is one day done, beside a chart that draws four.

    None when that day is not one of the schedule's up to ``today``: before
    its start (before the first slot of a weekly one), after its end, or
    still to come. The entry then keeps the slot it was begun in, where
    anything sent early or late is filed (``slot_for_new_entry``).
    """
    if item.ends_on is None or not item.starts_on <= happened_on <= min(item.ends_on, today):
        return None
    return slot_for(item, happened_on)


def occurrence(
    item: Scheduled, *, today: dt.date, done_slots: set[dt.date], is_log: bool = False
) -> Occurrence | None:
    """Where ``item`` stands today, given the slots something was sent for."""
    if not is_recurring(item):
        return None
    on = slot_for(item, today)
    return Occurrence(
        on=on,
        done=on in done_slots,
        next_on=next_slot_after(item, today),
        is_log=is_log,
        ended=item.ends_on is not None and item.ends_on < today,
    )


def recurring_done(occurrence: Occurrence, *, sent: int) -> bool:
    """Whether recurring work is done for the client, so it leaves their
    "To do" as done one-off work does (``one_off_standing``): what they sent
    stays in "Done recently" and their history, and the therapist still
    closes the work as before. (Recurring work is never overdue: the
    therapist's view counts its slots, ``tally_so_far``.)

    Work done slot by slot is done once its last slot has something sent:
    a slot sent for takes no more, and none comes after it. A log takes any
    number of entries, so, like a one-off log past its due date, it is done
    once its end date has passed with something sent (``sent``, in any
    slot). Nothing sent for the last slot is never done: it stays open for
    late work.
    """
    if occurrence.is_log:
        return bool(sent) and occurrence.ended
    return occurrence.is_last and occurrence.done


class Progress(models.TextChoices):
    """Where one assignment stands for the therapist: the admin's progress
    column and the summary's counts."""

    DONE = "done", _("Done")
    OPEN = "open", _("Open")
    OVERDUE = "overdue", _("Overdue")
    ENDED = "ended", _("Ended")
    CANCELLED = "cancelled", _("Cancelled")


@dataclass(frozen=True)
class Standing:
    """Where one-off work stands: ``progress`` as the therapist counts it,
    and ``done_for_client``, whether it leaves the client's "To do"."""

    progress: Progress
    done_for_client: bool


def one_off_standing(
    *, sent: int, due_on: dt.date | None, today: dt.date, is_log: bool, completed: bool = False
) -> Standing:
    """Done, open or overdue: the one rule for one-off work, which the
    portal's "To do", the admin's progress and the session summary all call.

    For the therapist it is done once anything is sent (or they completed
    it), overdue once its due date has passed with nothing sent (the due
    day itself is not over yet), open otherwise. Which entries count as
    ``sent`` is the caller's to say: the admin counts private ones (the
    therapist may know they exist), the summary does not (it never reflects
    them, not even as a number).

    For the client, sent work stays in "To do" to add another until its
    due date has passed: a log takes any number of entries, and a plan or a
    map may be sent again as it changes. Without a due date, a log stays
    open and other kinds are done once sent, as a recurring one is for its
    slot (``Occurrence.done``). Nothing sent is never done for the client.
    """
    if sent or completed:
        progress = Progress.DONE
    elif due_on is not None and due_on < today:
        progress = Progress.OVERDUE
    else:
        progress = Progress.OPEN
    if not sent:
        done_for_client = False
    elif due_on is None:
        done_for_client = not is_log
    else:
        done_for_client = due_on < today
    return Standing(progress=progress, done_for_client=done_for_client)
