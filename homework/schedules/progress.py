"""Where work stands: a recurring assignment's slot today (``Occurrence``),
whether recurring work is done for the client, and the one done / open /
overdue rule for one-off work that the portal, the admin and the summary
all call.

Pure functions of the schedule and a date: no database, no clock.
"""

import datetime as dt
from dataclasses import dataclass

from django.db import models
from django.utils.translation import gettext_lazy as _

from homework.schedules.slot_dates import Scheduled, is_recurring, next_slot_after, slot_for


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

    For the client, work other than a log is done once sent, as a
    recurring one is for its slot (``Occurrence.done``): it leaves "To do"
    for "Done recently", where a plan, a map or a ladder offers an update.
    A log takes any number of entries, so it stays open to add another
    until its due date has passed (without one, it stays open). Nothing
    sent is never done for the client.
    """
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
