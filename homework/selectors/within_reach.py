"""Living documents a client keeps within reach (a safety plan): the newest sent is current."""

import datetime as dt
from dataclasses import dataclass

from django.db.models import F, Window
from django.db.models.functions import RowNumber

from clients.models import Client
from homework.kinds import ExerciseKind, all_kinds, get_kind
from homework.models import Assignment, Entry
from homework.models.entries import readable_by_staff_q
from homework.selectors.listing import listed
from homework.selectors.scoping import assignments_for_user, entries_for_user
from practice.models import User


def within_reach_slugs() -> list[str]:
    return [kind.slug for kind in all_kinds() if kind.within_reach]


@dataclass(frozen=True)
class WithinReach:
    entry: Entry | None
    kind: ExerciseKind | None
    assignment: Assignment | None


def within_reach_for_client(*, user: User) -> WithinReach:
    slugs = within_reach_slugs()
    if not (user.is_authenticated and user.is_client and slugs):
        return WithinReach(entry=None, kind=None, assignment=None)
    # Newest by sending: an update is a new entry, so an older one edited later is not current.
    entry = (
        listed(entries_for_user(user=user, include_archived=True))
        .filter(assignment__exercise__kind__in=slugs, status=Entry.Status.SUBMITTED)
        .select_related("assignment__exercise")
        .order_by("-submitted_at", "-pk")
        .first()
    )
    open_work = list(
        assignments_for_user(user=user)
        .filter(status=Assignment.Status.ACTIVE, exercise__kind__in=slugs)
        .select_related("exercise")
        .order_by("-created_at", "-pk")
    )
    own = next((a for a in open_work if entry and a.pk == entry.assignment_id), None)
    assignment = own or (open_work[0] if open_work else None)
    source = entry.assignment if entry is not None else assignment
    kind = get_kind(source.exercise.kind) if source is not None else None
    return WithinReach(entry=entry, kind=kind, assignment=assignment)


def current_within_reach_for_staff(
    *, user: User, client: Client, by: dt.datetime
) -> dict[str, Entry]:
    slugs = within_reach_slugs()
    if not slugs:
        return {}
    newest = Window(
        RowNumber(),
        partition_by=[F("assignment__exercise__kind")],
        order_by=[F("submitted_at").desc(), F("pk").desc()],
    )
    rows = (
        listed(entries_for_user(user=user))
        .filter(
            readable_by_staff_q(),
            assignment__client=client,
            assignment__exercise__kind__in=slugs,
            shared_at__lt=by,
        )
        .select_related("assignment__exercise")
        .annotate(newest=newest)
        .filter(newest=1)
    )
    return {entry.assignment.exercise.kind: entry for entry in rows}
