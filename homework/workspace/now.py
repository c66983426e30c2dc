"""What matters now for one client, at the top of their page in the admin: flags not yet read, the
next session, the work done of what was due over the last 7 and 28 days, their open work, and
their last entries as each kind's digest. Read through the selectors the session summary uses, so
the numbers and words here are the summary's."""

import datetime as dt
from dataclasses import dataclass
from typing import Any

from clients.models import Client, Session
from clients.selectors import sessions_for_user
from homework.kinds.worksheet.over_time import measure_over_time
from homework.models import Alert, Assignment, Entry, with_session_days
from homework.schedules import Progress
from homework.selectors import (
    assignments_for_user,
    client_today,
    completion,
    entries_for_user,
    with_progress,
)
from homework.selectors.alerts import client_alerts
from homework.selectors.measures import measure_histories
from homework.selectors.period import period_for_dates
from homework.selectors.progress import OPEN_WORK
from homework.selectors.scoping import read_first
from homework.selectors.work_in_period import WorkInPeriod, completion_for_period
from homework.summary.render import summary_context
from homework.summary.selectors import SESSION_GRACE, summary_data
from homework.workspace.display import schedule_text
from practice.models import User

# Enough to act on at a glance; the rest are one click away ("All entries").
UNREAD_FLAGS_SHOWN = 10
# The digest of the last entries: the last four weeks, as the 28-day count.
RECENT_DAYS = 28
WEEK_DAYS = 7


@dataclass(frozen=True)
class DoneOfDue:
    """Work done of what was due in the last ``days``, by the summary's rule."""

    days: int
    done: int
    due: int

    @classmethod
    def of(cls, work: WorkInPeriod, *, days: int) -> "DoneOfDue":
        recurring = work.recurring
        return cls(
            days=days,
            done=work.done + sum(item.done for item in recurring),
            due=work.done + work.overdue + sum(item.expected for item in recurring),
        )


@dataclass(frozen=True)
class OpenWork:
    assignment: Assignment
    schedule: str
    state: Progress  # open or overdue, by the progress column's rule (selectors.completion)


@dataclass(frozen=True)
class ClientNow:
    alerts: list[Alert]  # open first, then those acknowledged lately
    unread_flags: list[Entry]
    unread_flags_more: bool
    next_session: Session | None
    week: DoneOfDue
    month: DoneOfDue
    open_work: list[OpenWork]
    # The summary's drawing of the last four weeks: "sections" and "entry_count".
    recent: dict[str, Any]


def client_now(*, user: User, client: Client, now: dt.datetime) -> ClientNow:
    today = client_today(client, now)
    flags = list(
        entries_for_user(user=user)
        .readable_by_staff()
        .filter(read_first(), assignment__client=client, seen_at__isnull=True)
        .select_related("assignment__exercise")
        .order_by("-submitted_at", "-pk")[: UNREAD_FLAGS_SHOWN + 1]
    )
    flags = [entry for entry in flags if entry.readable_by_staff]
    next_session = (
        sessions_for_user(user=user)
        .filter(client=client, starts_at__gte=now - SESSION_GRACE)
        .order_by("starts_at")
        .first()
    )
    month_period = period_for_dates(
        since=today - dt.timedelta(days=RECENT_DAYS - 1), until=today, session=None
    )
    week_period = period_for_dates(
        since=today - dt.timedelta(days=WEEK_DAYS - 1), until=today, session=None
    )
    recent = summary_data(user=user, client=client, period=month_period, full_detail=False, now=now)
    week = completion_for_period(user=user, client=client, period=week_period, now=now)
    active = with_progress(
        assignments_for_user(user=user).filter(client=client, status=Assignment.Status.ACTIVE),
        today=today,
    )
    # Still active is not still open: work already sent is done, whatever its due date.
    standing = [
        (a, completion(a, today=today).state)
        for a in with_session_days(
            list(active.select_related("exercise").order_by("due_on", "ends_on", "created_at"))
        )
    ]
    drawn = summary_context(recent)
    return ClientNow(
        alerts=client_alerts(user=user, client=client, now=now),
        unread_flags=flags[:UNREAD_FLAGS_SHOWN],
        unread_flags_more=len(flags) > UNREAD_FLAGS_SHOWN,
        next_session=next_session,
        week=DoneOfDue.of(week, days=WEEK_DAYS),
        month=DoneOfDue.of(recent.completion, days=RECENT_DAYS),
        open_work=[
            OpenWork(a, schedule_text(a), state) for a, state in standing if state in OPEN_WORK
        ],
        recent={"sections": drawn["sections"], "entry_count": drawn["entry_count"]},
    )


def measures_over_time(*, user: User, client: Client) -> list[dict[str, Any]]:
    """Every scored measure's totals and subscale scores, all of them: the change reads from the
    first score sent."""
    return [
        measure_over_time(history.exercise, history.scores, history.subscales)
        for history in measure_histories(user=user, client=client)
    ]
