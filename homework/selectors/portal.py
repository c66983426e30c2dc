"""What a client reads of their own homework in the portal."""

import datetime as dt
import uuid
import zoneinfo
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Case, Count, Exists, F, Max, Min, OuterRef, Q, QuerySet, When
from django.utils import timezone

from clients.models import Client
from clients.selectors import (
    client_for_portal_user,
)
from homework import schedules
from homework.kinds import ExerciseKind, get_kind
from homework.models import Assignment, Entry, EntryComment, EntryNote, with_session_days
from homework.selectors.listing import charted, count_per_entry, listed, opened_for_charts
from homework.selectors.scoping import assignments_for_user, entries_for_user
from practice.models import User

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def portal_assignment(
    *, user: User, assignment_id: int, for_writing: bool = False, include_archived: bool = False
) -> Assignment:
    """``for_writing`` reaches closed or archived work too, so words still being typed are kept."""
    assignments = assignments_for_user(user=user, include_archived=include_archived).select_related(
        "exercise", "client"
    )
    if not for_writing:
        assignments = assignments.filter(status=Assignment.Status.ACTIVE)
    return assignments.get(pk=assignment_id)


def open_draft(*, user: User, assignment: Assignment) -> Entry | None:
    return (
        entries_for_user(user=user)
        .filter(assignment=assignment, status=Entry.Status.DRAFT)
        .order_by("-updated_at")
        .first()
    )


@dataclass(frozen=True)
class Todo:
    today: dt.date
    assignments: list[Assignment]


def todo_for_client(*, user: User) -> Todo:
    """Done work stays while a draft of it waits: "Carry on" is never out of reach."""
    client = client_for_portal_user(user=user)
    if client is None:
        return Todo(today=timezone.localdate(), assignments=[])
    assignments: list[Assignment] = list(
        assignments_for_user(user=user)
        .filter(status=Assignment.Status.ACTIVE)
        .select_related("exercise")
        .annotate(
            submitted_count=Count("entries", filter=Q(entries__status=Entry.Status.SUBMITTED)),
            last_submitted_at=Max("entries__submitted_at"),
            has_draft=Exists(
                Entry.objects.filter(assignment=OuterRef("pk"), status=Entry.Status.DRAFT)
            ),
        )
        .order_by("due_on", "ends_on", "created_at")
    )
    with_session_days(assignments)
    today = client_today(client)
    slots = {a.pk: schedules.slot_for(a, today) for a in assignments if a.is_recurring}
    open_slots = [slot for slot in slots.values() if slot is not None]
    # (assignment, slot) → the newest sent for it: rows come oldest first, so later ones win.
    done: dict[tuple[int, dt.date | None], uuid.UUID] = {}
    if open_slots:
        done = {
            (pk, on): key
            for pk, on, key in entries_for_user(user=user)
            .filter(
                assignment_id__in=list(slots),
                status=Entry.Status.SUBMITTED,
                occurrence_on__gte=min(open_slots),
            )
            .order_by("submitted_at", "pk")
            .values_list("assignment_id", "occurrence_on", "key")
        }
    still_to_do: list[Assignment] = []
    for assignment in assignments:
        kind = get_kind(assignment.exercise.kind)
        is_log = kind.is_log
        sent = getattr(assignment, "submitted_count", 0)
        occurrence = schedules.occurrence(
            assignment,
            today=today,
            done_slots={on for pk, on in done if pk == assignment.pk and on is not None},
            is_log=is_log,
        )
        if occurrence is None:
            finished = schedules.one_off_standing(
                sent=sent, due_on=assignment.due_on, today=today, is_log=is_log
            ).done_for_client
        else:
            finished = schedules.recurring_done(occurrence, sent=sent)
        if finished and not getattr(assignment, "has_draft", False):
            continue
        assignment.occurrence = occurrence
        assignment.sent_for_slot = (
            done.get((assignment.pk, occurrence.on))
            if occurrence is not None and occurrence.done and not is_log
            else None
        )
        assignment.again_label = _again_label(kind, occurrence)
        still_to_do.append(assignment)
    return Todo(today=today, assignments=still_to_do)


def _again_label(kind: ExerciseKind, occurrence: schedules.Occurrence | None) -> "StrOrPromise":
    if occurrence is not None and not kind.is_log and not kind.continues_last_sent:
        return ""
    return kind.again_label


def own_entry_under_key(*, user: User, assignment: Assignment, key: uuid.UUID) -> Entry | None:
    return entries_for_user(user=user).filter(assignment=assignment, key=key).first()


def client_today(client: Client, now: dt.datetime | None = None) -> dt.date:
    return timezone.localdate(now, timezone=zoneinfo.ZoneInfo(client.timezone))


def last_sent_entry(*, user: User, assignment: Assignment) -> Entry | None:
    return (
        entries_for_user(user=user)
        .filter(assignment=assignment, status=Entry.Status.SUBMITTED)
        .order_by("-submitted_at")
        .first()
    )


def sent_count(*, user: User, assignment: Assignment) -> int:
    return (
        entries_for_user(user=user)
        .filter(assignment=assignment, status=Entry.Status.SUBMITTED)
        .count()
    )


def sent_for_slot(*, user: User, assignment: Assignment, on: dt.date) -> Entry | None:
    return (
        entries_for_user(user=user)
        .filter(assignment=assignment, status=Entry.Status.SUBMITTED, occurrence_on=on)
        .order_by("-submitted_at")
        .first()
    )


def progress_for_client(*, user: User) -> list[tuple[Assignment, list[Entry]]]:
    if client_for_portal_user(user=user) is None:
        return []
    sent = Entry.objects.filter(assignment=OuterRef("pk"), status=Entry.Status.SUBMITTED)
    assignments = list(
        assignments_for_user(user=user)
        # Cancelled work drops out unless the client sent for it.
        .filter(~Q(status=Assignment.Status.CANCELLED) | Exists(sent))
        .select_related("exercise")
        .order_by("starts_on", "pk")
    )
    grouped: dict[int, list[Entry]] = {assignment.pk: [] for assignment in assignments}
    entries = charted(
        listed(entries_for_user(user=user))
        .filter(assignment__in=assignments, status=Entry.Status.SUBMITTED)
        .order_by("submitted_at", "pk"),
        opened=opened_for_charts(assignments),
    )
    by_pk = {assignment.pk: assignment for assignment in assignments}
    for entry in entries:
        entry.assignment = by_pk[entry.assignment_id]
        grouped[entry.assignment_id].append(entry)
    return [(assignment, grouped[assignment.pk]) for assignment in assignments]


DONE_RECENTLY_DAYS = 14


@dataclass(frozen=True)
class DoneRecently:
    entry: Entry
    can_update: bool


def done_recently_for_client(*, user: User, limit: int = 10) -> list[DoneRecently]:
    since = timezone.now() - dt.timedelta(days=DONE_RECENTLY_DAYS)
    entries = (
        listed(entries_for_user(user=user))
        .filter(status=Entry.Status.SUBMITTED, submitted_at__gte=since)
        .select_related("assignment__exercise")
        .order_by("-submitted_at", "-pk")[:limit]
    )
    seen: set[int] = set()
    done: list[DoneRecently] = []
    for entry in entries:
        assignment = entry.assignment
        newest = assignment.pk not in seen  # newest first: the first of each is its newest
        seen.add(assignment.pk)
        can_update = (
            newest
            and assignment.status == Assignment.Status.ACTIVE
            and not assignment.is_recurring
            and get_kind(assignment.exercise.kind).continues_last_sent
        )
        done.append(DoneRecently(entry=entry, can_update=can_update))
    return done


def entries_for_export(
    *, user: User, assignment_ids: Collection[int] | None = None
) -> QuerySet[Entry]:
    if not (user.is_authenticated and user.is_client):
        return Entry.objects.none()
    entries = entries_for_user(user=user, include_archived=True)
    if assignment_ids is not None:
        entries = entries.filter(assignment_id__in=assignment_ids)
    return (
        entries.select_related("assignment__exercise")
        .prefetch_related("notes", "comments")
        .order_by("created_at")
    )


def assignments_for_export(*, user: User) -> QuerySet[Assignment]:
    if not (user.is_authenticated and user.is_client):
        return Assignment.objects.none()
    sent = Q(entries__status=Entry.Status.SUBMITTED)
    return (
        assignments_for_user(user=user, include_archived=True)
        .annotate(
            sent_count=Count("entries", filter=sent),
            first_sent_at=Min("entries__submitted_at", filter=sent),
            last_sent_at=Max("entries__submitted_at", filter=sent),
        )
        .filter(sent_count__gt=0)
        .select_related("exercise")
        .order_by("first_sent_at", "pk")
    )


def history_for_client(*, user: User, exercise_id: int | None = None) -> QuerySet[Entry]:
    entries = listed(entries_for_user(user=user)).filter(status=Entry.Status.SUBMITTED)
    if exercise_id is not None:
        entries = entries.filter(assignment__exercise_id=exercise_id)
    return (
        entries.select_related("assignment__exercise")
        .annotate(
            note_count=count_per_entry(EntryNote),
            comment_count=count_per_entry(EntryComment),
        )
        .order_by("-submitted_at", "-pk")
    )


def history_exercises_for_client(*, user: User) -> list[tuple[int, str]]:
    sent = entries_for_user(user=user).filter(status=Entry.Status.SUBMITTED)
    return list(
        assignments_for_user(user=user)
        .filter(pk__in=sent.values("assignment_id"))
        .order_by("exercise__title", "exercise_id")
        .values_list("exercise_id", "exercise__title")
        .distinct()
    )


def portal_entry_with_notes(*, user: User, key: uuid.UUID) -> Entry:
    return (
        entries_for_user(user=user)
        .select_related("assignment__exercise", "assignment__client")
        .prefetch_related("notes", "comments")
        .get(key=key)
    )


def recent_comments_for_client(*, user: User, limit: int = 5) -> list[EntryComment]:
    if not (user.is_authenticated and user.is_client):
        return []
    return list(
        EntryComment.objects.filter(entry__in=entries_for_user(user=user))
        .select_related("entry__assignment__exercise")
        .order_by("-created_at")[:limit]
    )


def drafts_for_client(*, user: User) -> dict[int, Entry]:
    drafts: dict[int, Entry] = {}
    for draft in (
        entries_for_user(user=user)
        .filter(status=Entry.Status.DRAFT)
        .select_related("assignment__exercise")
        .order_by("updated_at")
        .only(
            "pk",
            "key",
            "assignment_id",
            "updated_at",
            "assignment__id",
            "assignment__exercise__title",
        )
    ):
        drafts[draft.assignment_id] = draft
    return drafts


def assignments_for_client_api(*, user: User) -> QuerySet[Assignment]:
    if not (user.is_authenticated and user.is_client):
        return Assignment.objects.none()
    sent = Entry.objects.filter(assignment=OuterRef("pk"), status=Entry.Status.SUBMITTED)
    open_first = Case(When(status=Assignment.Status.ACTIVE, then=0), default=1)
    return (
        assignments_for_user(user=user)
        .filter(~Q(status=Assignment.Status.CANCELLED) | Exists(sent))
        .select_related("exercise")
        .order_by(open_first, F("due_on").asc(nulls_last=True), "starts_on", "pk")
    )


def entries_for_client_api(*, user: User, assignment: Assignment) -> QuerySet[Entry]:
    return (
        entries_for_user(user=user)
        .filter(assignment=assignment)
        .select_related("assignment__exercise")
        .order_by(F("submitted_at").desc(nulls_first=True), "-updated_at", "-pk")
    )
