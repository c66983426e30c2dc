"""Every row in a fixed number of queries, however many clients and however long their logs."""

import datetime as dt
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from clients.contact.selectors import Recheck, contact_profile_of, contact_recheck
from clients.models import Client, Session
from clients.selectors import active_therapists, clients_for_user
from homework.kinds import all_kinds, get_kind
from homework.kinds.base import TREND_EASING, TREND_STEADY, TREND_STRONGER
from homework.models import Entry
from homework.selectors.alerts import alerts_for_user
from homework.selectors.measures import MeasureChange, measure_changes
from homework.selectors.period import period_for_dates, practice_date
from homework.selectors.portal import client_today
from homework.selectors.programs import Standing, running_programs, standing
from homework.selectors.scoping import entries_for_user, read_first
from homework.selectors.work_in_period import completion_for_periods
from practice.models import User
from practice.requests import parse_id
from practice.roles import is_acting_manager

WEEK_DAYS = 7
MONTH_DAYS = 28
REVIEW_WORDS_SHOWN = 3
TOO_FEW = "too_few"


@dataclass(frozen=True)
class CaseloadRow:
    client: Client
    open_alerts: int  # not yet acknowledged: they sort first
    unread_flags: int
    unread_unsafe: int
    unread_review: int  # of the flags, those not felt unsafe
    review_words: list[str]
    review_more: int
    week: tuple[int, int]  # done, of what was due
    month: tuple[int, int]
    urges: str | None  # None: no urges logged lately
    last_entry_at: dt.datetime | None
    next_session_at: dt.datetime | None
    contact: Recheck
    program: Standing | None  # the oldest running one
    more_programs: int  # running besides it
    measures: list[MeasureChange]  # each scored measure's first and latest, by title


def caseload_therapists(*, user: User) -> QuerySet[User]:
    if is_acting_manager(user):
        return active_therapists()
    if user.is_therapist:
        return User.objects.filter(pk=user.pk)
    return User.objects.none()


def caseload_therapist(*, user: User, asked: str | None) -> User | None:
    therapists = caseload_therapists(user=user)
    if asked is None or asked == "":
        return user if user.is_therapist else therapists.first()
    therapist_id = parse_id(asked)
    if therapist_id is None:
        raise User.DoesNotExist
    return therapists.get(pk=therapist_id)


def _count(entries: QuerySet[Entry]) -> Coalesce:
    counted = entries.order_by().values("assignment__client").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted[:1]), 0, output_field=IntegerField())


def _clients(*, user: User, therapist: User, now: dt.datetime) -> list[Client]:
    theirs = entries_for_user(user=user).filter(assignment__client=OuterRef("pk"))
    # Never a private entry's flags: they are the client's alone (scoping.flags_first).
    unread = theirs.readable_by_staff().filter(seen_at__isnull=True)
    flagged = read_first() | Q(discuss_in_session=True)
    next_session = Session.objects.filter(client=OuterRef("pk"), starts_at__gte=now).order_by(
        "starts_at"
    )
    last_entry = theirs.order_by("-submitted_at")
    open_alerts = (
        alerts_for_user(user=user)
        .filter(client=OuterRef("pk"), acknowledged_at__isnull=True)
        .order_by()
        .values("client")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return list(
        clients_for_user(user=user)
        .filter(therapist=therapist, status=Client.Status.ACTIVE)
        .select_related("contact_profile")
        .annotate(
            open_alerts=Coalesce(Subquery(open_alerts[:1]), 0, output_field=IntegerField()),
            unread_flags=_count(unread.filter(flagged)),
            unread_unsafe=_count(unread.filter(felt_unsafe=True)),
            unread_review=_count(unread.filter(needs_review=True, felt_unsafe=False)),
            # A private entry's existence and time are the therapist's to know.
            last_entry_at=Subquery(last_entry.values("submitted_at")[:1]),
            next_session_at=Subquery(next_session.values("starts_at")[:1]),
        )
        .order_by("display_name", "pk")
    )


def _trends(*, user: User, clients: list[Client], now: dt.datetime) -> dict[int, str | None]:
    """Plain columns only, so a year of daily logging costs what a month does."""
    slugs = [kind.slug for kind in all_kinds() if kind.has_trend]
    if not clients or not slugs:
        return {}
    # A day more than any client's month, so it has begun on every clock.
    since = practice_date(now) - dt.timedelta(days=MONTH_DAYS + 1)
    scores = (
        entries_for_user(user=user)
        .readable_by_staff()
        .filter(
            assignment__client__in=[client.pk for client in clients],
            assignment__exercise__kind__in=slugs,
            occurrence_on__gte=since,
        )
        .order_by()
        .values_list(
            "assignment__client_id", "assignment__exercise__kind", "occurrence_on", "score"
        )
    )
    grouped: dict[tuple[int, str], list[tuple[dt.date, float | None]]] = defaultdict(list)
    for client_id, slug, day, score in scores:
        if day is not None:  # never, by the filter; said so for the types
            grouped[client_id, slug].append((day, score))
    by_pk = {client.pk: client for client in clients}
    trends: dict[int, str | None] = {}
    for (client_id, slug), logged in sorted(grouped.items()):
        month_start = client_today(by_pk[client_id], now) - dt.timedelta(days=MONTH_DAYS - 1)
        trend = get_kind(slug).trend([(day, score) for day, score in logged if day >= month_start])
        if trends.get(client_id) is None:
            trends[client_id] = trend or TOO_FEW
    return trends


def _review_words(*, user: User, clients: list[Client]) -> dict[int, list[str]]:
    entries = (
        entries_for_user(user=user)
        .readable_by_staff()
        .filter(
            assignment__client__in=[client.pk for client in clients],
            seen_at__isnull=True,
            needs_review=True,
            felt_unsafe=False,
        )
        .select_related("assignment__exercise")
        .order_by("-submitted_at", "-pk")
    )
    shown: dict[int, list[Entry]] = defaultdict(list)
    for entry in entries:
        if len(shown[entry.assignment.client_id]) < REVIEW_WORDS_SHOWN:
            shown[entry.assignment.client_id].append(entry)
    return {
        client_id: [
            words
            for entry in own
            for words in get_kind(entry.assignment.exercise.kind).review_words(entry)
        ]
        for client_id, own in shown.items()
    }


def _running_programs(*, user: User, clients: list[Client]) -> dict[int, list[Standing]]:
    """Two queries for every row: the programs, then their steps."""
    if not clients:
        return defaultdict(list)
    chosen = clients_for_user(user=user).filter(pk__in=[client.pk for client in clients])
    by_client: dict[int, list[Standing]] = defaultdict(list)
    for client_program in running_programs(chosen):
        by_client[client_program.client_id].append(standing(client_program))
    return by_client


def caseload(*, user: User, therapist: User, now: dt.datetime) -> list[CaseloadRow]:
    clients = _clients(user=user, therapist=therapist, now=now)
    today = practice_date(now)
    periods = [
        period_for_dates(since=today - dt.timedelta(days=days - 1), until=today, session=None)
        for days in (WEEK_DAYS, MONTH_DAYS)
    ]
    work = completion_for_periods(user=user, clients=clients, periods=periods, now=now)
    trends = _trends(user=user, clients=clients, now=now)
    review = _review_words(user=user, clients=clients)
    programs = _running_programs(user=user, clients=clients)
    measures = measure_changes(user=user, clients=clients)
    return [
        CaseloadRow(
            client=client,
            open_alerts=client.open_alerts,  # type: ignore[attr-defined]
            unread_flags=client.unread_flags,  # type: ignore[attr-defined]
            unread_unsafe=client.unread_unsafe,  # type: ignore[attr-defined]
            unread_review=client.unread_review,  # type: ignore[attr-defined]
            review_words=review.get(client.pk, []),
            review_more=max(0, client.unread_review - REVIEW_WORDS_SHOWN),  # type: ignore[attr-defined]
            week=work[client.pk][0].done_of_due,
            month=work[client.pk][1].done_of_due,
            urges=trends.get(client.pk),
            last_entry_at=client.last_entry_at,  # type: ignore[attr-defined]
            next_session_at=client.next_session_at,  # type: ignore[attr-defined]
            contact=contact_recheck(contact_profile_of(client), today=today),
            program=programs[client.pk][0] if programs[client.pk] else None,
            more_programs=max(0, len(programs[client.pk]) - 1),
            measures=measures.get(client.pk, []),
        )
        for client in clients
    ]


def _share(pair: tuple[int, int]) -> float | None:
    done, due = pair
    return done / due if due else None


_URGE_ORDER = {TREND_STRONGER: 0, TREND_STEADY: 1, TOO_FEW: 2, TREND_EASING: 3}


def _program_key(row: CaseloadRow) -> tuple[bool, float] | None:
    """Running before paused, then by how far along."""
    if row.program is None:
        return None
    return (not row.program.is_paused, row.program.finished / (row.program.steps or 1))


def _measures_key(row: CaseloadRow) -> tuple[int, int, int] | None:
    """Reliably worse first, then no reliable change, then reliably improved."""
    readings = [change.reading for change in row.measures if change.reading is not None]
    if not readings:
        return None
    return (
        -sum(reading.direction == "worsened" for reading in readings),
        -sum(reading.reliable is False and reading.needed is not None for reading in readings),
        sum(reading.direction == "improved" for reading in readings),
    )


# Sort keys per column; a row with None goes last whichever way the column is sorted.
SORT_KEYS: dict[str, Callable[[CaseloadRow], Any]] = {
    "name": lambda row: row.client.display_name.casefold(),
    "flags": lambda row: (row.open_alerts, row.unread_unsafe + row.unread_review, row.unread_flags),
    "week": lambda row: _share(row.week),
    "month": lambda row: _share(row.month),
    "urges": lambda row: _URGE_ORDER.get(row.urges) if row.urges else None,
    "last_entry": lambda row: row.last_entry_at,
    "next_session": lambda row: row.next_session_at,
    "contact": lambda row: row.contact.checked_on,
    "program": _program_key,
    "measures": _measures_key,
}
DEFAULT_SORT = "-flags"


def sort_order(asked: str | None) -> str:
    """A stale link still shows the caseload."""
    if asked and asked.removeprefix("-") in SORT_KEYS:
        return asked
    return DEFAULT_SORT


def sorted_rows(rows: list[CaseloadRow], *, order: str) -> list[CaseloadRow]:
    key = SORT_KEYS[order.removeprefix("-")]
    by_name = sorted(rows, key=SORT_KEYS["name"])
    present = [row for row in by_name if key(row) is not None]
    missing = [row for row in by_name if key(row) is None]
    return sorted(present, key=key, reverse=order.startswith("-")) + missing
