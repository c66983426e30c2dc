"""Programs: building them, giving one to a client, and releasing its steps as ordinary
assignments (once each, in order, never while paused)."""

import datetime as dt
import logging
import zoneinfo
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clients.models import Client
from clients.selectors import clients_for_user
from clients.services.staff_log import staff_change_record
from homework.models import (
    STEP_DUE_DAYS,
    Assignment,
    ClientProgram,
    ClientProgramStep,
    Exercise,
    Program,
    ProgramStep,
    Release,
)
from homework.schedules.pacing import next_release_on, steps_to_release
from homework.selectors import client_today, exercises_for_user
from homework.selectors.programs import (
    RUNNING,
    client_programs_for_user,
    client_programs_with_steps_due,
    programs_for_user,
)
from practice.bidi import isolated_text
from practice.languages import practice_language
from practice.models import User
from practice.roles import is_acting_manager

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class StepData:
    exercise: Exercise
    release: str = Release.AFTER_PREVIOUS
    days: int | None = None
    required: bool = False
    instructions: str = ""


class ProgramChanged(Exception):
    """The steps were changed by someone else after the editor was opened."""


@transaction.atomic
def program_steps_save(
    *, actor: User, program: Program, steps: Sequence[StepData], revision: int
) -> Program:
    """Replace the program's steps, in the order given. Clients already on it keep their copy."""
    locked = programs_for_user(user=actor).select_for_update().filter(pk=program.pk).first()
    if locked is None or not can_edit_program(actor, locked):
        raise PermissionDenied(_("You cannot change this program."))
    if locked.revision != revision:
        raise ProgramChanged
    if not steps:
        raise ValidationError(_("A program needs at least one step."))
    usable = exercises_for_user(user=actor)
    made = []
    errors: dict[str, list[ValidationError]] = {}
    for position, data in enumerate(steps, 1):
        step = ProgramStep(program=locked, position=position, **vars(data))
        try:
            if not usable.filter(pk=data.exercise.pk).exists():
                raise ValidationError({"exercise": _("You cannot use this exercise.")})
            step.full_clean(exclude=["program", "position"])
        except ValidationError as error:
            errors[str(position)] = [error]
        made.append(step)
    if errors:
        raise ValidationError(errors)
    locked.steps.all().delete()
    ProgramStep.objects.bulk_create(made)
    locked.revision += 1
    locked.save(update_fields=["revision"])
    return locked


def can_edit_program(actor: User, program: Program) -> bool:
    """A therapist edits their own programs; the practice's shared ones are the manager's."""
    return program.owner_id == actor.pk or (program.owner_id is None and is_acting_manager(actor))


@dataclass(frozen=True)
class ProgramDetails:
    title: str
    description: str = ""
    is_active: bool = True
    language: str = field(default_factory=practice_language)


@transaction.atomic
def program_create(*, actor: User, details: ProgramDetails) -> Program:
    """A new program with no steps yet: the actor's own, or the practice's when a manager makes it."""
    if not (actor.is_therapist or is_acting_manager(actor)):
        raise PermissionDenied(_("Only staff build programs."))
    program = Program(owner=None if is_acting_manager(actor) else actor, **vars(details))
    program.full_clean()
    program.save()
    return program


@transaction.atomic
def program_update(
    *,
    actor: User,
    program: Program,
    details: ProgramDetails,
    steps: Sequence[StepData],
    revision: int,
) -> Program:
    """Title, description, whether it is in the library, and the steps, all or nothing."""
    saved = program_steps_save(actor=actor, program=program, steps=steps, revision=revision)
    for name, value in vars(details).items():
        setattr(saved, name, value)
    saved.full_clean()
    saved.save(update_fields=[*vars(details)])
    return saved


@transaction.atomic
def program_copy(*, actor: User, program: Program) -> Program:
    """A copy of a program the actor may use, theirs to edit, so the shared one stays as it is."""
    if not programs_for_user(user=actor).filter(pk=program.pk).exists():
        raise PermissionDenied(_("You cannot use this program."))
    title = _("%(title)s (copy)") % {"title": program.title}
    max_length = Program._meta.get_field("title").max_length or len(title)
    copied = program_create(
        actor=actor,
        details=ProgramDetails(
            title=title if len(title) <= max_length else program.title,
            description=program.description,
            is_active=program.is_active,
            language=program.language,
        ),
    )
    steps = [
        StepData(
            exercise=step.exercise,
            release=step.release,
            days=step.days,
            required=step.required,
            instructions=step.instructions,
        )
        for step in program.steps.select_related("exercise").order_by("position")
    ]
    if steps:
        program_steps_save(actor=actor, program=copied, steps=steps, revision=copied.revision)
    return copied


@transaction.atomic
def client_program_create(
    *, actor: User, client: Client, program: Program, starts_on: dt.date
) -> ClientProgram:
    """Put ``client`` on ``program`` from ``starts_on``; the steps due by today come at once."""
    if not clients_for_user(user=actor).filter(pk=client.pk).exists():
        raise PermissionDenied(_("You cannot assign work to this client."))
    if not programs_for_user(user=actor).filter(pk=program.pk, is_active=True).exists():
        raise PermissionDenied(_("You cannot use this program."))
    locked = Client.objects.select_for_update().get(pk=client.pk)
    if locked.status != Client.Status.ACTIVE:
        raise ValidationError(
            {"client": _("%(client)s is archived: restore them first.") % {"client": locked}}
        )
    template = list(program.steps.select_related("exercise"))
    if not template:
        raise ValidationError({"program": _("This program has no steps yet: add one first.")})
    today = client_today(locked)
    if not today - dt.timedelta(days=31) <= starts_on <= today + dt.timedelta(days=366):
        raise ValidationError({"starts_on": _("Choose a start from a month ago to a year ahead.")})
    if ClientProgram.objects.filter(client=locked, program=program, status__in=RUNNING).exists():
        raise ValidationError(
            {
                "program": _(
                    "%(client)s is already on this program: pause, resume or stop it on their page."
                )
                % {"client": isolated_text(locked.display_name)}
            }
        )
    client_program = ClientProgram.objects.create(
        client=locked, program=program, title=program.title, starts_on=starts_on, created_by=actor
    )
    ClientProgramStep.objects.bulk_create(
        ClientProgramStep(
            client_program=client_program,
            position=step.position,
            exercise=step.exercise,
            instructions=step.instructions,
            release=step.release,
            days=step.days,
            required=step.required,
        )
        for step in template
    )
    release_due_steps(client_program)
    return client_program


@transaction.atomic
def client_program_release(*, client_program_id: int, now: dt.datetime | None = None) -> int:
    """Release what is due today for one client's program; how many steps came. Safe to run twice
    at once: the second waits on the row, then finds nothing left to release."""
    # The client's row first, as an erasure takes it, so the two queue rather than deadlock.
    client_id = ClientProgram.objects.filter(pk=client_program_id).values("client_id")
    Client.objects.select_for_update().filter(pk__in=client_id).first()
    client_program = ClientProgram.objects.select_for_update().filter(pk=client_program_id).first()
    if client_program is None:
        return 0
    return len(release_due_steps(client_program, now=now))


def release_due_steps(
    client_program: ClientProgram, *, now: dt.datetime | None = None
) -> list[ClientProgramStep]:
    """Call with the client's program locked (or just made) in the transaction."""
    client = Client.objects.get(pk=client_program.client_id)
    if (
        client_program.status != ClientProgram.Status.ACTIVE
        or client.status != Client.Status.ACTIVE
    ):
        return []
    zone = zoneinfo.ZoneInfo(client.timezone)
    today = client_today(client, now)
    steps = list(
        ClientProgramStep.objects.filter(client_program=client_program)
        .select_related("exercise")
        .select_for_update(of=("self",))
        .order_by("position")
    )
    due = steps_to_release(steps, starts_on=client_program.starts_on, today=today, zone=zone)
    for step in due:
        assignment = Assignment(
            client=client,
            exercise=step.exercise,
            instructions=step.instructions,
            starts_on=today,
            due_on=today + dt.timedelta(days=STEP_DUE_DAYS),
            created_by=client_program.created_by,
        )
        assignment.full_clean()
        assignment.save()
        step.assignment = assignment
        step.save(update_fields=["assignment"])
    if all(step.is_finished for step in steps):
        client_program.status = ClientProgram.Status.FINISHED
        client_program.save(update_fields=["status"])
    remember_next_release(client_program, steps, zone=zone)
    return due


def remember_next_release(
    client_program: ClientProgram, steps: Sequence[ClientProgramStep], *, zone: dt.tzinfo
) -> None:
    """Keep on the next step the day it may come, the one column the beat's scan reads."""
    upcoming = next_release_on(steps, starts_on=client_program.starts_on, zone=zone)
    waiting = next(
        (step for step in steps if not step.is_released and step.skipped_at is None), None
    )
    for step in steps:
        wanted = upcoming if step is waiting else None
        if step.release_on != wanted:
            step.release_on = wanted
            step.save(update_fields=["release_on"])


def step_finished(*, assignment: Assignment, done: bool) -> None:
    """A released step's assignment was sent (``done``) or ended by the therapist: the path goes on
    from it in the same transaction. Nothing happens for work that is not a program's step."""
    step = (
        ClientProgramStep.objects.select_for_update()
        .filter(assignment=assignment, done_on__isnull=True, skipped_at__isnull=True)
        .first()
    )
    if step is None:
        return
    client_program = ClientProgram.objects.select_for_update().get(pk=step.client_program_id)
    if done:
        step.done_on = client_today(assignment.client)
        step.save(update_fields=["done_on"])
    else:
        step.skipped_at = timezone.now()
        step.save(update_fields=["skipped_at"])
    release_due_steps(client_program)


def client_program_for_change(*, actor: User, client_program_id: int) -> ClientProgram:
    client_program = (
        client_programs_for_user(user=actor)
        .select_for_update(of=("self",))
        .select_related("client")
        .filter(pk=client_program_id)
        .first()
    )
    if client_program is None:
        raise PermissionDenied(_("You cannot change this client's program."))
    return client_program


@transaction.atomic
def client_program_pause(*, actor: User, client_program_id: int) -> ClientProgram:
    client_program = client_program_for_change(actor=actor, client_program_id=client_program_id)
    refuse_unless(
        client_program, ClientProgram.Status.ACTIVE, _("Only a running program can be paused.")
    )
    return set_status(
        actor, client_program, ClientProgram.Status.PAUSED, _("Paused the program “%(title)s”.")
    )


@transaction.atomic
def client_program_resume(*, actor: User, client_program_id: int) -> ClientProgram:
    client_program = client_program_for_change(actor=actor, client_program_id=client_program_id)
    refuse_unless(
        client_program, ClientProgram.Status.PAUSED, _("Only a paused program can be resumed.")
    )
    set_status(
        actor, client_program, ClientProgram.Status.ACTIVE, _("Resumed the program “%(title)s”.")
    )
    release_due_steps(client_program)
    return client_program


@transaction.atomic
def client_program_stop(*, actor: User, client_program_id: int) -> ClientProgram:
    """No step comes after this; work already released stays with the client as it is."""
    client_program = client_program_for_change(actor=actor, client_program_id=client_program_id)
    if not client_program.is_running:
        raise ValidationError(_("This program has already ended."))
    return set_status(
        actor, client_program, ClientProgram.Status.STOPPED, _("Stopped the program “%(title)s”.")
    )


@transaction.atomic
def client_program_skip_step(*, actor: User, client_program_id: int, step_id: int) -> ClientProgram:
    """Skip a step still to come, or one released and not yet done (its work is cancelled)."""
    client_program = client_program_for_change(actor=actor, client_program_id=client_program_id)
    if not client_program.is_running:
        raise ValidationError(_("This program has already ended."))
    step = (
        ClientProgramStep.objects.select_for_update(of=("self",))
        .select_related("assignment")
        .filter(client_program=client_program, pk=step_id)
        .first()
    )
    if step is None:
        raise PermissionDenied(_("You cannot change this client's program."))
    if step.is_finished:
        raise ValidationError(_("This step is already done or skipped."))
    step.skipped_at = timezone.now()
    step.save(update_fields=["skipped_at"])
    if step.assignment is not None and step.assignment.status == Assignment.Status.ACTIVE:
        step.assignment.status = Assignment.Status.CANCELLED
        step.assignment.save(update_fields=["status"])
    staff_change_record(
        actor=actor,
        target=client_program.client,
        message=_("Skipped step %(position)s of the program “%(title)s”.")
        % {"position": step.position, "title": client_program.title},
    )
    release_due_steps(client_program)
    return client_program


def refuse_unless(client_program: ClientProgram, status: str, message: str) -> None:
    if client_program.status != status:
        raise ValidationError(message)


def set_status(
    actor: User, client_program: ClientProgram, status: str, message: str
) -> ClientProgram:
    client_program.status = status
    client_program.save(update_fields=["status"])
    staff_change_record(
        actor=actor, target=client_program.client, message=message % {"title": client_program.title}
    )
    return client_program


def programs_release_due(*, now: dt.datetime | None = None) -> int:
    """The beat's release: every program with a step due today where its client lives, each in its
    own transaction, so one that fails leaves the rest released."""
    now = now or timezone.now()
    released = 0
    for client_program_id in client_programs_with_steps_due(now=now):
        try:
            released += client_program_release(client_program_id=client_program_id, now=now)
        except ValidationError:
            logger.exception("Program %s: a step could not be released.", client_program_id)
    return released
