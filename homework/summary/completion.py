"""How much of the assigned work came back in a period: done, open, overdue,
and occurrences done for recurring work.

Kept in this one module on purpose: when assignments grow derived occurrences
(one expected entry per scheduled day), only this computation changes.
Private entries are not counted: a summary never reflects them, not even as
a number.
"""

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import Count, Q
from django.utils import timezone

from clients.models import Client
from homework import schedules
from homework.models import Assignment, Entry
from homework.schedules import Progress
from homework.selectors import assignments_for_user, client_today, one_off_progress
from homework.summary.period import Period, midnight_on
from practice.dates import as_zone
from practice.models import User


@dataclass(frozen=True)
class WorkItem:
    """One assignment's state in the period."""

    assignment_id: int
    title: str
    recurring: bool
    state: str  # one of WorkInPeriod.DONE / OPEN / OVERDUE (one-off work) or RECURRING
    due_on: dt.date | None = None
    done: int = 0  # recurring: days with something sent; one-off: entries sent in the period
    expected: int = 0  # recurring: scheduled days so far in the period
    unit: str = schedules.DAYS  # recurring: what is counted (schedules.unit)
    coming: schedules.Coming | None = None  # recurring, none due yet: the first one (Tally.coming)

    @property
    def count_in_words(self) -> str:
        """ "3 of 9 check-ins", in the words the admin uses too."""
        return schedules.count_in_words(
            done=self.done, expected=self.expected, unit=self.unit, coming=self.coming
        )


@dataclass(frozen=True)
class WorkInPeriod:
    """The assigned work a session summary reports on, each assignment's
    share of the period (where one stands over its whole schedule is
    homework.selectors.AssignmentProgress)."""

    # One-off work is done, open or overdue by schedules.one_off_standing,
    # the rule the admin and the portal call too; recurring work is counted in days.
    DONE = Progress.DONE
    OPEN = Progress.OPEN
    OVERDUE = Progress.OVERDUE
    RECURRING = "recurring"

    items: list[WorkItem] = field(default_factory=list)

    def count(self, state: str) -> int:
        return sum(1 for item in self.items if item.state == state)

    @property
    def done(self) -> int:
        return self.count(self.DONE)

    @property
    def open(self) -> int:
        return self.count(self.OPEN)

    @property
    def overdue(self) -> int:
        return self.count(self.OVERDUE)

    @property
    def recurring(self) -> list[WorkItem]:
        return [item for item in self.items if item.recurring]

    @property
    def done_of_due(self) -> tuple[int, int]:
        """What was done of what was due, as one pair (the caseload's): each
        slot of recurring work due so far, and each piece of one-off work
        done or past due (open one-off work is not due yet)."""
        done = due = 0
        for item in self.items:
            if item.recurring:
                done, due = done + item.done, due + item.expected
            elif item.state in (self.DONE, self.OVERDUE):
                done, due = done + (item.state == self.DONE), due + 1
        return done, due

    @property
    def one_off(self) -> int:
        """How much one-off work there is: what ``done``, ``open`` and
        ``overdue`` share out. Recurring work has no such state."""
        return sum(1 for item in self.items if not item.recurring)


# The longest a slot stays open: a weekly one, until the next week's.
_LONGEST_SLOT = dt.timedelta(days=6)


@dataclass(frozen=True)
class _Days:
    """Where a period's count of recurring work runs, on the client's calendar."""

    zone: dt.tzinfo
    first: dt.date  # the period's first day
    last: dt.date  # and its last
    as_of: dt.date  # the last day counted (Period.as_of)
    counted_until: dt.date  # the ``today`` given to schedules.tally_so_far
    # A weekly slot from the days before the period can still be open as it
    # begins: it is this period's to count (``_tally``).
    carried_from: dt.date


def _days(*, client: Client, period: Period, now: dt.datetime) -> _Days:
    zone = as_zone(client.timezone)
    first_day, last_day = period.days_on(zone)
    as_of = period.as_of(now, zone=zone)
    client_day = client_today(client, now)
    # Recurring work: the slots due by the start of this day, by the rule the
    # admin's "so far" follows (schedules.tally_so_far). While the client's
    # today is the last day counted, its slot is open, not missed, whether a
    # session is booked or not; once their day is over it counts, and a
    # summary stored before then renders again (homework.summary.services).
    running = as_of == client_day
    return _Days(
        zone=zone,
        first=first_day,
        last=last_day,
        as_of=as_of,
        counted_until=client_day if running else as_of + dt.timedelta(days=1),
        carried_from=first_day - _LONGEST_SLOT,
    )


def _first_sent(
    assignment_ids: list[int], *, zones: dict[int, dt.tzinfo], since: dt.date, before: dt.datetime
) -> dict[int, dict[dt.date, dt.datetime]]:
    """Each slot of these recurring assignments with something shared, and
    when it first was: one query (none without assignments), for any number
    of clients. ``zones`` is each assignment's client's clock, for work with
    no slot of its own; ``since`` the earliest day any period asked about
    counts from (rows before a period's own days are not counted: ``_tally``)."""
    first_sent: dict[int, dict[dt.date, dt.datetime]] = defaultdict(dict)
    if not assignment_ids:
        return first_sent
    rows = Entry.objects.filter(
        # Whole days, as the days expected are counted: the first day's
        # work counts even when it was done before the session that day.
        # (From the day before in UTC, so that day has begun on every clock.)
        Q(occurrence_on__gte=since)
        | Q(
            occurrence_on__isnull=True,
            submitted_at__gte=midnight_on(since - dt.timedelta(days=1), dt.UTC),
        ),
        assignment_id__in=assignment_ids,
        status=Entry.Status.SUBMITTED,
        private=False,
        submitted_at__lt=before,
    ).values_list("assignment_id", "occurrence_on", "submitted_at")
    for assignment_id, occurrence_on, submitted_at in rows:
        if submitted_at is None:
            continue
        slot = occurrence_on or timezone.localdate(submitted_at, zones[assignment_id])
        sent = first_sent[assignment_id]
        sent[slot] = min(sent.get(slot, submitted_at), submitted_at)
    return first_sent


def _sent_by(sent: dict[dt.date, dt.datetime], period: Period) -> dict[dt.date, dt.datetime]:
    """The slots with something sent before ``period`` ended (a slot first
    sent for later had nothing sent for it by then)."""
    return {on: at for on, at in sent.items() if at < period.end}


def _tally(
    assignment: Assignment, *, sent: dict[dt.date, dt.datetime], period: Period, days: _Days
) -> schedules.Tally | None:
    """One recurring assignment's count in the period, or None when it has
    no part in it."""
    first = max(assignment.starts_on, days.first)
    # A slot still open as the period began (last Monday's, for a session on
    # Wednesday) was not due in the period before: it is this one's, unless
    # something was sent for it then, which that period counted as done.
    carried = schedules.open_slot(assignment, days.first)
    if carried is not None and not (carried in sent and sent[carried] < period.start):
        first = min(first, carried)
    sent_by_then = {on for on in sent if first <= on <= days.as_of}
    tally = schedules.tally_so_far(
        assignment,
        start=first,
        today=days.counted_until,
        days_sent=len(sent_by_then),
        latest_sent=max(sent_by_then, default=None),
        # Sent in the period for a slot after the count stops: early, or on
        # the session's own day before it began.
        latest_filed=max((on for on in sent if on >= first), default=None),
    )
    ended_before = assignment.ends_on is not None and assignment.ends_on < days.first
    if not tally.expected and (ended_before or tally.coming is None):
        # Ended before the period, its last slot settled in the one before;
        # or no day of it falls in the period, as for days that ended when
        # new ones were set (services.assignment_update).
        return None
    return tally


def recurring_in_period(
    assignments: Sequence[Assignment], *, client: Client, period: Period, now: dt.datetime
) -> dict[int, schedules.Tally]:
    """The period's count of each of ``assignments`` that is recurring and
    has a part in it, by assignment id: the summary's own count, for a page
    that lists the client's work its own way (the since-last-session page).
    One query, none without recurring work; ``assignments`` are the caller's,
    already scoped to what the user may see."""
    days = _days(client=client, period=period, now=now)
    recurring = [a for a in assignments if a.schedule != Assignment.Schedule.ONCE]
    first_sent = _first_sent(
        [a.pk for a in recurring],
        zones={a.pk: days.zone for a in recurring},
        since=days.carried_from,
        before=period.end,
    )
    counts = {}
    for assignment in recurring:
        tally = _tally(assignment, sent=first_sent[assignment.pk], period=period, days=days)
        if tally is not None:
            counts[assignment.pk] = tally
    return counts


def completion_for_period(
    *, user: User, client: Client, period: Period, now: dt.datetime
) -> WorkInPeriod:
    """Two queries, whatever the number of assignments or entries
    (``completion_for_periods`` for one client and one period)."""
    return completion_for_periods(user=user, clients=[client], periods=[period], now=now)[
        client.pk
    ][0]


def _in_period(assignment: Assignment, *, period: Period, days: _Days) -> bool:
    """Whether ``assignment`` has a part in the period: the SQL filter of
    ``completion_for_periods``, for one period of several."""
    if assignment.schedule == Assignment.Schedule.ONCE:
        return assignment.starts_on <= period.until
    # No end date: it runs until the therapist ends it.
    return assignment.starts_on <= days.last and (
        assignment.ends_on is None or assignment.ends_on >= days.carried_from
    )


def completion_for_periods(
    *, user: User, clients: Sequence[Client], periods: Sequence[Period], now: dt.datetime
) -> dict[int, list[WorkInPeriod]]:
    """Each client's ``WorkInPeriod`` for each of ``periods``, in order, by
    client id: two queries, whatever the number of clients, periods,
    assignments or entries (the caseload asks for the last 7 and 28 days
    of every client; the summary for one period of one).

    Recurring work is counted in the client's days, on their calendar: the
    days it came round for them (Entry.occurrence_on is one of those) up to
    their today, not the practice's, which for a client far away is a day
    ahead or behind for hours on end.
    """
    result: dict[int, list[WorkInPeriod]] = {client.pk: [] for client in clients}
    if not clients or not periods:
        return result
    days = {
        (client.pk, index): _days(client=client, period=period, now=now)
        for client in clients
        for index, period in enumerate(periods)
    }
    shared = Q(entries__status=Entry.Status.SUBMITTED, entries__private=False)
    counts_by_period = {}
    for index, period in enumerate(periods):
        # Learned in the period: an entry kept private and shared later is this
        # period's news (Entry.shared_at), as in the summary's sections.
        in_period = Q(entries__shared_at__gte=period.start, entries__shared_at__lt=period.end)
        counts_by_period[f"sent_in_period_{index}"] = Count("entries", filter=shared & in_period)
        counts_by_period[f"shared_before_period_{index}"] = Count(
            "entries", filter=shared & Q(entries__shared_at__lt=period.start)
        )
    once = Q(schedule=Assignment.Schedule.ONCE)
    carried_from = min(d.carried_from for d in days.values())
    assignments = list(
        assignments_for_user(user=user)
        .filter(client__in=[client.pk for client in clients])
        .filter(
            (once & Q(starts_on__lte=max(period.until for period in periods)))
            | (
                ~once
                & Q(starts_on__lte=max(d.last for d in days.values()))
                # No end date: it runs until the therapist ends it.
                & (Q(ends_on__gte=carried_from) | Q(ends_on__isnull=True))
            )
        )
        .exclude(status=Assignment.Status.CANCELLED)
        .select_related("exercise")
        .annotate(**counts_by_period)
        .order_by("starts_on", "pk")
    )
    zones = {client.pk: days[client.pk, 0].zone for client in clients}
    recurring = [a for a in assignments if a.schedule != Assignment.Schedule.ONCE]
    first_sent = _first_sent(
        [a.pk for a in recurring],
        zones={a.pk: zones[a.client_id] for a in recurring},
        since=carried_from,
        before=max(period.end for period in periods),
    )
    by_client: dict[int, list[Assignment]] = defaultdict(list)
    for assignment in assignments:
        by_client[assignment.client_id].append(assignment)
    for client in clients:
        for index, period in enumerate(periods):
            period_days = days[client.pk, index]
            items = [
                item
                for assignment in by_client[client.pk]
                if _in_period(assignment, period=period, days=period_days)
                for item in _work_items(
                    assignment,
                    index=index,
                    sent=_sent_by(first_sent[assignment.pk], period),
                    period=period,
                    days=period_days,
                    # One-off work is judged as of the period's end, or now if that is still
                    # to come; a due date, on the client's calendar too: work due on a day not
                    # yet over for them is not past due (schedules.one_off_standing).
                    due_as_of=min(period.as_of(now), client_today(client, now)),
                )
            ]
            result[client.pk].append(WorkInPeriod(items=items))
    return result


def _work_items(
    assignment: Assignment,
    *,
    index: int,
    sent: dict[dt.date, dt.datetime],
    period: Period,
    days: _Days,
    due_as_of: dt.date,
) -> list[WorkItem]:
    """``assignment``'s share of period ``index`` (none, or one item)."""
    title = assignment.exercise.title
    if assignment.schedule != Assignment.Schedule.ONCE:
        tally = _tally(assignment, sent=sent, period=period, days=days)
        if tally is None:
            return []
        return [
            WorkItem(
                assignment.pk,
                title,
                recurring=True,
                state=WorkInPeriod.RECURRING,
                done=tally.done,
                expected=tally.expected,
                unit=tally.unit,
                coming=tally.coming,
            )
        ]
    sent_in_period: int = getattr(assignment, f"sent_in_period_{index}")
    shared_before_period: int = getattr(assignment, f"shared_before_period_{index}")
    if shared_before_period and not sent_in_period:
        return []  # finished before this period: not this session's business
    return [
        WorkItem(
            assignment.pk,
            title,
            recurring=False,
            state=one_off_progress(assignment, sent=sent_in_period, today=due_as_of),
            due_on=assignment.due_on,
            done=sent_in_period,
        )
    ]
