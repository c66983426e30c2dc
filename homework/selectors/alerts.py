"""Alerts as staff read them: scoped like their clients, and only on entries staff may read (a
private entry's flags are the client's alone)."""

import datetime as dt

from django.db.models import Q, QuerySet

from clients.models import Client
from clients.selectors import clients_for_user
from homework.models import Alert, readable_by_staff_q
from practice.models import User
from practice.roles import is_acting_staff

# Enough to act on at a glance on the home page; the caseload counts the rest.
HOME_ALERTS_SHOWN = 20
# Acknowledged alerts stay on the client's page this long, so the note is there to read.
ACKNOWLEDGED_SHOWN_FOR = dt.timedelta(days=28)


def alerts_for_user(*, user: User) -> QuerySet[Alert]:
    if not is_acting_staff(user):
        return Alert.objects.none()
    return Alert.objects.filter(
        readable_by_staff_q("entry__"), client__in=clients_for_user(user=user)
    )


def with_details(alerts: QuerySet[Alert]) -> QuerySet[Alert]:
    return alerts.select_related(
        "client__therapist", "entry__assignment__exercise", "acknowledged_by"
    )


def staff_alert(*, user: User, alert_id: int | str) -> Alert:
    """Alert.DoesNotExist for anyone else's."""
    return with_details(alerts_for_user(user=user)).get(pk=alert_id)


def open_alerts(*, user: User) -> QuerySet[Alert]:
    """Waiting longest first: the nearest to going to the manager."""
    return with_details(alerts_for_user(user=user).filter(acknowledged_at__isnull=True)).order_by(
        "raised_at", "pk"
    )


def client_alerts(*, user: User, client: Client, now: dt.datetime) -> list[Alert]:
    """Open ones first, then those acknowledged lately, newest first."""
    shown = (
        with_details(alerts_for_user(user=user).filter(client=client))
        .filter(
            Q(acknowledged_at__isnull=True) | Q(acknowledged_at__gte=now - ACKNOWLEDGED_SHOWN_FOR)
        )
        .order_by("-raised_at", "-pk")
    )
    rows = list(shown)
    return [a for a in rows if a.is_open] + [a for a in rows if not a.is_open]


def alerts_in_period(
    *, user: User, client: Client, start: dt.datetime, end: dt.datetime
) -> list[Alert]:
    """Still open, or raised or acknowledged in the period: what the session needs to know."""
    in_period = Q(raised_at__gte=start, raised_at__lt=end) | Q(
        acknowledged_at__gte=start, acknowledged_at__lt=end
    )
    rows = list(
        with_details(alerts_for_user(user=user).filter(client=client))
        .filter(Q(acknowledged_at__isnull=True, raised_at__lt=end) | in_period)
        .order_by("-raised_at", "-pk")
    )
    return [a for a in rows if a.is_open] + [a for a in rows if not a.is_open]
