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

One module per concept: ``slot_dates`` (when work comes round), ``tallies``
(counting slots for the therapist, and the words for it) and ``progress``
(where work stands: today's slot, done for the client, done / open /
overdue). Every public name is here too, so ``schedules.slot_for`` reads
the same wherever it is called.
"""

from homework.schedules.progress import (
    Occurrence,
    Progress,
    Standing,
    occurrence,
    one_off_standing,
    recurring_done,
)
from homework.schedules.slot_dates import (
    DAILY,
    FORTNIGHTLY,
    ONCE,
    WEEKLY,
    Scheduled,
    count_slots,
    first_slot,
    is_recurring,
    next_slot_after,
    open_slot,
    slot_for,
    slot_for_happened,
    slot_for_new_entry,
    slots,
)
from homework.schedules.tallies import (
    CHECK_INS,
    DAYS,
    WEEKS,
    Coming,
    Tally,
    count_in_words,
    tally,
    tally_so_far,
    unit,
)

__all__ = [
    "CHECK_INS",
    "DAILY",
    "DAYS",
    "FORTNIGHTLY",
    "ONCE",
    "WEEKLY",
    "WEEKS",
    "Coming",
    "Occurrence",
    "Progress",
    "Scheduled",
    "Standing",
    "Tally",
    "count_in_words",
    "count_slots",
    "first_slot",
    "is_recurring",
    "next_slot_after",
    "occurrence",
    "one_off_standing",
    "open_slot",
    "recurring_done",
    "slot_for",
    "slot_for_happened",
    "slot_for_new_entry",
    "slots",
    "tally",
    "tally_so_far",
    "unit",
]
