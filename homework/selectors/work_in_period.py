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

from django.db.models import Case, Count, IntegerField, Min, OuterRef, Q, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from clients.models import Client
from homework import schedules
from homework.models import Assignment, Entry
from homework.schedules import Progress
from homework.selectors.period import Period, midnight_on
from homework.selectors.portal import client_today
from homework.selectors.progress import one_off_progress
from homework.selectors.scoping import assignments_for_user
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


@dataclass(frozen=True)
class _Bounds:
    """The moments a count of recurring work compares a slot's first sending
    with (each period's start and end), in time order. A slot's first sending
    is kept as how many of them had passed by then, worked out in SQL: a
    caseload reads some ten thousand entries, and loading each one's time
    only to compare it with four moments cost more than the rest of the count."""

    moments: tuple[dt.datetime, ...]

    @classmethod
    def of(cls, periods: Sequence[Period]) -> "_Bounds":
        return cls(tuple(sorted({p.start for p in periods} | {p.end for p in periods})))

    def passed_at_sending(self) -> Case:
        """SQL: how many of the moments had passed when an entry was sent."""
        return Case(
            *(
                When(submitted_at__lt=moment, then=Value(n))
                for n, moment in enumerate(self.moments)
            ),
            default=Value(len(self.moments)),
            output_field=IntegerField(),
        )

    def sent_before(self, passed: int, moment: dt.datetime) -> bool:
        """Whether a slot first sent when ``passed`` moments had passed was sent
        before ``moment`` (one of the moments)."""
        return passed <= self.moments.index(moment)


# A slot of recurring work and its first sending (_Bounds.passed).
_Sent = dict[dt.date, int]


def _first_sent(
    assignment_ids: list[int],
    *,
    zones: dict[int, dt.tzinfo],
    since: dt.date,
    before: dt.datetime,
    bounds: _Bounds,
) -> dict[int, _Sent]:
    """Each slot of these recurring assignments with something shared, and
    when it first was (as ``bounds`` tells it): one query (none without
    assignments), for any number of clients. ``zones`` is each assignment's
    client's clock, for work with no slot of its own; ``since`` the earliest
    day any period asked about counts from (rows before a period's own days
    are not counted: ``_tally``)."""
    first_sent: dict[int, _Sent] = defaultdict(dict)
    if not assignment_ids:
        return first_sent
    no_slot = Q(occurrence_on__isnull=True)
    rows = (
        Entry.objects.readable_by_staff()
        .filter(
            # Whole days, as the days expected are counted: the first day's
            # work counts even when it was done before the session that day.
            # (From the day before in UTC, so that day has begun on every clock.)
            Q(occurrence_on__gte=since)
            | (no_slot & Q(submitted_at__gte=midnight_on(since - dt.timedelta(days=1), dt.UTC))),
            assignment_id__in=assignment_ids,
            submitted_at__lt=before,
        )
        .order_by()
        .values_list("assignment_id", "occurrence_on")
        # The first sending of each slot, in SQL; an entry with no slot of its
        # own is read with its time, for its day on the client's clock below.
        .annotate(
            first=Min(bounds.passed_at_sending()),
            sent_at=Case(When(no_slot, then="submitted_at")),
        )
    )
    for assignment_id, occurrence_on, first, sent_at in rows:
        slot = occurrence_on
        if slot is None:
            if sent_at is None:
                continue
            slot = timezone.localdate(sent_at, zones[assignment_id])
        sent = first_sent[assignment_id]
        sent[slot] = min(sent.get(slot, first), first)
    return first_sent


def _sent_by(sent: _Sent, period: Period, bounds: _Bounds) -> _Sent:
    """The slots with something sent before ``period`` ended (a slot first
    sent for later had nothing sent for it by then)."""
    if period.end == bounds.moments[-1]:
        return sent  # nothing later was read (_first_sent's ``before``)
    return {on: first for on, first in sent.items() if bounds.sent_before(first, period.end)}


def _tally(
    assignment: Assignment, *, sent: _Sent, period: Period, days: _Days, bounds: _Bounds
) -> schedules.Tally | None:
    """One recurring assignment's count in the period, or None when it has
    no part in it."""
    first = max(assignment.starts_on, days.first)
    # A slot still open as the period began (last Monday's, for a session on
    # Wednesday) was not due in the period before: it is this one's, unless
    # something was sent for it then, which that period counted as done.
    carried = schedules.open_slot(assignment, days.first)
    if carried is not None and not (
        carried in sent and bounds.sent_before(sent[carried], period.start)
    ):
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
    bounds = _Bounds.of([period])
    recurring = [a for a in assignments if a.schedule != Assignment.Schedule.ONCE]
    first_sent = _first_sent(
        [a.pk for a in recurring],
        zones={a.pk: days.zone for a in recurring},
        since=days.carried_from,
        before=period.end,
        bounds=bounds,
    )
    counts = {}
    for assignment in recurring:
        tally = _tally(
            assignment, sent=first_sent[assignment.pk], period=period, days=days, bounds=bounds
        )
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


def _one_off_count(once: Q, shared_when: Q) -> Case:
    """SQL: how many of a one-off assignment's entries were shared ``shared_when``
    (0 for recurring work, whose slots ``_first_sent`` reads instead). A
    subquery each, not a count over a join of every assignment's every entry,
    which cost the caseload more than all its recurring work."""
    shared = Entry.objects.readable_by_staff().filter(assignment=OuterRef("pk")).filter(shared_when)
    counted = shared.order_by().values("assignment").annotate(n=Count("pk")).values("n")[:1]
    return Case(
        When(once, then=Coalesce(Subquery(counted), 0)), default=0, output_field=IntegerField()
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
    once = Q(schedule=Assignment.Schedule.ONCE)
    counts_by_period = {}
    for index, period in enumerate(periods):
        # Learned in the period: an entry kept private and shared later is this
        # period's news (Entry.shared_at), as in the summary's sections.
        in_period = Q(shared_at__gte=period.start, shared_at__lt=period.end)
        counts_by_period[f"sent_in_period_{index}"] = _one_off_count(once, in_period)
        counts_by_period[f"shared_before_period_{index}"] = _one_off_count(
            once, Q(shared_at__lt=period.start)
        )
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
    bounds = _Bounds.of(periods)
    first_sent = _first_sent(
        [a.pk for a in recurring],
        zones={a.pk: zones[a.client_id] for a in recurring},
        since=carried_from,
        before=bounds.moments[-1],
        bounds=bounds,
    )
    by_client: dict[int, list[Assignment]] = defaultdict(list)
    for assignment in assignments:
        by_client[assignment.client_id].append(assignment)
    for client in clients:
        for index, period in enumerate(periods):
            period_days = days[client.pk, index]
            # One-off work is judged as of the period's end, or now if that is still
            # to come; a due date, on the client's calendar too: work due on a day not
            # yet over for them is not past due (schedules.one_off_standing).
            due_as_of = min(period.as_of(now), client_today(client, now))
            items = [
                item
                for assignment in by_client[client.pk]
                if _in_period(assignment, period=period, days=period_days)
                for item in _work_items(
                    assignment,
                    index=index,
                    sent=_sent_by(first_sent[assignment.pk], period, bounds),
                    period=period,
                    days=period_days,
                    bounds=bounds,
                    due_as_of=due_as_of,
                )
            ]
            result[client.pk].append(WorkInPeriod(items=items))
    return result


def _work_items(
    assignment: Assignment,
    *,
    index: int,
    sent: _Sent,
    period: Period,
    days: _Days,
    bounds: _Bounds,
    due_as_of: dt.date,
) -> list[WorkItem]:
    """``assignment``'s share of period ``index`` (none, or one item)."""
    title = assignment.exercise.title
    if assignment.schedule != Assignment.Schedule.ONCE:
        tally = _tally(assignment, sent=sent, period=period, days=days, bounds=bounds)
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
