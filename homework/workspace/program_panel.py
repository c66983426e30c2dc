"""The Programs panel on a client's page: each running program with every step and what became of
it, then the ended ones in a line each. Read through homework.selectors.programs, and dated by the
same pacing the release follows (homework.schedules.pacing), so the page promises what will come."""

import datetime as dt
import zoneinfo
from dataclasses import dataclass

from clients.models import Client
from homework.models import ClientProgram, ClientProgramStep
from homework.schedules.pacing import coming, finished_on
from homework.selectors import client_today
from homework.selectors.programs import Standing, client_programs_for_user, standing, with_steps
from practice.models import User


@dataclass(frozen=True)
class StepRow:
    step: ClientProgramStep
    number: int
    # done, skipped, sent, today, comes (on ``day``), after (step ``number - 1``), later, paused
    state: str
    day: dt.date | None = None

    @property
    def can_skip(self) -> bool:
        return not self.step.is_finished


@dataclass(frozen=True)
class ProgramRow:
    standing: Standing
    steps: list[StepRow]  # empty for an ended program, shown in a line

    @property
    def client_program(self) -> ClientProgram:
        return self.standing.client_program


def step_rows(client_program: ClientProgram, *, today: dt.date) -> list[StepRow]:
    """Read ``with_steps``."""
    zone = zoneinfo.ZoneInfo(client_program.client.timezone)
    steps = list(client_program.steps.all())
    days = {}
    if client_program.status == ClientProgram.Status.ACTIVE:
        days = {
            step.pk: day
            for step, day in coming(steps, starts_on=client_program.starts_on, zone=zone)
        }
    rows = []
    for number, step in enumerate(steps, 1):
        if step.done_on is not None:
            rows.append(StepRow(step, number, "done", step.done_on))
        elif step.skipped_at is not None:
            rows.append(StepRow(step, number, "skipped", finished_on(step, zone=zone)))
        elif step.is_released:
            rows.append(StepRow(step, number, "sent"))
        elif client_program.status == ClientProgram.Status.PAUSED:
            rows.append(StepRow(step, number, "paused"))
        elif step.pk not in days:
            rows.append(StepRow(step, number, "later"))
        elif (day := days[step.pk]) is None:
            rows.append(StepRow(step, number, "after"))
        elif day <= today:
            # Already due: the next release sends it (the beat's, or a resume's).
            rows.append(StepRow(step, number, "today"))
        else:
            rows.append(StepRow(step, number, "comes", day))
    return rows


@dataclass(frozen=True)
class ProgramPanel:
    running: list[ProgramRow]  # oldest first
    ended: list[ProgramRow]  # newest first


def program_panel(*, user: User, client: Client) -> ProgramPanel:
    """Two queries, whatever the programs and steps."""
    theirs = client_programs_for_user(user=user).filter(client=client)
    client_programs = list(with_steps(theirs).order_by("created_at", "pk"))
    today = client_today(client)
    running = [
        ProgramRow(standing(cp), step_rows(cp, today=today))
        for cp in client_programs
        if cp.is_running
    ]
    ended = [ProgramRow(standing(cp), []) for cp in reversed(client_programs) if not cp.is_running]
    return ProgramPanel(running=running, ended=ended)
