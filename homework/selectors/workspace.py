"""What the therapist reads in the admin."""

import datetime as dt
from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.utils import timezone

from clients.models import Client, Session
from clients.selectors import (
    SessionWindow,
    clients_for_user,
    sessions_on_days,
)
from homework.models import Alert, Assignment, Entry, readable_by_staff_q, with_session_days
from homework.selectors.alerts import HOME_ALERTS_SHOWN, alerts_for_user, open_alerts
from homework.selectors.listing import listed, opened_where
from homework.selectors.new_by_client import ClientNews, new_by_client
from homework.selectors.portal import client_today
from homework.selectors.progress import (
    AssignmentProgress,
    completion,
    overdue_exactly,
    with_progress,
)
from homework.selectors.scoping import (
    assignments_for_user,
    entries_for_user,
    flags_first,
    known_after,
    known_by,
    read_first,
)
from practice.models import User

# The admin home lists felt-unsafe flags from this far back, whatever else was read.
UNSAFE_FLAG_WINDOW = dt.timedelta(days=14)


def felt_unsafe_lately(*, as_of: dt.datetime) -> Q:
    """Shared by the admin home and the summary, so they never disagree on how far back."""
    return read_first() & Q(shared_at__gte=as_of - UNSAFE_FLAG_WINDOW)


# Without a previous sign-in to go by, "new" means this recent.
NEW_WITHOUT_PREVIOUS_VISIT = dt.timedelta(days=7)


HOME_LIST_LIMIT = 20


@dataclass(frozen=True)
class SinceLastSession:
    client: Client
    window: SessionWindow
    entries: list[Entry]
    private_sent_at: list[dt.datetime]  # private entries: only when they were sent
    assignments: list[tuple[Assignment, AssignmentProgress]]


def staff_client(*, user: User, client_id: int | str) -> Client:
    return clients_for_user(user=user).select_related("therapist").get(pk=client_id)


def client_entries_for_staff(*, user: User, client: Client) -> QuerySet[Entry]:
    """The response fetched only where staff may read it (read through ``with_response``)."""
    entries = listed(entries_for_user(user=user)).filter(assignment__client=client)
    return opened_where(
        flags_first(entries).select_related("assignment__exercise"), readable_by_staff_q()
    )


def since_last_session(*, user: User, client: Client, window: SessionWindow) -> SinceLastSession:
    today = client_today(client, window.end)
    sent = list(
        flags_first(
            listed(entries_for_user(user=user)).filter(
                known_after(window.start), known_by(window.end), assignment__client=client
            )
        )
        # These rows say only which were sent, and when the private ones were.
        .select_related("assignment__exercise", "assignment__client")
    )
    shared = [entry for entry in sent if entry.readable_by_staff]
    private = sorted(
        (entry.submitted_at for entry in sent if not entry.readable_by_staff),
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
        assignments=[(a, completion(a, today=today)) for a in with_session_days(list(assignments))],
    )


def is_their_therapist(*, user: User, client: Client) -> bool:
    """A manager's look is never the therapist's read."""
    return user.is_therapist and client.therapist_id == user.pk


def entry_commentable_by(*, user: User, entry: Entry) -> bool:
    return entry.readable_by_staff and is_their_therapist(user=user, client=entry.assignment.client)


def staff_entry(*, user: User, entry_id: int | str) -> Entry:
    return (
        entries_for_user(user=user)
        .select_related("assignment__exercise", "assignment__client")
        .get(pk=entry_id)
    )


@dataclass(frozen=True)
class StaffHome:
    alerts: list[Alert]  # open, waiting longest first
    alerts_more: bool
    today: list[Session]
    tomorrow: list[Session]
    new_since: dt.datetime
    new_since_previous_visit: bool  # False: the default window (no previous sign-in known)
    new_by_client: list[ClientNews]  # alerts and flags first
    new_clients: int  # how many clients sent something new, shown or not
    new_count: int
    overdue: list[Assignment]
    overdue_count: int
    unsafe: list[Entry]
    # Answers the questionnaire's authors ask to be reviewed (never felt unsafe too: listed there).
    to_review: list[Entry]

    @property
    def unsafe_flag_days(self) -> int:
        return UNSAFE_FLAG_WINDOW.days


def new_since_for(previous_visit: dt.datetime | None, *, now: dt.datetime) -> dt.datetime:
    return previous_visit or now - NEW_WITHOUT_PREVIOUS_VISIT


def new_entries(entries: QuerySet[Entry], *, since: dt.datetime) -> QuerySet[Entry]:
    return entries.filter(known_after(since), assignment__client__status=Client.Status.ACTIVE)


def staff_home(*, user: User, previous_visit: dt.datetime | None, now: dt.datetime) -> StaffHome:
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
        active_entries.readable_by_staff()
        .filter(felt_unsafe_lately(as_of=now))
        .select_related("assignment__exercise", "assignment__client__therapist")
        .order_by("-submitted_at")
    )
    readable_flags = [entry for entry in flagged if entry.readable_by_staff]
    alerts = list(open_alerts(user=user)[: HOME_ALERTS_SHOWN + 1])
    news, new_clients, new_count = new_by_client(
        new, alerts_for_user(user=user).filter(acknowledged_at=None)
    )
    return StaffHome(
        alerts=alerts[:HOME_ALERTS_SHOWN],
        alerts_more=len(alerts) > HOME_ALERTS_SHOWN,
        today=[s for s in sessions if timezone.localdate(s.starts_at) == today],
        tomorrow=[s for s in sessions if timezone.localdate(s.starts_at) != today],
        new_since=new_since,
        new_since_previous_visit=previous_visit is not None,
        new_by_client=news,
        new_clients=new_clients,
        new_count=new_count,
        overdue=list(
            past_due.select_related("exercise", "client__therapist").order_by("due_on", "pk")[
                :HOME_LIST_LIMIT
            ]
        ),
        overdue_count=past_due.count(),
        unsafe=[entry for entry in readable_flags if entry.felt_unsafe],
        to_review=[entry for entry in readable_flags if not entry.felt_unsafe],
    )
