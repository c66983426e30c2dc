"""Who may see what: the querysets every other read starts from."""

import datetime as dt

from django.db.models import Case, Q, QuerySet, When

from clients.models import Client
from clients.selectors import (
    clients_for_user,
)
from homework.models import Assignment, Entry, EntryQuerySet, Exercise, readable_by_staff_q
from practice.models import User
from practice.roles import is_acting_manager


def exercises_for_user(*, user: User) -> QuerySet[Exercise]:
    if is_acting_manager(user):
        return Exercise.objects.all()
    if user.is_therapist:
        return Exercise.objects.filter(Q(owner__isnull=True) | Q(owner=user))
    return Exercise.objects.none()


def assignments_for_user(*, user: User, include_archived: bool = False) -> QuerySet[Assignment]:
    """``include_archived`` reaches a client's own work after archiving, so a late draft is kept."""
    if user.is_authenticated and user.is_client:
        assignments = Assignment.objects.filter(client__portal_user=user)
        if not include_archived:
            assignments = assignments.filter(client__status=Client.Status.ACTIVE)
        return assignments
    return Assignment.objects.filter(client__in=clients_for_user(user=user))


def entries_for_user(*, user: User, include_archived: bool = False) -> EntryQuerySet:
    """Entries a person may know exist; staff never see drafts."""
    if user.is_authenticated and user.is_client:
        return Entry.objects.filter(
            assignment__in=assignments_for_user(user=user, include_archived=include_archived)
        )
    return Entry.objects.filter(
        assignment__client__in=clients_for_user(user=user), status=Entry.Status.SUBMITTED
    )


# When staff learned of an entry: shared content when shared; a private entry's existence when sent.


def known_after(moment: dt.datetime) -> Q:
    return Q(shared_at__gt=moment) | Q(shared_at__isnull=True, submitted_at__gt=moment)


def known_by(moment: dt.datetime) -> Q:
    return Q(shared_at__lte=moment) | Q(shared_at__isnull=True, submitted_at__lte=moment)


def read_first() -> Q:
    return Q(felt_unsafe=True) | Q(needs_review=True)


def flags_first(entries: QuerySet[Entry]) -> QuerySet[Entry]:
    """Only readable entries' flags count, so ordering never gives a private entry's flags away."""
    shared = readable_by_staff_q()
    return entries.annotate(
        shared_unsafe=Case(When(shared & read_first(), then=1), default=0),
        shared_discuss=Case(When(shared & Q(discuss_in_session=True), then=1), default=0),
    ).order_by("-shared_unsafe", "-shared_discuss", "-submitted_at")
