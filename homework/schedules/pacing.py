"""When a program's steps come: a pure function of the steps as they stand and the client's today."""

import datetime as dt
from collections.abc import Iterator, Sequence
from typing import Protocol, TypeVar


class PacedStep(Protocol):
    release: str
    days: int | None
    required: bool
    release_on: dt.date | None
    done_on: dt.date | None
    skipped_at: dt.datetime | None

    @property
    def is_released(self) -> bool: ...

    @property
    def is_finished(self) -> bool: ...


Step = TypeVar("Step", bound=PacedStep)


def first_day(
    step: PacedStep, *, starts_on: dt.date, before_done_on: dt.date | None
) -> dt.date | None:
    """The first day ``step`` may come once the path reaches it; None while the step before is not
    done and the rule waits for it."""
    if step.release == "right_away":
        return starts_on
    if step.release == "on_day":
        return starts_on + dt.timedelta(days=(step.days or 1) - 1)
    if before_done_on is None:
        return None
    if step.release == "after_previous_days":
        return before_done_on + dt.timedelta(days=step.days or 0)
    return before_done_on


def coming(
    steps: Sequence[Step], *, starts_on: dt.date, zone: dt.tzinfo
) -> Iterator[tuple[Step, dt.date | None]]:
    """Each step still to come with the first day it may come, in order, as if each one before it
    came on its day; a day of None waits on a step not yet done, and ends the path for now."""
    before_done_on: dt.date | None = starts_on  # the start counts as a done step before the first
    earliest = starts_on
    waiting = False
    for step in steps:
        if step.is_released or step.skipped_at is not None:
            waiting = step.required and not step.is_finished
            before_done_on = finished_on(step, zone=zone)
            continue
        day = (
            None if waiting else first_day(step, starts_on=starts_on, before_done_on=before_done_on)
        )
        if day is None:
            yield step, None
            return
        earliest = max(earliest, day)
        yield step, earliest
        waiting = step.required
        before_done_on = None


def steps_to_release(
    steps: Sequence[Step], *, starts_on: dt.date, today: dt.date, zone: dt.tzinfo
) -> list[Step]:
    """The steps whose day has come: none before the one before it, none past a required step
    that is not yet done or skipped."""
    due: list[Step] = []
    for step, day in coming(steps, starts_on=starts_on, zone=zone):
        if day is None or day > today:
            break
        due.append(step)
    return due


def next_release_on(
    steps: Sequence[PacedStep], *, starts_on: dt.date, zone: dt.tzinfo
) -> dt.date | None:
    """The day the next step may come, or None while it waits on one not done."""
    return next((day for _, day in coming(steps, starts_on=starts_on, zone=zone)), None)


def finished_on(step: PacedStep, *, zone: dt.tzinfo) -> dt.date | None:
    if step.done_on is not None:
        return step.done_on
    if step.skipped_at is not None:
        return step.skipped_at.astimezone(zone).date()
    return None
