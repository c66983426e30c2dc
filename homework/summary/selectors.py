"""Everything the session summary reads, in a fixed number of queries. Scoped by the acting user;
entries are the client's shared, submitted ones (``Entry.readable_by_staff`` has the last word)."""

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import F, Q, QuerySet, Subquery, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.translation import gettext as _

from clients.contact.selectors import contact_profile_of
from clients.models import Client, Session
from clients.selectors import clients_for_user, sessions_for_user
from homework.kinds import ExerciseKind, all_kinds, get_kind
from homework.kinds.charts import Timeline
from homework.kinds.timeline import timeline_of
from homework.models import Alert, Entry
from homework.selectors import (
    entries_for_user,
    felt_unsafe_lately,
    listed,
)
from homework.selectors.alerts import alerts_in_period
from homework.selectors.listing import charted, opened_for_charts
from homework.selectors.measures import MeasureHistory, measure_histories
from homework.selectors.period import (
    Period,
    PeriodInvalid,
    PeriodQuery,
    period_between_sessions,
    period_for_dates,
    practice_midnight,
)
from homework.selectors.programs import ProgramInPeriod, programs_in_period
from homework.selectors.within_reach import current_within_reach_for_staff
from homework.selectors.work_in_period import WorkInPeriod, completion_for_period
from practice.dates import as_zone
from practice.models import PracticeSettings, User
from practice.roles import is_acting_staff
from practice.selectors import practice_settings

SESSION_GRACE = dt.timedelta(hours=3)
SESSION_LOOKAHEAD = dt.timedelta(days=14)

__all__ = [
    "KindSection",
    "SummaryData",
    "WorkInPeriod",
    "client_for_summary",
    "completion_for_period",
    "next_session_at",
    "resolve_period",
    "session_ids_on",
    "staff_timeline",
    "summary_data",
]


@dataclass(frozen=True)
class KindSection:
    kind: ExerciseKind
    entries: list[Entry]
    earlier: list[Entry] = field(default_factory=list)
    current: Entry | None = None


@dataclass(frozen=True)
class SummaryData:
    """Read once; rendering needs no database."""

    client: Client
    therapist: User
    practice: PracticeSettings
    period: Period
    full_detail: bool
    entries: list[Entry]
    sections: list[KindSection]
    completion: WorkInPeriod
    now: dt.datetime
    flagged_unsafe: list[Entry] = field(default_factory=list)
    flagged_discuss: list[Entry] = field(default_factory=list)
    # Felt unsafe, shared before the period and unread when it began: listed with the flags only.
    unsafe_before: list[Entry] = field(default_factory=list)
    flagged_review: list[Entry] = field(default_factory=list)
    review_before: list[Entry] = field(default_factory=list)
    contact_checked_on: dt.date | None = None
    contact_recheck_due: bool = True
    programs: list[ProgramInPeriod] = field(default_factory=list)
    # Every total up to the period's end, so a change reads from the first score ever sent.
    measures: list[MeasureHistory] = field(default_factory=list)
    # Open ones, and those raised or acknowledged in the period, with who acknowledged and how.
    alerts: list[Alert] = field(default_factory=list)


def client_for_summary(*, user: User, client_id: int) -> Client:
    """Client.DoesNotExist for anyone else's."""
    if not is_acting_staff(user):
        raise Client.DoesNotExist
    return (
        clients_for_user(user=user).select_related("therapist", "contact_profile").get(pk=client_id)
    )


def _sessions(user: User, client: Client) -> QuerySet[Session]:
    return sessions_for_user(user=user).filter(client=client)


def resolve_period(*, user: User, client: Client, query: PeriodQuery, now: dt.datetime) -> Period:
    """PeriodInvalid for a session that is not this client's."""
    if query.session_id is not None:
        target = _sessions(user, client).filter(pk=query.session_id).first()
        if target is None:
            raise PeriodInvalid({"session": [_("This client has no such session.")]})
        return period_for_session(user=user, client=client, target=target, now=now)
    if query.since is not None and query.until is not None:
        day_start = practice_midnight(query.until)
        session = (
            _sessions(user, client)
            .filter(starts_at__gte=day_start, starts_at__lt=day_start + SESSION_LOOKAHEAD)
            .order_by("starts_at")
            .first()
        )
        return period_for_dates(since=query.since, until=query.until, session=session)
    # Nothing lies between the cut-off and the next session, so the one before it is the last before
    # the cut-off.
    cutoff = now - SESSION_GRACE
    sessions = _sessions(user, client)
    next_pk = sessions.filter(starts_at__gte=cutoff).order_by("starts_at").values("pk")[:1]
    previous_pk = sessions.filter(starts_at__lt=cutoff).order_by("-starts_at").values("pk")[:1]
    found = list(sessions.filter(Q(pk=Subquery(next_pk)) | Q(pk=Subquery(previous_pk))))
    target = next((s for s in found if s.starts_at >= cutoff), None)
    previous = next((s for s in found if s.starts_at < cutoff), None)
    return period_between_sessions(target=target, previous=previous, now=now)


def next_session_at(*, user: User, client: Client, now: dt.datetime) -> dt.datetime | None:
    """None with none booked; one under way counts."""
    return (
        _sessions(user, client)
        .filter(starts_at__gte=now - SESSION_GRACE)
        .order_by("starts_at")
        .values_list("starts_at", flat=True)
        .first()
    )


def period_for_session(
    *, user: User, client: Client, target: Session | None, now: dt.datetime
) -> Period:
    before = target.starts_at if target is not None else now
    previous = _sessions(user, client).filter(starts_at__lt=before).order_by("-starts_at").first()
    return period_between_sessions(target=target, previous=previous, now=now)


def summary_data(
    *, user: User, client: Client, period: Period, full_detail: bool, now: dt.datetime
) -> SummaryData:
    """Seven queries (eight when practice settings are not cached, one more with a program), however
    many entries, programs or scores."""
    # An entry written privately and shared during the period is this session's news.
    wanted = Q(shared_at__gte=period.start, shared_at__lt=period.end)
    unsafe_before = _unread_unsafe_before(period, now=now)
    if unsafe_before is not None:
        wanted |= unsafe_before
    rows = (
        listed(entries_for_user(user=user).readable_by_staff())
        .filter(wanted, assignment__client=client)
        .select_related("assignment__exercise")
        .order_by("-submitted_at", "-pk")
    )
    readable = [entry for entry in rows if entry.readable_by_staff]
    _attach_their_client(readable, client)
    entries = [entry for entry in readable if _shared_in(entry, period)]
    earlier_unsafe = [entry for entry in readable if not _shared_in(entry, period)]

    by_kind: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        by_kind[entry.assignment.exercise.kind].append(entry)
    earlier = _earlier(user=user, client=client, period=period, by_kind_now=by_kind)
    current = current_within_reach_for_staff(user=user, client=client, by=period.end)
    sections = []
    for kind in all_kinds():  # the registry's order, so every summary reads alike
        kind_entries = by_kind.pop(kind.slug, [])
        if kind_entries or kind.within_reach:
            sections.append(
                KindSection(
                    kind=kind,
                    entries=kind_entries,
                    earlier=earlier.get(kind.slug, []),
                    current=current.get(kind.slug),
                )
            )
    for slug in by_kind:
        get_kind(slug)  # an unregistered kind fails loudly, never dropped

    unsafe = [entry for entry in entries if entry.felt_unsafe]
    review = [entry for entry in entries if entry.needs_review and not entry.felt_unsafe]
    discuss = [entry for entry in entries if entry.discuss_in_session and not entry.felt_unsafe]
    practice = practice_settings()
    contact = contact_profile_of(client)
    return SummaryData(
        client=client,
        therapist=client.therapist,
        practice=practice,
        period=period,
        full_detail=full_detail,
        entries=entries,
        sections=sections,
        completion=completion_for_period(user=user, client=client, period=period, now=now),
        now=now,
        flagged_unsafe=unsafe,
        flagged_discuss=discuss,
        unsafe_before=[entry for entry in earlier_unsafe if entry.felt_unsafe],
        flagged_review=review,
        review_before=[entry for entry in earlier_unsafe if not entry.felt_unsafe],
        contact_checked_on=contact.checked_on,
        contact_recheck_due=contact.recheck_due(
            today=timezone.localdate(now), weeks=practice.contact_recheck_weeks
        ),
        alerts=alerts_in_period(user=user, client=client, start=period.start, end=period.end),
        programs=programs_in_period(
            user=user,
            client=client,
            since=period.since,
            # The period's last day on the client's calendar, as a step's done day is.
            until=period.as_of(now, zone=as_zone(client.timezone)),
        ),
        measures=measure_histories(user=user, client=client, until=min(period.end, now)),
    )


def staff_timeline(
    entries: list[Entry], *, client: Client, since: dt.date, until: dt.date
) -> Timeline | None:
    """From entries already read, so no query of its own. Shared entries only: drafts and private
    ones never."""
    return timeline_of(
        entries, since=since, until=until, zone=as_zone(client.timezone), for_client=False
    )


def _unread_unsafe_before(period: Period, *, now: dt.datetime) -> Q | None:
    """Felt unsafe or to review, shared before the period and unread when it began: the last session
    went by without it, so this one lists it. None for chosen dates."""
    if period.chosen_dates:
        return None
    return (
        felt_unsafe_lately(as_of=min(period.end, now))
        & Q(shared_at__lt=period.start)
        & (Q(seen_at__isnull=True) | Q(seen_at__gte=period.start))
    )


def _shared_in(entry: Entry, period: Period) -> bool:
    return entry.shared_at is not None and entry.shared_at >= period.start


def _earlier(
    *, user: User, client: Client, period: Period, by_kind_now: dict[str, list[Entry]]
) -> dict[str, list[Entry]]:
    """One query for all kinds, only for assignments with entries in the period."""
    wanted = Q()
    every = Q()
    asked = False
    for kind in all_kinds():
        earlier = kind.earlier_wanted()
        if earlier is None:
            continue
        this_kind = Q(assignment__exercise__kind=kind.slug) & earlier.condition
        wanted |= this_kind
        asked = True
        if earlier.every:
            in_period = {entry.assignment_id for entry in by_kind_now.get(kind.slug, [])}
            every |= this_kind & Q(assignment_id__in=in_period)
    if not asked:
        return {}
    before = listed(entries_for_user(user=user).readable_by_staff()).filter(
        wanted, assignment__client=client, shared_at__lt=period.start
    )
    # Numbered in one pass: a subquery per row grows with the square.
    newest_first = Window(
        RowNumber(),
        partition_by=[F("assignment_id")],
        order_by=[F("submitted_at").desc(), F("pk").desc()],
    )
    period_work = {
        entry.assignment_id: entry.assignment
        for entries in by_kind_now.values()
        for entry in entries
    }
    by_kind: dict[str, list[Entry]] = defaultdict(list)
    # Only entries with contact are decrypted; the rest are drawn from plain columns.
    for entry in charted(
        before.annotate(newest=newest_first).filter(Q(newest=1) | every),
        opened=opened_for_charts(period_work.values()),
    ):
        assignment = period_work.get(entry.assignment_id)
        if assignment is not None and entry.readable_by_staff:
            entry.assignment = assignment
            by_kind[assignment.exercise.kind].append(entry)
    return by_kind


def _attach_their_client(entries: list[Entry], client: Client) -> None:
    """So a kind can read the client's time zone without a query per assignment."""
    for entry in entries:
        entry.assignment.client = client


def session_ids_on(*, day: dt.date) -> list[int]:
    """System use: the evening batch."""
    start = practice_midnight(day)
    return list(
        Session.objects.filter(
            starts_at__gte=start,
            starts_at__lt=practice_midnight(day + dt.timedelta(days=1)),
            client__status=Client.Status.ACTIVE,
        )
        .order_by("starts_at")
        .values_list("pk", flat=True)
    )


def session_for_batch(*, session_id: int) -> Session | None:
    """System use: the evening batch."""
    return (
        Session.objects.select_related("client__therapist", "client__contact_profile")
        .filter(pk=session_id, client__status=Client.Status.ACTIVE)
        .first()
    )
