"""The therapist's writes that set work: exercises and assignments."""

import copy
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import formats, timezone
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clients.models import Client
from clients.selectors import client_status_locked, clients_for_user
from homework import schedules
from homework.kinds import get_kind
from homework.models import Assignment, Exercise
from homework.selectors import (
    client_today,
    exercises_for_user,
)
from homework.services.programs import step_finished
from practice.bidi import isolated_text
from practice.models import User
from practice.requests import SENT_TWICE_WINDOW
from practice.roles import is_acting_manager, is_acting_staff


@transaction.atomic
def assignment_create(
    *,
    actor: User,
    client: Client,
    exercise: Exercise,
    starts_on: dt.date,
    due_on: dt.date | None = None,
    schedule: str = Assignment.Schedule.ONCE,
    weekdays: Sequence[int] = (),
    days_before: int | None = None,
    ends_on: dt.date | None = None,
    no_contact_since: dt.date | None = None,
    instructions: str = "",
) -> Assignment:
    """The same work sent twice within SENT_TWICE_WINDOW returns the one already made."""
    if not clients_for_user(user=actor).filter(pk=client.pk).exists():
        raise PermissionDenied(_("You cannot assign work to this client."))
    if not exercises_for_user(user=actor).filter(pk=exercise.pk).exists():
        raise PermissionDenied(_("You cannot use this exercise."))
    if client.status != Client.Status.ACTIVE:
        raise ValidationError(
            {
                "client": _("%(client)s is archived: restore them first.")
                % {"client": isolated_text(client.display_name)}
            }
        )
    assignment = Assignment(
        client=client,
        exercise=exercise,
        instructions=instructions,
        starts_on=starts_on,
        due_on=due_on,
        schedule=schedule,
        weekdays=list(weekdays),
        days_before=days_before,
        ends_on=ends_on,
        no_contact_since=no_contact_since,
        created_by=actor,
    )
    assignment.full_clean()
    # Read again under the lock: an erasure or archiving may have changed the client meanwhile.
    status = client_status_locked(user=actor, client=client)
    if status is None:
        raise PermissionDenied(_("You cannot assign work to this client."))
    if status != Client.Status.ACTIVE:
        raise ValidationError(
            {
                "client": _("%(client)s is archived: restore them first.")
                % {"client": isolated_text(client.display_name)}
            }
        )
    repeat = _just_assigned(assignment)
    if repeat is not None:
        return repeat
    assignment.save()
    return assignment


def _just_assigned(assignment: Assignment) -> Assignment | None:
    recent = Assignment.objects.filter(
        client=assignment.client,
        exercise=assignment.exercise,
        created_by=assignment.created_by,
        created_at__gte=timezone.now() - SENT_TWICE_WINDOW,
        status=Assignment.Status.ACTIVE,
        instructions=assignment.instructions,
        starts_on=assignment.starts_on,
        due_on=assignment.due_on,
        schedule=assignment.schedule,
        days_before=assignment.days_before,
        ends_on=assignment.ends_on,
        no_contact_since=assignment.no_contact_since,
    ).order_by("created_at")
    # Compared here rather than in SQL: JSON equality differs between databases.
    return next((made for made in recent if made.weekdays == assignment.weekdays), None)


ASSIGNMENT_EDITABLE_FIELDS = frozenset(
    {
        "exercise",
        "instructions",
        "starts_on",
        "due_on",
        "schedule",
        "weekdays",
        "days_before",
        "ends_on",
        "no_contact_since",
        "status",
    }
)


@transaction.atomic
def assignment_update(*, actor: User, assignment: Assignment, **changes: Any) -> Assignment:
    """Returns new work carrying on from ``assignment`` when days already asked would change."""
    if not clients_for_user(user=actor).filter(pk=assignment.client_id).exists():
        raise PermissionDenied(_("You cannot change this client's work."))
    client = changes.pop("client", assignment.client)
    if client.pk != assignment.client_id:
        raise PermissionDenied(_("An assignment stays with its client."))
    unknown = set(changes) - ASSIGNMENT_EDITABLE_FIELDS
    if unknown:
        raise TypeError(f"Unknown assignment fields: {sorted(unknown)}")
    if (
        "exercise" in changes
        and changes["exercise"].pk != assignment.exercise_id
        and not exercises_for_user(user=actor).filter(pk=changes["exercise"].pk).exists()
    ):
        raise PermissionDenied(_("You cannot use this exercise."))
    for name, value in changes.items():
        setattr(assignment, name, value)
    assignment.full_clean()
    # Whether today's slot has anything yet is read under the lock that entries are begun under.
    Assignment.objects.select_for_update().filter(pk=assignment.pk).values_list("pk").get()
    rescheduled = _rescheduled(assignment)
    if rescheduled is None:
        assignment.save(update_fields=list(changes))
        if assignment.status != Assignment.Status.ACTIVE:
            step_finished(
                assignment=assignment, done=assignment.status == Assignment.Status.COMPLETED
            )
        return assignment
    ended, carried_on = rescheduled.ended, rescheduled.carried_on
    # Closed, not left to end: its last slot would stay in To do beside the new days' card.
    ended.ends_on = rescheduled.last_day
    ended.status = Assignment.Status.COMPLETED
    ended.full_clean()
    ended.save(update_fields=["ends_on", "status"])
    carried_on.created_by = actor
    carried_on.save()
    carried_on.rescheduled_from = ended
    return carried_on


@transaction.atomic
def assignment_end(*, actor: User, assignment: Assignment) -> Assignment:
    if not assignment.is_recurring or assignment.ends_on is not None:
        raise ValidationError(_("Only work that repeats with no last day can be ended here."))
    return assignment_update(
        actor=actor, assignment=assignment, ends_on=client_today(assignment.client)
    )


def assignment_check_update(*, assignment: Assignment) -> None:
    """Refuses by field, so the form shows it beside the fields."""
    _rescheduled(assignment)


@dataclass(frozen=True)
class _Days:
    schedule: str
    starts_on: dt.date
    ends_on: dt.date | None
    weekdays: Sequence[int]
    days_before: int | None = None
    session_days: tuple[dt.date, ...] = ()
    answered_days: frozenset[dt.date] = frozenset()


@dataclass(frozen=True)
class _Rescheduled:
    ended: Assignment
    last_day: dt.date
    carried_on: Assignment  # not saved yet


def _rescheduled(assignment: Assignment) -> _Rescheduled | None:
    """Past days stay with the old assignment, so no day never asked is counted as missed."""
    if assignment.pk is None:
        return None
    stored = Assignment.objects.select_related("client").get(pk=assignment.pk)
    if not stored.is_recurring or stored.ends_on is None:
        return None
    if stored.status != Assignment.Status.ACTIVE or assignment.status != stored.status:
        return None
    today = client_today(stored.client)
    begun_today = stored.entries.filter(occurrence_on__gte=today).exists()
    first_day = today + dt.timedelta(days=1) if begun_today else today
    last_day = first_day - dt.timedelta(days=1)
    as_asked = list(schedules.slots(stored, end=last_day))
    as_changed = _Days(
        schedule=assignment.schedule,
        starts_on=assignment.starts_on,
        ends_on=stored.ends_on,
        weekdays=assignment.weekdays,
        days_before=assignment.days_before,
        session_days=stored.session_days,
        answered_days=stored.answered_days,
    )
    if not as_asked or as_asked == list(schedules.slots(as_changed, end=last_day)):
        return None
    values = {"date": formats.date_format(first_day, "WEEKDAY_DATE_FORMAT")}
    errors: dict[str, str] = {}
    if assignment.starts_on != stored.starts_on and assignment.starts_on < first_day:
        errors["starts_on"] = (
            _(
                "The client was already asked on the days before %(date)s, and they stay "
                "as they were. Keep the start date, or choose one from %(date)s on."
            )
            % values
        )
    last = assignment.ends_on or assignment.due_on
    if last is not None and last < first_day:
        errors["ends_on" if assignment.ends_on else "due_on"] = (
            _(
                "The new days count from %(date)s: what the client was asked before "
                "stays as it was. Choose a date from %(date)s on."
            )
            % values
        )
    if errors:
        raise ValidationError(errors)
    carried_on = Assignment(
        client=stored.client,
        exercise=assignment.exercise,
        instructions=assignment.instructions,
        starts_on=max(assignment.starts_on, first_day),
        due_on=assignment.due_on,
        schedule=assignment.schedule,
        weekdays=list(assignment.weekdays),
        days_before=assignment.days_before,
        ends_on=assignment.ends_on,
        no_contact_since=assignment.no_contact_since,
    )
    carried_on.full_clean(exclude=["created_by"])  # set by assignment_update
    return _Rescheduled(ended=stored, last_day=min(stored.ends_on, last_day), carried_on=carried_on)


@transaction.atomic
def new_exercise_owner(actor: User) -> User | None:
    """A manager adds to the practice's shared library; a therapist, to their own."""
    return None if is_acting_manager(actor) else actor


def exercise_save(*, actor: User, exercise: Exercise) -> Exercise:
    if not is_acting_staff(actor):
        raise PermissionDenied(_("Only staff edit the library."))
    if exercise.pk is None:
        exercise.owner = new_exercise_owner(actor)
    elif not is_acting_manager(actor) and exercise.owner_id != actor.pk:
        raise PermissionDenied(_("You can change only your own exercises."))
    # Checked against what is stored, so options saved under older rules do not block a rename.
    saved = (
        Exercise.objects.filter(pk=exercise.pk, kind=exercise.kind)
        .values_list("options", flat=True)
        .first()
        if exercise.pk is not None
        else None
    )
    exercise.options = get_kind(exercise.kind).clean_options(exercise.options, saved=saved)
    exercise.full_clean()
    exercise.save()
    return exercise


@transaction.atomic
def exercise_copy(*, actor: User, exercise: Exercise) -> Exercise:
    """A copy of a library exercise the actor may read, theirs to edit (a manager's: the
    practice's), so the shared one stays as it is."""
    title = _("%(title)s (copy)") % {"title": exercise.title}
    max_length = Exercise._meta.get_field("title").max_length or len(title)
    copied = Exercise(
        kind=exercise.kind,
        title=title if len(title) <= max_length else exercise.title,
        instructions=exercise.instructions,
        therapist_note=exercise.therapist_note,
        options=copy.deepcopy(exercise.options),
        # Its words are still in the original's language.
        language=exercise.language,
    )
    return exercise_save(actor=actor, exercise=copied)


@transaction.atomic
def assignment_create_many(
    *,
    actor: User,
    clients: Sequence[Client],
    exercise: Exercise,
    starts_on: dt.date | None = None,
    **details: Any,
) -> list[Assignment]:
    """Each client starts on their own today, so none begins with a day already gone."""
    if not clients:
        raise ValidationError(_("Choose at least one client."))
    starts = [(client, starts_on or client_today(client)) for client in clients]
    _refuse_ends_before_starts(starts, due_on=details.get("due_on"), ends_on=details.get("ends_on"))
    return [
        assignment_create(actor=actor, client=client, exercise=exercise, starts_on=start, **details)
        for client, start in starts
    ]


def _refuse_ends_before_starts(
    starts: Sequence[tuple[Client, dt.date]], *, due_on: dt.date | None, ends_on: dt.date | None
) -> None:
    for field, last in (("due_on", due_on), ("ends_on", ends_on)):
        if last is None:
            continue
        late = [(client, start) for client, start in starts if start > last]
        if not late:
            continue
        values = {
            "clients": get_text_list([isolated_text(c.display_name) for c, _day in late], _("and")),
            "date": formats.date_format(max(start for _c, start in late), "WEEKDAY_DATE_FORMAT"),
        }
        if field == "due_on":
            message = ngettext(
                "This due date is before the work starts for %(clients)s (on their own "
                "today, in their time zone). Choose a due date on or after %(date)s, or "
                "leave them out.",
                "This due date is before the work starts for %(clients)s (on their own "
                "today, in their time zones). Choose a due date on or after %(date)s, or "
                "leave them out.",
                len(late),
            )
        else:
            message = ngettext(
                "This last day is before the work starts for %(clients)s (on their own "
                "today, in their time zone). Choose a last day on or after %(date)s, or "
                "leave them out.",
                "This last day is before the work starts for %(clients)s (on their own "
                "today, in their time zones). Choose a last day on or after %(date)s, or "
                "leave them out.",
                len(late),
            )
        raise ValidationError({field: message % values})
