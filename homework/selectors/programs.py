"""Reads of programs: the library of them, a client's, and the ones the beat has steps to release."""

import datetime as dt
import zoneinfo
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet

from clients.models import Client
from clients.selectors import clients_for_user, portal_clients
from homework.models import ClientProgram, ClientProgramStep, Exercise, Program, ProgramStep
from homework.schedules.pacing import steps_to_release
from homework.selectors.library_languages import reader_language_first
from homework.selectors.portal import client_today
from homework.selectors.progress import days_anywhere
from homework.selectors.scoping import exercises_for_user
from practice.models import User
from practice.roles import is_acting_manager


def programs_for_user(*, user: User) -> QuerySet[Program]:
    """The programs a member of staff may use: the practice's and their own."""
    if is_acting_manager(user):
        return Program.objects.all()
    if user.is_authenticated and user.is_therapist:
        return Program.objects.filter(Q(owner__isnull=True) | Q(owner=user))
    return Program.objects.none()


def exercises_for_steps(*, user: User, program: Program) -> QuerySet[Exercise]:
    """What the step editor offers: exercises in the library that are the practice's or the
    program owner's, and those on its steps now, so a step whose exercise left keeps showing it;
    those in the program's language first."""
    usable = Q(is_active=True) & (Q(owner__isnull=True) | Q(owner_id=program.owner_id))
    on_steps = Q(pk__in=ProgramStep.objects.filter(program=program).values("exercise_id"))
    return (
        exercises_for_user(user=user)
        .filter(usable | on_steps)
        .order_by(reader_language_first(program.language), "title", "pk")
    )


def client_programs_for_user(*, user: User) -> QuerySet[ClientProgram]:
    """The clients' programs a member of staff may see, through the clients they may see."""
    return ClientProgram.objects.filter(client__in=clients_for_user(user=user))


def programs_with_steps(programs: QuerySet[Program]) -> QuerySet[Program]:
    steps = ProgramStep.objects.select_related("exercise").order_by("position")
    return programs.prefetch_related(Prefetch("steps", queryset=steps))


def with_steps(client_programs: QuerySet[ClientProgram]) -> QuerySet[ClientProgram]:
    steps = ClientProgramStep.objects.select_related("exercise").order_by("position")
    return client_programs.select_related("client").prefetch_related(
        Prefetch("steps", queryset=steps)
    )


@dataclass(frozen=True)
class Standing:
    """Where a client is on a program, in the words the client page, caseload and summary use."""

    client_program: ClientProgram
    step: int  # the step the client is on, counted from 1; the last one once all are finished
    steps: int
    finished: int

    @property
    def is_paused(self) -> bool:
        return self.client_program.status == ClientProgram.Status.PAUSED


def standing(client_program: ClientProgram) -> Standing:
    """Read ``with_steps``."""
    steps = list(client_program.steps.all())
    finished = sum(1 for step in steps if step.is_finished)
    current = next(
        (number for number, step in enumerate(steps, 1) if not step.is_finished), len(steps)
    )
    return Standing(client_program, step=current, steps=len(steps), finished=finished)


RUNNING = (ClientProgram.Status.ACTIVE, ClientProgram.Status.PAUSED)


def running_programs(clients: QuerySet[Client]) -> QuerySet[ClientProgram]:
    running = ClientProgram.objects.filter(client__in=clients, status__in=RUNNING)
    return with_steps(running).order_by("created_at")


@dataclass(frozen=True)
class ProgramForClient:
    """A running program as its client reads it: where they are on it, and nothing of the steps
    still to come (no titles, no rules), so a page cannot show what it was never given."""

    title: str
    step: int
    steps: int
    is_paused: bool
    # Each released step not yet done, by its assignment: the To do card marks it as this step.
    open_steps: dict[int, int]
    # The day the next step comes, while it is running and that day is still ahead; else None.
    next_on: dt.date | None


def programs_for_client(*, user: User) -> list[ProgramForClient]:
    """The signed-in client's own running programs, oldest first: two queries, one with none."""
    programs = []
    for client_program in running_programs(portal_clients(user=user)):
        place = standing(client_program)
        steps = list(client_program.steps.all())
        today = client_today(client_program.client)
        waiting = next((s for s in steps if not s.is_released and s.skipped_at is None), None)
        next_on = waiting.release_on if waiting is not None else None
        programs.append(
            ProgramForClient(
                title=client_program.title,
                step=place.step,
                steps=place.steps,
                is_paused=place.is_paused,
                open_steps={
                    step.assignment_id: number
                    for number, step in enumerate(steps, 1)
                    if step.assignment_id is not None and not step.is_finished
                },
                # Paused, the date the rule names is not a promise: the neutral line says why not.
                next_on=None if place.is_paused or next_on is None or next_on <= today else next_on,
            )
        )
    return programs


@dataclass(frozen=True)
class ProgramInPeriod:
    """A program on the session summary: where the client is now, and what they did in the period."""

    standing: Standing
    done_in_period: int


def programs_in_period(
    *, user: User, client: Client, since: dt.date, until: dt.date
) -> list[ProgramInPeriod]:
    """The client's running programs begun by ``until``, and any other with a step done from
    ``since`` to ``until`` (the client's days): one query, two with any. Only steps the client sent
    count as done; a skipped one was the therapist's doing."""
    done_then = ClientProgramStep.objects.filter(
        client_program=OuterRef("pk"), done_on__gte=since, done_on__lte=until
    )
    chosen = client_programs_for_user(user=user).filter(
        Q(status__in=RUNNING, starts_on__lte=until) | Q(Exists(done_then)), client=client
    )
    return [
        ProgramInPeriod(
            standing=standing(client_program),
            done_in_period=sum(
                1
                for step in client_program.steps.all()
                if step.done_on is not None and since <= step.done_on <= until
            ),
        )
        for client_program in with_steps(chosen).order_by("created_at")
    ]


def client_programs_with_steps_due(*, now: dt.datetime) -> list[int]:
    """The running clients' programs with a step to release today on their client's calendar:
    two queries, whatever the number of programs."""
    _, latest = days_anywhere(now)
    candidates = with_steps(
        ClientProgram.objects.filter(
            status=ClientProgram.Status.ACTIVE,
            client__status=Client.Status.ACTIVE,
            pk__in=ClientProgramStep.objects.filter(
                assignment__isnull=True, skipped_at__isnull=True, release_on__lte=latest
            ).values("client_program_id"),
        )
    )
    due = []
    for client_program in candidates:
        zone = zoneinfo.ZoneInfo(client_program.client.timezone)
        steps = list(client_program.steps.all())
        today = client_today(client_program.client, now)
        if steps_to_release(steps, starts_on=client_program.starts_on, today=today, zone=zone):
            due.append(client_program.pk)
    return due
