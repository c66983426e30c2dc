"""Where work stands, and the one done / open / overdue rule for one-off work that the portal, the
admin and the summary all call. Pure functions of the schedule and a date: no database, no clock."""

import datetime as dt
from dataclasses import dataclass

from django.db import models
from django.utils.translation import pgettext_lazy

from homework.schedules.slot_dates import (
    BEFORE_SESSION,
    Scheduled,
    is_recurring,
    next_slot_after,
    open_slot,
    session_of,
    slot_for,
)


@dataclass(frozen=True)
class Occurrence:
    on: dt.date | None  # None: not started yet
    done: bool
    next_on: dt.date | None
    is_log: bool = False  # a log takes any number of entries: never "done"
    ended: bool = False
    # Before-session work: the days of the sessions ``on`` and ``next_on`` are for.
    session_on: dt.date | None = None
    next_session_on: dt.date | None = None

    @property
    def is_last(self) -> bool:
        """Still offered once the schedule has ended, so late work has a home."""
        return self.on is not None and self.next_on is None


def occurrence(
    item: Scheduled, *, today: dt.date, done_slots: set[dt.date], is_log: bool = False
) -> Occurrence | None:
    if not is_recurring(item):
        return None
    on = slot_for(item, today)
    next_on = next_slot_after(item, today)
    return Occurrence(
        on=on,
        done=on in done_slots,
        next_on=next_on,
        is_log=is_log,
        ended=item.ends_on is not None and item.ends_on < today,
        session_on=session_of(item, on),
        next_session_on=session_of(item, next_on),
    )


def recurring_done(occurrence: Occurrence, *, sent: int) -> bool:
    """Done once its last slot has something sent; a log once its end date has passed with something
    sent. Nothing sent for the last slot is never done: it stays open for late work."""
    if occurrence.is_log:
        return bool(sent) and occurrence.ended
    return occurrence.is_last and occurrence.done


class Progress(models.TextChoices):
    # A badge beside an assignment: "Open" is its state, not the button that opens it.
    DONE = "done", pgettext_lazy("assignment status", "Done")
    OPEN = "open", pgettext_lazy("assignment status", "Open")
    OVERDUE = "overdue", pgettext_lazy("assignment status", "Overdue")
    ENDED = "ended", pgettext_lazy("assignment status", "Ended")
    CANCELLED = "cancelled", pgettext_lazy("assignment status", "Cancelled")


@dataclass(frozen=True)
class Standing:
    progress: Progress
    done_for_client: bool


def one_off_standing(
    *, sent: int, due_on: dt.date | None, today: dt.date, is_log: bool, completed: bool = False
) -> Standing:
    """Which entries count as ``sent`` is the caller's to say: the admin counts private ones, the
    summary never reflects them, not even as a number. Nothing sent is never done for the client; a
    log stays open until its due date."""
    if sent or completed:
        progress = Progress.DONE
    elif due_on is not None and due_on < today:
        progress = Progress.OVERDUE
    else:
        progress = Progress.OPEN
    if not sent:
        done_for_client = False
    elif not is_log:
        done_for_client = True
    else:
        done_for_client = due_on is not None and due_on < today
    return Standing(progress=progress, done_for_client=done_for_client)


def missed_before_session(item: Scheduled, *, today: dt.date, latest_sent: dt.date | None) -> bool:
    """The last session came with nothing sent for it, and the next one's window is not open yet:
    overdue until then. ``latest_sent`` is the latest slot with something sent, up to ``today``."""
    if item.schedule != BEFORE_SESSION or open_slot(item, today) is not None:
        return False
    last = slot_for(item, today)
    return last is not None and (latest_sent is None or latest_sent < last)
