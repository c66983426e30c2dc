"""Reads of homework, always scoped by the acting user.

Staff see through ``clients_for_user``; a client sees only their own
records. Nothing here fetches clinical data by id alone.
"""

import datetime as dt
import uuid
import zoneinfo
from dataclasses import dataclass

from django.db import models
from django.db.models import Case, Count, Max, Prefetch, Q, QuerySet, When
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clients.models import Client, Session
from clients.selectors import (
    SessionWindow,
    client_for_portal_user,
    clients_for_user,
    sessions_on_days,
)
from homework import schedules
from homework.kinds import get_kind
from homework.models import Assignment, Entry, EntryComment, Exercise
from practice.models import User


def exercises_for_user(*, user: User) -> QuerySet[Exercise]:
    """The library a member of staff may use: the practice's and their own."""
    if user.is_manager:
        return Exercise.objects.all()
    if user.is_therapist:
        return Exercise.objects.filter(Q(owner__isnull=True) | Q(owner=user))
    return Exercise.objects.none()


def assignments_for_user(*, user: User) -> QuerySet[Assignment]:
    if user.is_authenticated and user.is_client:
        return Assignment.objects.filter(
            client__portal_user=user, client__status=Client.Status.ACTIVE
        )
    return Assignment.objects.filter(client__in=clients_for_user(user=user))


def entries_for_user(*, user: User) -> QuerySet[Entry]:
    """Entries a person may know exist. Staff never see drafts: a draft is
    the client's own workspace until they send it."""
    if user.is_authenticated and user.is_client:
        return Entry.objects.filter(assignment__in=assignments_for_user(user=user))
    return Entry.objects.filter(
        assignment__client__in=clients_for_user(user=user), status=Entry.Status.SUBMITTED
    )


def entry_readable_by_staff(entry: Entry) -> bool:
    """Private entries are the client's alone: staff learn only that one exists."""
    return entry.is_submitted and not entry.private


def flags_first(entries: QuerySet[Entry]) -> QuerySet[Entry]:
    """Felt unsafe first, then "to talk about", then newest: for staff lists.

    Ordering by the raw flags would float a private entry to the top and so
    give its flags away; only shared entries' flags count here.
    """
    shared = Q(private=False)
    return entries.annotate(
        shared_unsafe=Case(When(shared & Q(felt_unsafe=True), then=1), default=0),
        shared_discuss=Case(When(shared & Q(discuss_in_session=True), then=1), default=0),
    ).order_by("-shared_unsafe", "-shared_discuss", "-submitted_at")


def portal_assignment(*, user: User, assignment_id: int) -> Assignment:
    """An active assignment of the signed-in client; DoesNotExist for anything else."""
    return (
        assignments_for_user(user=user)
        .select_related("exercise", "client")
        .get(pk=assignment_id, status=Assignment.Status.ACTIVE)
    )


def portal_entry(*, user: User, key: uuid.UUID) -> Entry:
    return (
        entries_for_user(user=user)
        .select_related("assignment__exercise", "assignment__client")
        .get(key=key)
    )


def open_draft(*, user: User, assignment: Assignment) -> Entry | None:
    """The draft the client was last working on for this assignment, if any."""
    return (
        entries_for_user(user=user)
        .filter(assignment=assignment, status=Entry.Status.DRAFT)
        .order_by("-updated_at")
        .first()
    )


def todo_for_client(*, user: User) -> list[Assignment]:
    """Active assignments, due soonest first, with how much has been sent.

    A recurring assignment also carries ``occurrence``: today's slot on the
    client's own calendar and whether something was sent for it (one more
    query for all of them, however many there are).
    """
    client = client_for_portal_user(user=user)
    if client is None:
        return []
    assignments: list[Assignment] = list(
        assignments_for_user(user=user)
        .filter(status=Assignment.Status.ACTIVE)
        .select_related("exercise")
        .annotate(
            submitted_count=Count("entries", filter=Q(entries__status=Entry.Status.SUBMITTED)),
            last_submitted_at=Max("entries__submitted_at"),
        )
        .order_by("due_on", "ends_on", "created_at")
    )
    today = client_today(client)
    slots = {a.pk: schedules.slot_for(a, today) for a in assignments if a.is_recurring}
    open_slots = [slot for slot in slots.values() if slot is not None]
    done: set[tuple[int, dt.date | None]] = set()
    if open_slots:
        done = set(
            entries_for_user(user=user)
            .filter(
                assignment_id__in=list(slots),
                status=Entry.Status.SUBMITTED,
                occurrence_on__gte=min(open_slots),
            )
            .values_list("assignment_id", "occurrence_on")
        )
    for assignment in assignments:
        assignment.occurrence = schedules.occurrence(
            assignment,
            today=today,
            done_slots={on for pk, on in done if pk == assignment.pk and on is not None},
            is_log=get_kind(assignment.exercise.kind).is_log,
        )
    return assignments


def client_today(client: Client) -> dt.date:
    """Today on the client's own calendar."""
    return timezone.localdate(timezone=zoneinfo.ZoneInfo(client.timezone))


def last_sent_entry(*, user: User, assignment: Assignment) -> Entry | None:
    """The client's newest sent entry for an assignment (a ladder or a map
    starts its next version from it)."""
    return (
        entries_for_user(user=user)
        .filter(assignment=assignment, status=Entry.Status.SUBMITTED)
        .order_by("-submitted_at")
        .first()
    )


def sent_for_slot(*, user: User, assignment: Assignment, on: dt.date) -> Entry | None:
    """What was sent for one slot of a recurring assignment, if anything."""
    return (
        entries_for_user(user=user)
        .filter(assignment=assignment, status=Entry.Status.SUBMITTED, occurrence_on=on)
        .order_by("-submitted_at")
        .first()
    )


def progress_for_client(*, user: User) -> list[tuple[Assignment, list[Entry]]]:
    """Each of the client's assignments with its sent entries, oldest first,
    private ones included (they are the client's own). Two queries."""
    if client_for_portal_user(user=user) is None:
        return []
    assignments = list(
        assignments_for_user(user=user)
        .exclude(status=Assignment.Status.CANCELLED)
        .select_related("exercise")
        .order_by("starts_on", "pk")
    )
    grouped: dict[int, list[Entry]] = {assignment.pk: [] for assignment in assignments}
    entries = (
        entries_for_user(user=user)
        .filter(assignment__in=assignments, status=Entry.Status.SUBMITTED)
        .order_by("submitted_at", "pk")
    )
    by_pk = {assignment.pk: assignment for assignment in assignments}
    for entry in entries:
        # The assignment is already loaded: reuse it instead of a query per entry.
        entry.assignment = by_pk[entry.assignment_id]
        grouped[entry.assignment_id].append(entry)
    return [(assignment, grouped[assignment.pk]) for assignment in assignments]


def recent_entries_for_client(*, user: User, limit: int = 10) -> list[Entry]:
    return list(
        entries_for_user(user=user)
        .filter(status=Entry.Status.SUBMITTED)
        .select_related("assignment__exercise")
        .order_by("-submitted_at")[:limit]
    )


def pending_notification_ids(*, limit: int = 500) -> list[int]:
    """Submitted, shared entries whose therapist has not been told yet (system use)."""
    return list(
        Entry.objects.filter(
            status=Entry.Status.SUBMITTED, therapist_notified_at__isnull=True, private=False
        )
        .order_by("submitted_at")
        .values_list("pk", flat=True)[:limit]
    )


def entries_for_export(*, user: User) -> QuerySet[Entry]:
    """Everything a client wrote, with what was said about it, for their own download."""
    if not (user.is_authenticated and user.is_client):
        return Entry.objects.none()
    return (
        entries_for_user(user=user)
        .select_related("assignment__exercise")
        .prefetch_related("notes", "comments")
        .order_by("created_at")
    )


def history_for_client(*, user: User, limit: int = 200) -> list[Entry]:
    """The client's sent entries, newest first, with counts of what was added since."""
    return list(
        entries_for_user(user=user)
        .filter(status=Entry.Status.SUBMITTED)
        .select_related("assignment__exercise")
        .annotate(
            note_count=Count("notes", distinct=True),
            comment_count=Count("comments", distinct=True),
        )
        .order_by("-submitted_at")[:limit]
    )


def portal_entry_with_notes(*, user: User, key: uuid.UUID) -> Entry:
    """One of the client's own entries, with their notes and the therapist's comments."""
    return (
        entries_for_user(user=user)
        .select_related("assignment__exercise", "assignment__client")
        .prefetch_related("notes", "comments")
        .get(key=key)
    )


def recent_comments_for_client(*, user: User, limit: int = 5) -> list[EntryComment]:
    """What the therapist wrote back lately, on the client's own entries."""
    if not (user.is_authenticated and user.is_client):
        return []
    return list(
        EntryComment.objects.filter(entry__in=entries_for_user(user=user))
        .select_related("entry__assignment__exercise")
        .order_by("-created_at")[:limit]
    )


def drafts_for_client(*, user: User) -> dict[int, Entry]:
    """Unsent drafts by assignment, so "To do" can say "continue where you left off"."""
    drafts: dict[int, Entry] = {}
    for draft in (
        entries_for_user(user=user)
        .filter(status=Entry.Status.DRAFT, assignment__status=Assignment.Status.ACTIVE)
        .order_by("updated_at")
        .only("pk", "key", "assignment_id", "updated_at")
    ):
        drafts[draft.assignment_id] = draft
    return drafts


# -- the therapist's workspace ----------------------------------------------------
# How far each assignment has come, what came back since the last session, and
# the admin home. Every read starts from the scoped querysets above.

# The admin home lists felt-unsafe flags from this far back, whatever else was read.
UNSAFE_FLAG_WINDOW = dt.timedelta(days=14)
# Without a previous sign-in to go by, "new" means this recent.
NEW_WITHOUT_PREVIOUS_VISIT = dt.timedelta(days=7)
HOME_LIST_LIMIT = 20


class Progress(models.TextChoices):
    DONE = "done", _("Done")
    OPEN = "open", _("Open")
    OVERDUE = "overdue", _("Overdue")
    ENDED = "ended", _("Ended")
    CANCELLED = "cancelled", _("Cancelled")


@dataclass(frozen=True)
class Completion:
    """Where one assignment stands. For a recurring one, ``done`` counts days
    with something sent, ``due_so_far`` the scheduled days up to today, and
    ``scheduled`` all of them; for a one-off, ``done`` counts entries sent."""

    state: Progress
    done: int
    due_so_far: int | None = None
    scheduled: int | None = None

    @property
    def is_recurring(self) -> bool:
        return self.scheduled is not None


def with_progress(assignments: QuerySet[Assignment]) -> QuerySet[Assignment]:
    """Annotate what ``completion`` needs: entries sent, and days with one.

    Private entries count: the therapist may know they exist. A day is the
    entry's occurrence, or the local day it was sent.
    """
    sent = Q(entries__status=Entry.Status.SUBMITTED)
    return assignments.annotate(
        sent_count=Count("entries", filter=sent),
        days_done=Count(
            Coalesce("entries__occurrence_on", TruncDate("entries__submitted_at")),
            filter=sent,
            distinct=True,
        ),
        last_sent_at=Max("entries__submitted_at", filter=sent),
    )


def overdue(assignments: QuerySet[Assignment], *, today: dt.date) -> QuerySet[Assignment]:
    """One-off assignments past their due date with nothing sent: the SQL twin
    of ``completion``'s OVERDUE (tests hold the two together)."""
    return (
        with_progress(assignments)
        .filter(
            status=Assignment.Status.ACTIVE,
            schedule=Assignment.Schedule.ONCE,
            due_on__lt=today,
        )
        .filter(Q(sent_count=0))
    )


def one_off_state(*, sent: int, status: str, due_on: dt.date | None, today: dt.date) -> Progress:
    """Done, overdue or open: the one rule for one-off work, in the admin and
    in the session summary alike.

    Which entries count as ``sent`` is the caller's to say: the admin counts
    private ones (the therapist may know they exist), the summary does not
    (it never reflects them, not even as a number).
    """
    if sent or status == Assignment.Status.COMPLETED:
        return Progress.DONE
    if due_on is not None and due_on < today:
        return Progress.OVERDUE
    return Progress.OPEN


def completion(assignment: Assignment, *, today: dt.date) -> Completion:
    """Done / open / overdue for one assignment annotated by ``with_progress``.

    A simple count for now: the kinds' derived occurrences may refine what
    "a day done" means, and this is the one place to change.
    """
    sent: int = getattr(assignment, "sent_count", 0)
    if assignment.status == Assignment.Status.CANCELLED:
        return Completion(Progress.CANCELLED, sent)
    if assignment.schedule == Assignment.Schedule.ONCE:
        state = one_off_state(
            sent=sent, status=assignment.status, due_on=assignment.due_on, today=today
        )
        return Completion(state, sent)
    done: int = getattr(assignment, "days_done", 0)
    ends_on = assignment.ends_on or assignment.starts_on
    scheduled = schedules.count_slots(assignment, start=assignment.starts_on, end=ends_on)
    so_far = schedules.count_slots(assignment, start=assignment.starts_on, end=min(today, ends_on))
    if assignment.status == Assignment.Status.COMPLETED or (scheduled and done >= scheduled):
        state = Progress.DONE
    elif ends_on < today:
        state = Progress.ENDED
    else:
        state = Progress.OPEN
    return Completion(state, done, due_so_far=so_far, scheduled=scheduled)


@dataclass(frozen=True)
class SinceLastSession:
    client: Client
    window: SessionWindow
    entries: list[Entry]  # shared entries: felt unsafe first, then to discuss, newest first
    private_sent_at: list[dt.datetime]  # private entries: only when they were sent
    assignments: list[tuple[Assignment, Completion]]


def staff_client(*, user: User, client_id: int | str) -> Client:
    """A client the member of staff may see; Client.DoesNotExist otherwise."""
    return clients_for_user(user=user).select_related("therapist").get(pk=client_id)


def since_last_session(
    *, user: User, client: Client, window: SessionWindow, today: dt.date
) -> SinceLastSession:
    """Everything the client sent in ``window``, and where each assignment stands.

    ``client`` comes from ``staff_client``. A fixed number of queries however
    many entries there are (tests pin it).
    """
    sent = list(
        flags_first(
            entries_for_user(user=user).filter(
                assignment__client=client,
                submitted_at__gt=window.start,
                submitted_at__lte=window.end,
            )
        )
        .select_related("assignment__exercise", "assignment__client")
        .prefetch_related(
            Prefetch("comments", queryset=EntryComment.objects.select_related("author")), "notes"
        )
    )
    shared = [entry for entry in sent if entry_readable_by_staff(entry)]
    private = sorted(
        (entry.submitted_at for entry in sent if not entry_readable_by_staff(entry)),
        key=lambda at: at or window.end,
        reverse=True,
    )
    since = timezone.localdate(window.start)
    relevant = Q(status=Assignment.Status.ACTIVE) | Q(due_on__gte=since) | Q(ends_on__gte=since)
    assignments = (
        with_progress(assignments_for_user(user=user).filter(client=client))
        .filter(relevant)
        .select_related("exercise")
        .order_by("status", "due_on", "ends_on", "created_at")
    )
    return SinceLastSession(
        client=client,
        window=window,
        entries=shared,
        private_sent_at=[at for at in private if at is not None],
        assignments=[(a, completion(a, today=today)) for a in assignments],
    )


def entry_commentable_by(*, user: User, entry: Entry) -> bool:
    """Only the client's own therapist comments, and only on what they may read."""
    return (
        user.is_therapist
        and entry_readable_by_staff(entry)
        and entry.assignment.client.therapist_id == user.pk
    )


def staff_entry(*, user: User, entry_id: int | str) -> Entry:
    """A submitted entry the member of staff may know of; Entry.DoesNotExist otherwise."""
    return (
        entries_for_user(user=user)
        .select_related("assignment__exercise", "assignment__client")
        .get(pk=entry_id)
    )


@dataclass(frozen=True)
class StaffHome:
    today: list[Session]
    tomorrow: list[Session]
    new_since: dt.datetime
    new_since_previous_visit: bool  # False: the default window (no previous sign-in known)
    new_entries: list[Entry]
    new_count: int
    overdue: list[Assignment]
    overdue_count: int
    unsafe: list[Entry]


def staff_home(*, user: User, previous_visit: dt.datetime | None, now: dt.datetime) -> StaffHome:
    """The admin home: the next two days' sessions, what is new, what is
    overdue, and every felt-unsafe flag of the last two weeks (never from a
    private entry: a private entry's flags are the client's too)."""
    today = timezone.localdate(now)
    sessions = sessions_on_days(user=user, first_day=today, days=2)
    new_since = previous_visit or now - NEW_WITHOUT_PREVIOUS_VISIT
    active_entries = entries_for_user(user=user).filter(
        assignment__client__status=Client.Status.ACTIVE
    )
    new = active_entries.filter(submitted_at__gt=new_since)
    overdue_work = overdue(
        assignments_for_user(user=user).filter(client__status=Client.Status.ACTIVE), today=today
    )
    flagged = (
        active_entries.filter(felt_unsafe=True, submitted_at__gte=now - UNSAFE_FLAG_WINDOW)
        .select_related("assignment__exercise", "assignment__client__therapist")
        .order_by("-submitted_at")
    )
    return StaffHome(
        today=[s for s in sessions if timezone.localdate(s.starts_at) == today],
        tomorrow=[s for s in sessions if timezone.localdate(s.starts_at) != today],
        new_since=new_since,
        new_since_previous_visit=previous_visit is not None,
        new_entries=list(
            flags_first(new).select_related(
                "assignment__exercise", "assignment__client__therapist"
            )[:HOME_LIST_LIMIT]
        ),
        new_count=new.count(),
        overdue=list(
            overdue_work.select_related("exercise", "client__therapist").order_by("due_on")[
                :HOME_LIST_LIMIT
            ]
        ),
        overdue_count=overdue_work.count(),
        unsafe=[entry for entry in flagged if entry_readable_by_staff(entry)],
    )
