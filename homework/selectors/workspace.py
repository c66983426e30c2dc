"""What the therapist reads in the admin: where each assignment stands,
what came back since the last session, and the home page."""

import datetime as dt
from dataclasses import dataclass

from django.db import models
from django.db.models import Count, Max, Prefetch, Q, QuerySet
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clients.models import Client, Session
from clients.selectors import (
    SessionWindow,
    clients_for_user,
    sessions_on_days,
)
from homework import schedules
from homework.models import Assignment, Entry, EntryComment
from homework.selectors.portal import client_today
from homework.selectors.scoping import (
    assignments_for_user,
    entries_for_user,
    entry_readable_by_staff,
    flags_first,
    known_after,
    known_by,
)
from practice.models import User

# The admin home lists felt-unsafe flags from this far back, whatever else was read.
UNSAFE_FLAG_WINDOW = dt.timedelta(days=14)


def felt_unsafe_lately(*, as_of: dt.datetime) -> Q:
    """Felt-unsafe flags shared within ``UNSAFE_FLAG_WINDOW`` of ``as_of``:
    the admin home's banner, and what the session summary carries forward
    from before its period while unread (homework.summary.selectors), so
    the two never disagree on how far back a flag still needs reading."""
    return Q(felt_unsafe=True, shared_at__gte=as_of - UNSAFE_FLAG_WINDOW)


# Without a previous sign-in to go by, "new" means this recent.
NEW_WITHOUT_PREVIOUS_VISIT = dt.timedelta(days=7)


HOME_LIST_LIMIT = 20


class Progress(models.TextChoices):
    DONE = "done", _("Done")
    OPEN = "open", _("Open")
    OVERDUE = "overdue", _("Overdue")
    ENDED = "ended", _("Ended")
    CANCELLED = "cancelled", _("Cancelled")


@dataclass(frozen=True)
class Completion:
    """Where one assignment stands. For a recurring one, ``done`` counts slots
    with something sent, ``due_so_far`` the slots due by today (the one still
    open, today's or this week's, only once something was sent for it: until
    its time is over it is open, not missed; schedules.tally_so_far), and
    ``scheduled`` all of them; for a one-off, ``done`` counts entries sent."""

    state: Progress
    done: int
    due_so_far: int | None = None
    scheduled: int | None = None
    unit: str = schedules.DAYS  # what a recurring one counts (schedules.unit)
    coming: schedules.Coming | None = None  # with none due so far: the first one (Tally.coming)

    @property
    def count_in_words(self) -> str:
        """ "3 of 9 check-ins" so far, in the words the summary uses too."""
        return schedules.count_in_words(
            done=self.done, expected=self.due_so_far or 0, unit=self.unit, coming=self.coming
        )

    @property
    def is_recurring(self) -> bool:
        return self.scheduled is not None


def with_progress(assignments: QuerySet[Assignment], *, today: dt.date) -> QuerySet[Assignment]:
    """Annotate what ``completion`` needs: entries sent, days with one, the
    latest of those days, and the latest day anything is filed under.

    Private entries count: the therapist may know they exist. A day is the
    entry's occurrence, or the local day it was sent; days after ``today``
    (the ``today`` given to ``completion``) are not counted yet.
    """
    sent = Q(entries__status=Entry.Status.SUBMITTED)
    tomorrow = timezone.make_aware(dt.datetime.combine(today + dt.timedelta(days=1), dt.time()))
    by_today = Q(entries__occurrence_on__lte=today) | Q(
        entries__occurrence_on__isnull=True, entries__submitted_at__lt=tomorrow
    )
    day_of_entry = Coalesce("entries__occurrence_on", TruncDate("entries__submitted_at"))
    return assignments.annotate(
        sent_count=Count("entries", filter=sent),
        days_done=Count(day_of_entry, filter=sent & by_today, distinct=True),
        # Whether the slot still open has something sent (``completion``,
        # schedules.tally_so_far): the latest day is enough, as entries are
        # filed under a slot no later than the client's today (only work
        # sent before the first slot is filed ahead, and then none is open).
        last_day_done=Max(day_of_entry, filter=sent & by_today),
        # Work sent early, filed under the first slot still to come: not
        # counted yet, but the therapist is told it was sent (schedules.Coming).
        last_day_filed=Max(day_of_entry, filter=sent),
        last_sent_at=Max("entries__submitted_at", filter=sent),
    )


# Every calendar on earth lies between UTC-12 and UTC+14: at any moment, the
# day a client is living is at most a day either side of the UTC date.
_EARLIEST_CALENDAR = dt.timedelta(hours=-12)
_LATEST_CALENDAR = dt.timedelta(hours=14)


def _days_anywhere(now: dt.datetime) -> tuple[dt.date, dt.date]:
    """The earliest and the latest date it is somewhere at ``now``."""
    utc = now.astimezone(dt.UTC)
    return (utc + _EARLIEST_CALENDAR).date(), (utc + _LATEST_CALENDAR).date()


def overdue(assignments: QuerySet[Assignment], *, now: dt.datetime) -> QuerySet[Assignment]:
    """One-off assignments with nothing sent whose due date may be past for
    their client: a conservative SQL bound (the latest date anywhere), since
    SQL cannot read each client's calendar portably. ``is_overdue`` decides
    each row, as ``completion`` does (tests hold the two together)."""
    _, latest = _days_anywhere(now)
    return (
        with_progress(assignments, today=latest)
        .filter(
            status=Assignment.Status.ACTIVE,
            schedule=Assignment.Schedule.ONCE,
            due_on__lt=latest,
        )
        .filter(Q(sent_count=0))
    )


def overdue_exactly(assignments: QuerySet[Assignment], *, now: dt.datetime) -> QuerySet[Assignment]:
    """``overdue`` made exact for a list page: the rows due on the day or two
    the clients' calendars disagree about are judged one by one (one query,
    a couple of days' worth of rows), the rest stay in SQL."""
    candidates = overdue(assignments, now=now)
    earliest, _ = _days_anywhere(now)
    borderline = [
        assignment.pk
        for assignment in candidates.filter(due_on__gte=earliest).select_related("client")
        if is_overdue(assignment, now=now)
    ]
    return candidates.filter(Q(due_on__lt=earliest) | Q(pk__in=borderline))


def is_overdue(assignment: Assignment, *, now: dt.datetime) -> bool:
    """Past its due date on the client's own calendar (``assignment.client``
    is read: select it with the row)."""
    today = client_today(assignment.client, now)
    return completion(assignment, today=today).state == Progress.OVERDUE


def one_off_state(*, sent: int, status: str, due_on: dt.date | None, today: dt.date) -> Progress:
    """Done, overdue or open: the one rule for one-off work, in the admin and
    in the session summary alike.

    Which entries count as ``sent`` is the caller's to say: the admin counts
    private ones (the therapist may know they exist), the summary does not
    (it never reflects them, not even as a number).
    """
    if sent or status == Assignment.Status.COMPLETED:
        return Progress.DONE
    if due_on is not None and due_on < today:
        return Progress.OVERDUE
    return Progress.OPEN


def completion(assignment: Assignment, *, today: dt.date) -> Completion:
    """Done / open / overdue for one assignment annotated by ``with_progress``.

    A simple count for now: the kinds' derived occurrences may refine what
    "a day done" means, and this is the one place to change.
    """
    sent: int = getattr(assignment, "sent_count", 0)
    if assignment.status == Assignment.Status.CANCELLED:
        return Completion(Progress.CANCELLED, sent)
    if assignment.schedule == Assignment.Schedule.ONCE:
        state = one_off_state(
            sent=sent, status=assignment.status, due_on=assignment.due_on, today=today
        )
        return Completion(state, sent)
    ends_on = assignment.ends_on or assignment.starts_on
    scheduled = schedules.count_slots(assignment, start=assignment.starts_on, end=ends_on)
    so_far = schedules.tally_so_far(
        assignment,
        start=assignment.starts_on,
        today=today,
        days_sent=getattr(assignment, "days_done", 0),
        latest_sent=getattr(assignment, "last_day_done", None),
        latest_filed=getattr(assignment, "last_day_filed", None),
    )
    done = so_far.done
    if assignment.status == Assignment.Status.COMPLETED or (scheduled and done >= scheduled):
        state = Progress.DONE
    elif ends_on < today:
        state = Progress.ENDED
    else:
        state = Progress.OPEN
    return Completion(
        state,
        done,
        due_so_far=so_far.expected,
        scheduled=scheduled,
        unit=so_far.unit,
        coming=so_far.coming,
    )


# Where each assignment stands, as the since-last-session page's progress
# column says it; "open work" in the client list is the count of these.
OPEN_WORK = frozenset({Progress.OPEN, Progress.OVERDUE})


def with_open_work(clients: QuerySet[Client], *, now: dt.datetime) -> QuerySet[Client]:
    """Read what ``open_work`` needs for every client listed: their active
    assignments with their progress, in one query however many clients."""
    _, latest = _days_anywhere(now)  # no client's today is later (completion clamps)
    active = with_progress(Assignment.objects.filter(status=Assignment.Status.ACTIVE), today=latest)
    return clients.prefetch_related(Prefetch("assignments", queryset=active, to_attr="active_work"))


def open_work(client: Client, *, now: dt.datetime) -> int:
    """How many of the client's assignments are open or past due, by
    ``completion`` on the client's calendar: the progress column's own rule.
    Nothing for an archived client, whose portal is closed. ``client`` comes
    from ``with_open_work``."""
    if client.status != Client.Status.ACTIVE:
        return 0
    today = client_today(client, now)
    active: list[Assignment] = getattr(client, "active_work", [])
    return sum(1 for a in active if completion(a, today=today).state in OPEN_WORK)


@dataclass(frozen=True)
class SinceLastSession:
    client: Client
    window: SessionWindow
    entries: list[Entry]  # shared entries: felt unsafe first, then to discuss, newest first
    private_sent_at: list[dt.datetime]  # private entries: only when they were sent
    assignments: list[tuple[Assignment, Completion]]


def staff_client(*, user: User, client_id: int | str) -> Client:
    """A client the member of staff may see; Client.DoesNotExist otherwise."""
    return clients_for_user(user=user).select_related("therapist").get(pk=client_id)


def since_last_session(*, user: User, client: Client, window: SessionWindow) -> SinceLastSession:
    """Everything the client sent in ``window``, and where each assignment
    stands at its end, on the client's own calendar (due dates and days are
    theirs).

    ``client`` comes from ``staff_client``. A fixed number of queries however
    many entries there are (tests pin it).
    """
    today = client_today(client, window.end)
    sent = list(
        flags_first(
            entries_for_user(user=user).filter(
                known_after(window.start), known_by(window.end), assignment__client=client
            )
        )
        .select_related("assignment__exercise", "assignment__client")
        .prefetch_related(
            Prefetch("comments", queryset=EntryComment.objects.select_related("author")), "notes"
        )
    )
    shared = [entry for entry in sent if entry_readable_by_staff(entry)]
    private = sorted(
        (entry.submitted_at for entry in sent if not entry_readable_by_staff(entry)),
        key=lambda at: at or window.end,
        reverse=True,
    )
    since = timezone.localdate(window.start)
    relevant = Q(status=Assignment.Status.ACTIVE) | Q(due_on__gte=since) | Q(ends_on__gte=since)
    assignments = (
        with_progress(assignments_for_user(user=user).filter(client=client), today=today)
        .filter(relevant)
        .select_related("exercise")
        .order_by("status", "due_on", "ends_on", "created_at")
    )
    return SinceLastSession(
        client=client,
        window=window,
        entries=shared,
        private_sent_at=[at for at in private if at is not None],
        assignments=[(a, completion(a, today=today)) for a in assignments],
    )


def entry_commentable_by(*, user: User, entry: Entry) -> bool:
    """Only the client's own therapist comments, and only on what they may read."""
    return (
        user.is_therapist
        and entry_readable_by_staff(entry)
        and entry.assignment.client.therapist_id == user.pk
    )


def staff_entry(*, user: User, entry_id: int | str) -> Entry:
    """A submitted entry the member of staff may know of; Entry.DoesNotExist otherwise."""
    return (
        entries_for_user(user=user)
        .select_related("assignment__exercise", "assignment__client")
        .get(pk=entry_id)
    )


@dataclass(frozen=True)
class StaffHome:
    today: list[Session]
    tomorrow: list[Session]
    new_since: dt.datetime
    new_since_previous_visit: bool  # False: the default window (no previous sign-in known)
    new_entries: list[Entry]
    new_count: int
    overdue: list[Assignment]
    overdue_count: int
    unsafe: list[Entry]

    @property
    def unsafe_flag_days(self) -> int:
        """How far back ``unsafe`` looks, for the banner's heading."""
        return UNSAFE_FLAG_WINDOW.days


def new_since_for(previous_visit: dt.datetime | None, *, now: dt.datetime) -> dt.datetime:
    """Where "new" starts: the previous sign-in, or a week back without one."""
    return previous_visit or now - NEW_WITHOUT_PREVIOUS_VISIT


def new_entries(entries: QuerySet[Entry], *, since: dt.datetime) -> QuerySet[Entry]:
    """What the admin calls new: sent or shared since ``since``, active clients only."""
    return entries.filter(known_after(since), assignment__client__status=Client.Status.ACTIVE)


def staff_home(*, user: User, previous_visit: dt.datetime | None, now: dt.datetime) -> StaffHome:
    """The admin home: the next two days' sessions, what is new, what is
    overdue, and every felt-unsafe flag of the last two weeks (never from a
    private entry: a private entry's flags are the client's too)."""
    today = timezone.localdate(now)
    sessions = sessions_on_days(user=user, first_day=today, days=2)
    new_since = new_since_for(previous_visit, now=now)
    active_entries = entries_for_user(user=user).filter(
        assignment__client__status=Client.Status.ACTIVE
    )
    new = new_entries(active_entries, since=new_since)
    # The same rows the admin's "past due" list filter shows ("See all").
    past_due = overdue_exactly(
        assignments_for_user(user=user).filter(client__status=Client.Status.ACTIVE), now=now
    )
    flagged = (
        active_entries.filter(felt_unsafe_lately(as_of=now))
        .select_related("assignment__exercise", "assignment__client__therapist")
        .order_by("-submitted_at")
    )
    return StaffHome(
        today=[s for s in sessions if timezone.localdate(s.starts_at) == today],
        tomorrow=[s for s in sessions if timezone.localdate(s.starts_at) != today],
        new_since=new_since,
        new_since_previous_visit=previous_visit is not None,
        new_entries=list(
            flags_first(new).select_related(
                "assignment__exercise", "assignment__client__therapist"
            )[:HOME_LIST_LIMIT]
        ),
        new_count=new.count(),
        overdue=list(
            past_due.select_related("exercise", "client__therapist").order_by("due_on", "pk")[
                :HOME_LIST_LIMIT
            ]
        ),
        overdue_count=past_due.count(),
        unsafe=[entry for entry in flagged if entry_readable_by_staff(entry)],
    )
