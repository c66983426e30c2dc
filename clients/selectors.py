"""Reads of clients, scoped by who is asking. Admin, portal and API share these."""

import datetime as dt
from dataclasses import dataclass
from typing import cast

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.lookups import Exact
from django.utils import timezone
from django_otp.plugins.otp_totp.models import TOTPDevice

from clients import lockout
from clients.models import (
    AccessEvent,
    Client,
    Invitation,
    Session,
    SignInFailure,
    SignInLock,
    StaffInvitation,
)
from practice import delivery
from practice.models import User
from practice.roles import is_acting_manager


def clients_for_user(*, user: User) -> QuerySet[Client]:
    """A therapist their own, a manager all; an erased client is no one's."""
    if not user.is_authenticated or not user.is_active:
        return Client.objects.none()
    present = Client.objects.exclude(status=Client.Status.ERASED)
    if is_acting_manager(user):
        return present
    if user.is_therapist:
        return present.filter(therapist=user)
    return Client.objects.none()


def client_status_locked(*, user: User, client: Client) -> Client.Status | None:
    """None when not in the user's list, so a change queued behind an erasure finds them gone."""
    status = (
        clients_for_user(user=user)
        .select_for_update()
        .filter(pk=client.pk)
        .values_list("status", flat=True)
        .first()
    )
    return None if status is None else Client.Status(status)


def client_for_erasure(*, user: User, client_id: int) -> Client | None:
    """Erased already or not, so a second tab is told so calmly; managers only."""
    if not is_acting_manager(user):
        return None
    return Client.objects.filter(pk=client_id).select_related("therapist").first()


def client_for_portal_user(*, user: User, include_archived: bool = False) -> Client | None:
    return portal_clients(user=user, include_archived=include_archived).first()


def portal_clients(*, user: User, include_archived: bool = False) -> QuerySet[Client]:
    """``client_for_portal_user`` as a queryset, for reads that join through it in one query."""
    if not user.is_authenticated or not user.is_client:
        return Client.objects.none()
    clients = Client.objects.filter(portal_user=user)
    if not include_archived:
        clients = clients.filter(status=Client.Status.ACTIVE)
    return clients


def access_events_for(*, user: User) -> QuerySet[AccessEvent]:
    """The manager all, a client their own, nobody else: every page of the log reads here."""
    if not user.is_authenticated:
        return AccessEvent.objects.none()
    if is_acting_manager(user):
        events = AccessEvent.objects.all()
    elif user.is_client:
        events = AccessEvent.objects.filter(client__portal_user=user)
    else:
        return AccessEvent.objects.none()
    return events.select_related("actor", "client").order_by("-at", "-pk")


def sign_in_failures_for_staff(*, user: User) -> QuerySet[SignInFailure]:
    if not is_acting_manager(user):
        return cast("QuerySet[SignInFailure]", SignInFailure.objects.none())
    # axes ships no type hints: its models' managers are Any to the type checker.
    return cast("QuerySet[SignInFailure]", SignInFailure.objects.order_by("-attempt_time", "-pk"))


def sign_in_locks_for_staff(*, user: User) -> QuerySet[SignInLock]:
    """Pairs locked now, by the rule clients.lockout.PracticeAxesHandler applies to the next try."""
    if not is_acting_manager(user):
        return cast("QuerySet[SignInLock]", SignInLock.objects.none())
    recent: QuerySet[SignInLock] = SignInLock.objects.filter(
        attempt_time__gte=timezone.now() - lockout.COOL_OFF, username__isnull=False
    )
    same_pair = recent.filter(username=OuterRef("username"), ip_address=OuterRef("ip_address"))
    pair_failures = (
        same_pair.order_by()
        .values("username", "ip_address")
        .annotate(total=Sum("failures_since_start"))
        .values("total")[:1]
    )
    latest_of_pair = same_pair.order_by("-attempt_time", "-pk").values("pk")[:1]
    locked: QuerySet[SignInLock] = (
        recent.annotate(pair_failures=Subquery(pair_failures))
        .filter(pair_failures__gte=lockout.ACCOUNT_FAILURES, pk=Subquery(latest_of_pair))
        .order_by("-attempt_time", "-pk")
    )
    return locked


def staff_members() -> QuerySet[User]:
    return User.objects.filter(role__in=(User.Role.THERAPIST, User.Role.MANAGER)).order_by(
        "name", "email"
    )


def sessions_for_user(*, user: User) -> QuerySet[Session]:
    return Session.objects.filter(client__in=clients_for_user(user=user))


RECENT_SESSIONS = 10


def recent_and_upcoming(sessions: QuerySet[Session], *, now: dt.datetime) -> QuerySet[Session]:
    """Only the latest past ones, so the page's cost stays put as the history grows."""
    recent = sessions.filter(starts_at__lt=now).order_by("-starts_at").values("pk")
    return sessions.filter(Q(starts_at__gte=now) | Q(pk__in=recent[:RECENT_SESSIONS]))


def has_two_step(*, user: User) -> bool:
    return bool(TOTPDevice.objects.filter(user=user, confirmed=True).exists())


def invitations_for_client(*, user: User, client_id: int) -> QuerySet[Invitation]:
    return Invitation.objects.filter(client__in=clients_for_user(user=user), client_id=client_id)


def invitations_awaiting_email(
    *, limit: int = delivery.SWEEP_LIMIT, tried_before: bool = False
) -> list[int]:
    """Fewer-tried first, so every new one is tried before an old failing one again."""
    return list(
        Invitation.objects.filter(
            email_asked_at__isnull=False,
            email_attempts__gte=1 if tried_before else 0,
            emailed_at=None,
            email_given_up_at=None,
            used_at=None,
            revoked_at=None,
            expires_at__gt=timezone.now(),
        )
        .order_by("email_attempts", "email_asked_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )


def unconfirmed_totp_device(*, user: User) -> TOTPDevice | None:
    return TOTPDevice.objects.filter(user=user, confirmed=False).last()


# During a session, the window runs from the one before, so the work for it stays on screen.
SESSION_IN_PROGRESS = dt.timedelta(hours=3)
NO_EARLIER_SESSION_WEEKS = 4


def start_without_earlier_session(end: dt.datetime) -> dt.datetime:
    practice = timezone.get_default_timezone()
    day = timezone.localdate(end, practice) - dt.timedelta(weeks=NO_EARLIER_SESSION_WEEKS)
    return timezone.make_aware(dt.datetime.combine(day, dt.time()), practice)


@dataclass(frozen=True)
class SessionWindow:
    start: dt.datetime
    end: dt.datetime
    previous: Session | None
    upcoming: Session | None


def _upcoming(sessions: QuerySet[Session], now: dt.datetime) -> QuerySet[Session]:
    return sessions.filter(starts_at__gt=now - SESSION_IN_PROGRESS).order_by("starts_at")


def session_window(*, client: Client, now: dt.datetime) -> SessionWindow:
    """``client`` must come from ``clients_for_user``: this reads its sessions only."""
    cutoff = now - SESSION_IN_PROGRESS
    previous = client.sessions.filter(starts_at__lte=cutoff).order_by("-starts_at").first()
    upcoming = _upcoming(client.sessions.all(), now).first()
    start = previous.starts_at if previous else start_without_earlier_session(now)
    return SessionWindow(start=start, end=now, previous=previous, upcoming=upcoming)


def sessions_on_days(*, user: User, first_day: dt.date, days: int) -> list[Session]:
    start = timezone.make_aware(dt.datetime.combine(first_day, dt.time.min))
    end = timezone.make_aware(dt.datetime.combine(first_day + dt.timedelta(days=days), dt.time.min))
    return list(
        sessions_for_user(user=user)
        .filter(starts_at__gte=start, starts_at__lt=end, client__status=Client.Status.ACTIVE)
        .select_related("client__therapist")
        .order_by("starts_at")
    )


def with_prepared_for(sessions: QuerySet[Session], *, now: dt.datetime) -> QuerySet[Session]:
    """``SessionWindow.upcoming`` in the same query, however many rows."""
    first_upcoming = _upcoming(Session.objects.filter(client=OuterRef("client")), now)
    return sessions.annotate(
        is_prepared_for=Exact(F("pk"), Subquery(first_upcoming.values("pk")[:1]))
    )


def staff_overview(*, user: User) -> QuerySet[User]:
    if not is_acting_manager(user):
        return User.objects.none()
    return (
        staff_members()
        .annotate(
            active_clients=Count("clients", filter=Q(clients__status=Client.Status.ACTIVE)),
            has_authenticator=Exists(
                TOTPDevice.objects.filter(user=OuterRef("pk"), confirmed=True)
            ),
        )
        .order_by("-is_active", "name", "email")
    )


def active_therapists() -> QuerySet[User]:
    return User.objects.filter(role=User.Role.THERAPIST, is_active=True).order_by("name", "email")


def staff_invitations_waiting(*, user: User) -> QuerySet[StaffInvitation]:
    if not is_acting_manager(user):
        return StaffInvitation.objects.none()
    return StaffInvitation.objects.filter(
        used_at=None, revoked_at=None, expires_at__gt=timezone.now()
    ).order_by("-created_at")
