"""Where each assignment stands for the therapist."""

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, Max, Prefetch, Q, QuerySet
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone

from clients.models import Client, Session
from homework import schedules
from homework.models import Assignment, Entry, days_of, with_session_days
from homework.schedules import Progress
from homework.selectors.portal import client_today


@dataclass(frozen=True)
class AssignmentProgress:
    """An open slot is due only once something was sent: until its time is over, not missed."""

    state: Progress
    done: int
    due_so_far: int | None = None
    scheduled: int | None = None
    unit: str = schedules.DAYS
    coming: schedules.Coming | None = None
    # No end date: ``scheduled`` counts only to today, and no total "in all" is said.
    open_ended: bool = False

    @property
    def count_in_words(self) -> str:
        return schedules.count_in_words(
            done=self.done, expected=self.due_so_far or 0, unit=self.unit, coming=self.coming
        )

    @property
    def is_recurring(self) -> bool:
        return self.scheduled is not None


def with_progress(assignments: QuerySet[Assignment], *, today: dt.date) -> QuerySet[Assignment]:
    sent = Q(entries__status=Entry.Status.SUBMITTED)
    tomorrow = timezone.make_aware(dt.datetime.combine(today + dt.timedelta(days=1), dt.time()))
    by_today = Q(entries__occurrence_on__lte=today) | Q(
        entries__occurrence_on__isnull=True, entries__submitted_at__lt=tomorrow
    )
    day_of_entry = Coalesce("entries__occurrence_on", TruncDate("entries__submitted_at"))
    return assignments.annotate(
        sent_count=Count("entries", filter=sent),
        days_done=Count(day_of_entry, filter=sent & by_today, distinct=True),
        last_day_done=Max(day_of_entry, filter=sent & by_today),
        # Work sent early is not counted yet, but the therapist is told it was sent.
        last_day_filed=Max(day_of_entry, filter=sent),
        last_sent_at=Max("entries__submitted_at", filter=sent),
    )


# A client's day is at most a day either side of the UTC date (calendars span UTC-12 to +14).
_EARLIEST_CALENDAR = dt.timedelta(hours=-12)
_LATEST_CALENDAR = dt.timedelta(hours=14)


def days_anywhere(now: dt.datetime) -> tuple[dt.date, dt.date]:
    utc = now.astimezone(dt.UTC)
    return (utc + _EARLIEST_CALENDAR).date(), (utc + _LATEST_CALENDAR).date()


BEFORE_SESSION = Q(schedule=Assignment.Schedule.BEFORE_SESSION)


def overdue(assignments: QuerySet[Assignment], *, now: dt.datetime) -> QuerySet[Assignment]:
    """A conservative bound, as SQL has no calendars; before-session work is read in Python."""
    _, latest = days_anywhere(now)
    return (
        with_progress(assignments, today=latest)
        .filter(status=Assignment.Status.ACTIVE)
        .filter(
            Q(schedule=Assignment.Schedule.ONCE, due_on__lt=latest, sent_count=0) | BEFORE_SESSION
        )
    )


def overdue_exactly(assignments: QuerySet[Assignment], *, now: dt.datetime) -> QuerySet[Assignment]:
    candidates = overdue(assignments, now=now)
    earliest, _ = days_anywhere(now)
    borderline = [
        assignment.pk
        for assignment in with_session_days(
            list(
                candidates.filter(Q(due_on__gte=earliest) | BEFORE_SESSION).select_related("client")
            )
        )
        if is_overdue(assignment, now=now)
    ]
    return candidates.filter(
        Q(schedule=Assignment.Schedule.ONCE, due_on__lt=earliest) | Q(pk__in=borderline)
    )


def is_overdue(assignment: Assignment, *, now: dt.datetime) -> bool:
    """On the client's own calendar; select ``assignment.client`` with the row."""
    today = client_today(assignment.client, now)
    return completion(assignment, today=today).state == Progress.OVERDUE


def one_off_progress(assignment: Assignment, *, sent: int, today: dt.date) -> Progress:
    return schedules.one_off_standing(
        sent=sent,
        due_on=assignment.due_on,
        today=today,
        is_log=False,  # only the client's side of the rule depends on it
        completed=assignment.status == Assignment.Status.COMPLETED,
    ).progress


def completion(assignment: Assignment, *, today: dt.date) -> AssignmentProgress:
    sent: int = getattr(assignment, "sent_count", 0)
    if assignment.status == Assignment.Status.CANCELLED:
        return AssignmentProgress(Progress.CANCELLED, sent)
    if assignment.schedule == Assignment.Schedule.ONCE:
        return AssignmentProgress(one_off_progress(assignment, sent=sent, today=today), sent)
    # Open-ended work ("until I stop it") has no total: counted up to today.
    ends_on = assignment.ends_on or max(today, assignment.starts_on)
    scheduled = schedules.count_slots(assignment, start=assignment.starts_on, end=ends_on)
    days_sent: int = getattr(assignment, "days_done", 0)
    latest_sent: dt.date | None = getattr(assignment, "last_day_done", None)
    if assignment.schedule == Assignment.Schedule.BEFORE_SESSION:
        # Counted by window: a session moved after its answer keeps it, and is not counted twice.
        answered = schedules.answered_slots(assignment, up_to=today)
        days_sent, latest_sent = len(answered), max(answered, default=None)
    so_far = schedules.tally_so_far(
        assignment,
        start=assignment.starts_on,
        today=today,
        days_sent=days_sent,
        latest_sent=latest_sent,
        latest_filed=getattr(assignment, "last_day_filed", None),
    )
    done = so_far.done
    open_ended = assignment.ends_on is None
    if assignment.status == Assignment.Status.COMPLETED or (
        not open_ended and scheduled and done >= scheduled
    ):
        state = Progress.DONE
    elif not open_ended and ends_on < today:
        state = Progress.ENDED
    elif schedules.missed_before_session(assignment, today=today, latest_sent=latest_sent):
        state = Progress.OVERDUE
    else:
        state = Progress.OPEN
    return AssignmentProgress(
        state,
        done,
        due_so_far=so_far.expected,
        scheduled=scheduled,
        open_ended=open_ended,
        unit=so_far.unit,
        coming=so_far.coming,
    )


OPEN_WORK = frozenset({Progress.OPEN, Progress.OVERDUE})


def with_open_work(clients: QuerySet[Client], *, now: dt.datetime) -> QuerySet[Client]:
    _, latest = days_anywhere(now)  # no client's today is later (completion clamps)
    active = with_progress(Assignment.objects.filter(status=Assignment.Status.ACTIVE), today=latest)
    return clients.prefetch_related(
        Prefetch("assignments", queryset=active, to_attr="active_work"),
        # Before-session work reads its windows from these, in one query for the page.
        Prefetch("sessions", queryset=Session.objects.order_by(), to_attr="booked_sessions"),
    )


def open_work(client: Client, *, now: dt.datetime) -> int:
    if client.status != Client.Status.ACTIVE:
        return 0
    today = client_today(client, now)
    active: list[Assignment] = getattr(client, "active_work", [])
    booked = getattr(client, "booked_sessions", None)
    if booked is not None:
        known = {client.pk: days_of((s.starts_at for s in booked), zone=client.timezone)}
        with_session_days(active, known=known)
    return sum(1 for a in active if completion(a, today=today).state in OPEN_WORK)
