"""What before-session work reads its windows from: the client's booked sessions, as days on their
calendar, and the slots already answered. Loaded for a whole list at once, so a page's queries do not
grow with its rows."""

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import TypeVar

from django.utils import timezone

from clients.models import Session
from homework.models.assignments import Assignment
from homework.models.entries import Entry
from practice.dates import as_zone

_Listed = TypeVar("_Listed", bound=Iterable[Assignment])


def days_of(starts: Iterable[dt.datetime], *, zone: str) -> tuple[dt.date, ...]:
    """Sessions' days on the client's calendar: a 00:30 session in Sydney is not the UTC day's."""
    return tuple(sorted({timezone.localdate(at, as_zone(zone)) for at in starts}))


def session_days_by_client(client_ids: Iterable[int]) -> dict[int, tuple[dt.date, ...]]:
    """Each client's sessions as days on their own calendar, in one query."""
    wanted = set(client_ids)
    if not wanted:
        return {}
    starts: dict[int, list[dt.datetime]] = {}
    zones: dict[int, str] = {}
    for client_id, starts_at, zone in Session.objects.filter(client_id__in=wanted).values_list(
        "client_id", "starts_at", "client__timezone"
    ):
        starts.setdefault(client_id, []).append(starts_at)
        zones[client_id] = zone
    return {client_id: days_of(found, zone=zones[client_id]) for client_id, found in starts.items()}


def answered_days_by_assignment(assignment_ids: Iterable[int]) -> dict[int, frozenset[dt.date]]:
    """The slots with something sent, private or not: a window's shape is the same on every page."""
    wanted = set(assignment_ids)
    if not wanted:
        return {}
    found: dict[int, set[dt.date]] = {}
    for assignment_id, day in (
        Entry.objects.filter(
            assignment_id__in=wanted,
            status=Entry.Status.SUBMITTED,
            occurrence_on__isnull=False,
        )
        .order_by()
        .values_list("assignment_id", "occurrence_on")
        .distinct()
    ):
        if day is not None:
            found.setdefault(assignment_id, set()).add(day)
    return {assignment_id: frozenset(days) for assignment_id, days in found.items()}


def with_session_days(
    assignments: _Listed, *, known: Mapping[int, tuple[dt.date, ...]] | None = None
) -> _Listed:
    """Sets ``session_days`` and ``answered_days`` on the before-session work among
    ``assignments`` in two queries (none when there is none; one when ``known`` has each client's
    sessions)."""
    waiting = [
        assignment
        for assignment in assignments
        if assignment.schedule == Assignment.Schedule.BEFORE_SESSION
        and (assignment._session_days is None or assignment._answered_days is None)
    ]
    if not waiting:
        return assignments
    sessions = dict(known or {})
    missing = {a.client_id for a in waiting if a.client_id not in sessions}
    sessions.update(session_days_by_client(missing))
    answered = answered_days_by_assignment(a.pk for a in waiting if a.pk is not None)
    for assignment in waiting:
        assignment._session_days = sessions.get(assignment.client_id, ())
        assignment._answered_days = answered.get(assignment.pk, frozenset())
    return assignments
