"""Reads of programs: the library of them, a client's, and the ones the beat has steps to release."""

import datetime as dt
import zoneinfo
from dataclasses import dataclass

from django.db.models import Prefetch, Q, QuerySet

from clients.models import Client
from clients.selectors import clients_for_user
from homework.models import ClientProgram, ClientProgramStep, Program, ProgramStep
from homework.schedules.pacing import steps_to_release
from homework.selectors.portal import client_today
from homework.selectors.progress import days_anywhere
from practice.models import User
from practice.roles import is_acting_manager


def programs_for_user(*, user: User) -> QuerySet[Program]:
    """The programs a member of staff may use: the practice's and their own."""
    if is_acting_manager(user):
        return Program.objects.all()
    if user.is_authenticated and user.is_therapist:
        return Program.objects.filter(Q(owner__isnull=True) | Q(owner=user))
    return Program.objects.none()


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


def running_programs(clients: QuerySet[Client]) -> QuerySet[ClientProgram]:
    running = ClientProgram.objects.filter(
        client__in=clients,
        status__in=[ClientProgram.Status.ACTIVE, ClientProgram.Status.PAUSED],
    )
    return with_steps(running).order_by("created_at")


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
