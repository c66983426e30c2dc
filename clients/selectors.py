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
    """The clients a member of staff may see: a therapist their own, a manager all.
    An erased client is no one's any more: what is left of them is the
    access log's (client_for_erasure)."""
    if not user.is_authenticated or not user.is_active:
        return Client.objects.none()
    present = Client.objects.exclude(status=Client.Status.ERASED)
    if is_acting_manager(user):
        return present
    if user.is_therapist:
        return present.filter(therapist=user)
    return Client.objects.none()


def client_status_locked(*, user: User, client: Client) -> Client.Status | None:
    """The client's status as it is now, their row locked for the caller's
    transaction; None when they are not in the user's list (erased clients
    are in no list), so a change queued behind an erasure finds them gone."""
    status = (
        clients_for_user(user=user)
        .select_for_update()
        .filter(pk=client.pk)
        .values_list("status", flat=True)
        .first()
    )
    return None if status is None else Client.Status(status)


def client_for_erasure(*, user: User, client_id: int) -> Client | None:
    """The client a manager is exporting and erasing, erased already or not
    (a second tab, or a replayed request, is told so calmly); None for
    anyone but a manager, and for an id that is no client."""
    if not is_acting_manager(user):
        return None
    return Client.objects.filter(pk=client_id).select_related("therapist").first()


def client_for_portal_user(*, user: User, include_archived: bool = False) -> Client | None:
    """The client record behind a portal login, or None for anyone else.

    An archived client's record only with ``include_archived``: their
    notebook is closed, and only its closed page and their download stay
    open to them (clients.decorators.client_required).
    """
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
    """The access log as ``user`` may read it, newest first: the manager all
    of it, a client the looks at their own records (an archived client's too),
    nobody else any (clients.admin.access_log says why). The manager's log,
    its CSV, the API and the client's "Who has looked" page all read here, so
    they list the same looks."""
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
    """Every refused sign-in, practice-wide, newest first: the manager's
    alone, as they name every account's tries (clients.admin.sign_ins)."""
    if not is_acting_manager(user):
        return cast("QuerySet[SignInFailure]", SignInFailure.objects.none())
    # axes ships no type hints: its models' managers are Any to the type checker.
    return cast("QuerySet[SignInFailure]", SignInFailure.objects.order_by("-attempt_time", "-pk"))


def sign_in_locks_for_staff(*, user: User) -> QuerySet[SignInLock]:
    """The account and address pairs locked now, one row each (the pair's
    latest try), newest first; the manager's alone.

    A pair is locked while its failures within the last COOL_OFF, summed
    over the browsers it came from, reach ACCOUNT_FAILURES: the rule
    clients.lockout.PracticeAxesHandler applies to the next try.
    """
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
    """Everyone at the practice who may look at clients' records, by name."""
    return User.objects.filter(role__in=(User.Role.THERAPIST, User.Role.MANAGER)).order_by(
        "name", "email"
    )


def sessions_for_user(*, user: User) -> QuerySet[Session]:
    return Session.objects.filter(client__in=clients_for_user(user=user))


# Past sessions the client's page draws a row form for; the sessions list,
# filtered to the client, holds every one.
RECENT_SESSIONS = 10


def recent_and_upcoming(sessions: QuerySet[Session], *, now: dt.datetime) -> QuerySet[Session]:
    """Of ``sessions`` (one client's), every one still to come and the
    RECENT_SESSIONS latest before ``now``: the page's cost stays put as
    the client's history grows."""
    recent = sessions.filter(starts_at__lt=now).order_by("-starts_at").values("pk")
    return sessions.filter(Q(starts_at__gte=now) | Q(pk__in=recent[:RECENT_SESSIONS]))


def has_two_step(*, user: User) -> bool:
    """Whether ``user`` signs in with a code from an authenticator app too."""
    return bool(TOTPDevice.objects.filter(user=user, confirmed=True).exists())


def invitations_for_client(*, user: User, client_id: int) -> QuerySet[Invitation]:
    """A client's invitations, for staff who may see the client."""
    return Invitation.objects.filter(client__in=clients_for_user(user=user), client_id=client_id)


def invitations_awaiting_email(
    *, limit: int = delivery.SWEEP_LIMIT, tried_before: bool = False
) -> list[int]:
    """Invitations whose email has not gone, and is still worth trying (system use).

    Fewer-tried first, then oldest: every new one gets its first try before
    an old failing one gets another, however many are waiting. ``tried_before``:
    only those that failed at least once (practice.delivery.catch_up_in_request).
    """
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
    """The authenticator being set up, before its first code."""
    return TOTPDevice.objects.filter(user=user, confirmed=False).last()


# A session that began less than this long ago is still "now": during it, the
# window runs from the session before, so the work for it stays on screen.
SESSION_IN_PROGRESS = dt.timedelta(hours=3)
# With no earlier session recorded, "since last session" means four weeks
# back, from midnight (``start_without_earlier_session``), for the admin's page
# and the summary alike. Each counts back from where it ends: the page from
# now, the summary from the session it is for (so the one prepared the
# evening before is still the one served in the morning); with a session
# booked days ahead, the summary's four weeks start that much later.
NO_EARLIER_SESSION_WEEKS = 4


def start_without_earlier_session(end: dt.datetime) -> dt.datetime:
    """Where a "since last session" window ending at ``end`` starts when no
    earlier session is recorded: midnight at the practice, four weeks back."""
    practice = timezone.get_default_timezone()
    day = timezone.localdate(end, practice) - dt.timedelta(weeks=NO_EARLIER_SESSION_WEEKS)
    return timezone.make_aware(dt.datetime.combine(day, dt.time()), practice)


@dataclass(frozen=True)
class SessionWindow:
    """The stretch of time "since last session" covers for one client."""

    start: dt.datetime
    end: dt.datetime
    previous: Session | None  # the session it runs from; None: the default window
    upcoming: Session | None  # the session it prepares for (under way or next)


def _upcoming(sessions: QuerySet[Session], now: dt.datetime) -> QuerySet[Session]:
    """Sessions still to come or under way, soonest first: the first of a
    client's is the one "since last session" prepares for."""
    return sessions.filter(starts_at__gt=now - SESSION_IN_PROGRESS).order_by("starts_at")


def session_window(*, client: Client, now: dt.datetime) -> SessionWindow:
    """From the client's previous session up to ``now``.

    ``client`` must come from ``clients_for_user`` (this reads its sessions only).
    """
    cutoff = now - SESSION_IN_PROGRESS
    previous = client.sessions.filter(starts_at__lte=cutoff).order_by("-starts_at").first()
    upcoming = _upcoming(client.sessions.all(), now).first()
    start = previous.starts_at if previous else start_without_earlier_session(now)
    return SessionWindow(start=start, end=now, previous=previous, upcoming=upcoming)


def sessions_on_days(*, user: User, first_day: dt.date, days: int) -> list[Session]:
    """Sessions of active clients on ``days`` local days from ``first_day``, in time order."""
    start = timezone.make_aware(dt.datetime.combine(first_day, dt.time.min))
    end = timezone.make_aware(dt.datetime.combine(first_day + dt.timedelta(days=days), dt.time.min))
    return list(
        sessions_for_user(user=user)
        .filter(starts_at__gte=start, starts_at__lt=end, client__status=Client.Status.ACTIVE)
        .select_related("client__therapist")
        .order_by("starts_at")
    )


def with_prepared_for(sessions: QuerySet[Session], *, now: dt.datetime) -> QuerySet[Session]:
    """Annotate ``is_prepared_for``: the session is the one its client's
    "since last session" page prepares for (``SessionWindow.upcoming``), in
    the same query, however many rows."""
    first_upcoming = _upcoming(Session.objects.filter(client=OuterRef("client")), now)
    return sessions.annotate(
        is_prepared_for=Exact(F("pk"), Subquery(first_upcoming.values("pk")[:1]))
    )


def staff_overview(*, user: User) -> QuerySet[User]:
    """The practice's staff for its manager's Staff page, each with their count
    of active clients and whether their authenticator is set up: one query
    however many there are. Nobody else's to see: empty for anyone else."""
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
    """Who can take clients over: therapists whose accounts are open."""
    return User.objects.filter(role=User.Role.THERAPIST, is_active=True).order_by("name", "email")


def staff_invitations_waiting(*, user: User) -> QuerySet[StaffInvitation]:
    """Invitations to staff not taken up yet and still working, for the manager."""
    if not is_acting_manager(user):
        return StaffInvitation.objects.none()
    return StaffInvitation.objects.filter(
        used_at=None, revoked_at=None, expires_at__gt=timezone.now()
    ).order_by("-created_at")
