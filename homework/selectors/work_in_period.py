"""How much assigned work came back in a period; private entries never count, even as a number."""

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import Case, Count, IntegerField, Min, OuterRef, Q, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from clients.models import Client
from homework import schedules
from homework.models import DAYS_BEFORE_MAX, Assignment, Entry, with_session_days
from homework.schedules import Progress
from homework.selectors.period import Period, midnight_on
from homework.selectors.portal import client_today
from homework.selectors.progress import one_off_progress
from homework.selectors.scoping import assignments_for_user
from practice.dates import as_zone
from practice.models import User


@dataclass(frozen=True)
class WorkItem:
    assignment_id: int
    title: str
    recurring: bool
    state: str
    due_on: dt.date | None = None
    done: int = 0  # recurring: days with something sent; one-off: entries sent in the period
    expected: int = 0
    unit: str = schedules.DAYS
    coming: schedules.Coming | None = None

    @property
    def count_in_words(self) -> str:
        return schedules.count_in_words(
            done=self.done, expected=self.expected, unit=self.unit, coming=self.coming
        )


@dataclass(frozen=True)
class WorkInPeriod:
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
        """Open one-off work is not due yet."""
        done = due = 0
        for item in self.items:
            if item.recurring:
                done, due = done + item.done, due + item.expected
            elif item.state in (self.DONE, self.OVERDUE):
                done, due = done + (item.state == self.DONE), due + 1
        return done, due

    @property
    def one_off(self) -> int:
        return sum(1 for item in self.items if not item.recurring)


# A before-session window may open a month ahead of its session.
_LONGEST_SLOT = dt.timedelta(days=DAYS_BEFORE_MAX)


@dataclass(frozen=True)
class _Days:
    zone: dt.tzinfo
    first: dt.date
    last: dt.date
    as_of: dt.date
    counted_until: dt.date
    # A weekly slot from before the period can still be open as it begins: this period counts it.
    carried_from: dt.date


def _days(*, client: Client, period: Period, now: dt.datetime) -> _Days:
    zone = as_zone(client.timezone)
    first_day, last_day = period.days_on(zone)
    as_of = period.as_of(now, zone=zone)
    client_day = client_today(client, now)
    # While the client's today is the last day counted, its slot is open, not missed.
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
    """A slot's first sending is kept as how many of these moments had passed, worked out in SQL."""

    moments: tuple[dt.datetime, ...]

    @classmethod
    def of(cls, periods: Sequence[Period]) -> "_Bounds":
        return cls(tuple(sorted({p.start for p in periods} | {p.end for p in periods})))

    def passed_at_sending(self) -> Case:
        return Case(
            *(
                When(submitted_at__lt=moment, then=Value(n))
                for n, moment in enumerate(self.moments)
            ),
            default=Value(len(self.moments)),
            output_field=IntegerField(),
        )

    def sent_before(self, passed: int, moment: dt.datetime) -> bool:
        return passed <= self.moments.index(moment)


_Sent = dict[dt.date, int]


def _first_sent(
    assignment_ids: list[int],
    *,
    zones: dict[int, dt.tzinfo],
    since: dt.date,
    before: dt.datetime,
    bounds: _Bounds,
) -> dict[int, _Sent]:
    first_sent: dict[int, _Sent] = defaultdict(dict)
    if not assignment_ids:
        return first_sent
    no_slot = Q(occurrence_on__isnull=True)
    rows = (
        Entry.objects.readable_by_staff()
        .filter(
            # Whole days: the first day's work counts even if done before that day's session.
            Q(occurrence_on__gte=since)
            | (no_slot & Q(submitted_at__gte=midnight_on(since - dt.timedelta(days=1), dt.UTC))),
            assignment_id__in=assignment_ids,
            submitted_at__lt=before,
        )
        .order_by()
        .values_list("assignment_id", "occurrence_on")
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
    if period.end == bounds.moments[-1]:
        return sent
    return {on: first for on, first in sent.items() if bounds.sent_before(first, period.end)}


def _tally(
    assignment: Assignment, *, sent: _Sent, period: Period, days: _Days, bounds: _Bounds
) -> schedules.Tally | None:
    if assignment.schedule == Assignment.Schedule.BEFORE_SESSION:
        sent = _by_window(assignment, sent)
    first = max(assignment.starts_on, days.first)
    # A slot still open as the period began is this one's, unless the one before counted it done.
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
        latest_filed=max((on for on in sent if on >= first), default=None),
    )
    ended_before = assignment.ends_on is not None and assignment.ends_on < days.first
    if not tally.expected and (ended_before or tally.coming is None):
        return None
    return tally


def _by_window(assignment: Assignment, sent: _Sent) -> _Sent:
    """Each answer under the window it now falls in, so a moved session keeps its answer."""
    found: _Sent = {}
    for on, first in sent.items():
        slot = schedules.slot_for(assignment, on) or on
        found[slot] = min(found.get(slot, first), first)
    return found


def recurring_in_period(
    assignments: Sequence[Assignment], *, client: Client, period: Period, now: dt.datetime
) -> dict[int, schedules.Tally]:
    days = _days(client=client, period=period, now=now)
    bounds = _Bounds.of([period])
    recurring = with_session_days(
        [a for a in assignments if a.schedule != Assignment.Schedule.ONCE]
    )
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
    return completion_for_periods(user=user, clients=[client], periods=[period], now=now)[
        client.pk
    ][0]


def _in_period(assignment: Assignment, *, period: Period, days: _Days) -> bool:
    if assignment.schedule == Assignment.Schedule.ONCE:
        return assignment.starts_on <= period.until
    return assignment.starts_on <= days.last and (
        assignment.ends_on is None or assignment.ends_on >= days.carried_from
    )


def _one_off_count(once: Q, shared_when: Q) -> Case:
    shared = Entry.objects.readable_by_staff().filter(assignment=OuterRef("pk")).filter(shared_when)
    counted = shared.order_by().values("assignment").annotate(n=Count("pk")).values("n")[:1]
    return Case(
        When(once, then=Coalesce(Subquery(counted), 0)), default=0, output_field=IntegerField()
    )


def completion_for_periods(
    *, user: User, clients: Sequence[Client], periods: Sequence[Period], now: dt.datetime
) -> dict[int, list[WorkInPeriod]]:
    """Two queries, whatever the number of clients, periods or entries."""
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
        # An entry kept private and shared later is this period's news.
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
                & (Q(ends_on__gte=carried_from) | Q(ends_on__isnull=True))
            )
        )
        .exclude(status=Assignment.Status.CANCELLED)
        .select_related("exercise")
        .annotate(**counts_by_period)
        .order_by("starts_on", "pk")
    )
    with_session_days(assignments)
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
            # Work due on a day not yet over for the client is not past due.
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
        return []
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
