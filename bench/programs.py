"""The beat's release of programs' steps through a real Celery worker, against the same worker's
no-op tasks (issue 36's figure).

PostgreSQL and Redis, as production runs (bench.services: a database of its own, a queue of its
own). PROGRAMS clients, each on an active three-step program that started a week ago: the first
step given and done, the second on a day of the program, the third after it. Most (90%) have
their second step weeks away, so the scan's SQL passes them by; DUE_SHARE have it today, and as
many have it tomorrow (in the scan's SQL, as tomorrow has begun somewhere, but not due on their
client's calendar). Interleaved in each round, through one worker (solo pool):

- the release: ``homework.tasks.release_program_steps``, the beat's own task (the scan's two
  queries, then one transaction per due program), timed until every due step's assignment is
  there; the released steps are then made due again for the next round;
- no-op: PROGRAMS tasks that only count themselves in Redis.

The figure is the median of ROUNDS paired ratios. Goal: the release within 2x the no-op tasks.

Run on its own with ``python -m bench.programs``; ``make bench`` runs it in a process of its own
(figures()). BENCH_PROFILE=path: py-spy samples the worker throughout (as bench.reminders).
"""

import datetime as dt
import functools
import os
import statistics
import time
import zoneinfo
from pathlib import Path

from bench import services
from bench.figures import Figure

PROGRAMS = int(os.environ.get("BENCH_PROGRAMS", "10000"))
ROUNDS = int(os.environ.get("BENCH_PROGRAMS_ROUNDS", "3"))
DUE_SHARE = 0.05  # a step due today; as many due tomorrow, the rest weeks away
REPEATS_ITSELF = True  # each round is a repeat (the runner does not call it 3 times)
GOAL = 2.0
COUNTER = "bench:programs:no-op"
RELEASE = f"Programs: the beat's release over {PROGRAMS:,} active programs / as many no-op tasks"
SKIPPED = [Figure(RELEASE, float("nan"), GOAL, note="skipped: needs PostgreSQL and Redis")]
ZONE = "Europe/London"


def figures() -> list[Figure]:
    return services.figures_in_a_process_of_its_own("bench.programs", SKIPPED)


def _seed(count: int, today: dt.date) -> int:
    """``count`` clients on a program each, bulk inserts throughout; how many are due today."""
    from clients.models import Client
    from homework.models import (
        Assignment,
        ClientProgram,
        ClientProgramStep,
        Exercise,
        Program,
        Release,
    )
    from practice.models import User

    therapist = User.objects.create_user(
        email="programs@bench.test", name="Robin Hale", role="therapist", is_staff=True
    )
    exercise = Exercise.objects.create(kind="written_record", title="Record", instructions="Note.")
    program = Program.objects.create(title="Understanding the pull", owner=therapist)
    clients = Client.objects.bulk_create(
        [
            Client(therapist=therapist, display_name=f"Client {n}", timezone=ZONE)
            for n in range(count)
        ],
        batch_size=2000,
    )
    starts_on = today - dt.timedelta(days=7)
    first_work = Assignment.objects.bulk_create(
        [
            Assignment(
                client=client,
                exercise=exercise,
                starts_on=starts_on,
                due_on=starts_on + dt.timedelta(days=7),
                created_by=therapist,
            )
            for client in clients
        ],
        batch_size=2000,
    )
    client_programs = ClientProgram.objects.bulk_create(
        [
            ClientProgram(
                client=client,
                program=program,
                title=program.title,
                starts_on=starts_on,
                created_by=therapist,
            )
            for client in clients
        ],
        batch_size=2000,
    )
    due = int(count * DUE_SHARE)
    steps = []
    for n, (client_program, work) in enumerate(zip(client_programs, first_work, strict=True)):
        # Day 8 is today, day 9 tomorrow; the rest come on day 36.
        day = 8 if n < due else 9 if n < 2 * due else 36
        common = {"client_program": client_program, "exercise": exercise}
        steps += [
            ClientProgramStep(
                **common,
                position=1,
                release=Release.RIGHT_AWAY,
                assignment=work,
                done_on=starts_on + dt.timedelta(days=1),
            ),
            ClientProgramStep(
                **common,
                position=2,
                release=Release.ON_DAY,
                days=day,
                release_on=starts_on + dt.timedelta(days=day - 1),
            ),
            ClientProgramStep(**common, position=3, release=Release.AFTER_PREVIOUS),
        ]
    ClientProgramStep.objects.bulk_create(steps, batch_size=5000)
    return due


def _due_again(today: dt.date) -> None:
    """The steps the last round released made due again, their assignments gone."""
    from django.db import transaction

    from homework.models import Assignment, ClientProgramStep

    with transaction.atomic():
        released = ClientProgramStep.objects.filter(position=2, assignment__isnull=False)
        work = list(released.values_list("assignment_id", flat=True))
        released.update(assignment=None, release_on=today)
        Assignment.objects.filter(pk__in=work).delete()


def _release_round(due: int, today: dt.date) -> float:
    """The beat's task through the worker: seconds to the last due step given."""
    from django.db import connection

    from homework.models import ClientProgramStep
    from homework.tasks import release_program_steps

    released = ClientProgramStep.objects.filter(position=2, assignment__isnull=False)
    _due_again(today)
    connection.close()
    started = time.perf_counter()
    release_program_steps.delay()
    services.until(lambda: released.count() >= due, "the release of programs' steps")
    took = time.perf_counter() - started
    assert released.count() == due, f"{released.count()} steps released of {due}"
    return took


def _scan_alone() -> float:
    """The scan's own SQL and pacing, in this process, with nothing left due: seconds."""
    from django.utils import timezone

    from homework.selectors.programs import client_programs_with_steps_due

    started = time.perf_counter()
    client_programs_with_steps_due(now=timezone.now())
    return time.perf_counter() - started


def run() -> list[Figure]:
    found = services.services(dict(os.environ))
    if found is None:
        return SKIPPED
    with services.own_place(found, "programs", DJANGO_ENV="test", BENCH_NO_OP_COUNTER=COUNTER) as (
        folder,
        queue,
        redis_url,
    ):
        return _run_on(folder, queue, redis_url)


def _run_on(folder: Path, queue: str, redis_url: str) -> list[Figure]:
    services.django_on(queue)
    import redis as redis_client
    from django.db import connection
    from django.utils import timezone

    today = timezone.localdate(timezone=zoneinfo.ZoneInfo(ZONE))
    started = time.perf_counter()
    due = _seed(PROGRAMS, today)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # as after any bulk load: the planner sees 10,000 rows, not none
    seeded = time.perf_counter() - started
    redis = redis_client.Redis.from_url(redis_url)
    no_op_round = functools.partial(services.no_op_round, redis, COUNTER, PROGRAMS)
    rounds: list[tuple[float, float]] = []
    try:
        with services.warm_solo_worker(folder, queue, no_op_round):
            for _ in range(ROUNDS):
                rounds.append((_release_round(due, today), no_op_round()))
    finally:
        redis.delete(COUNTER, queue, f"_kombu.binding.{queue}")
    scan = _scan_alone()
    releases, no_ops = (statistics.median(column) for column in zip(*rounds, strict=True))
    print(
        f"Programs: {PROGRAMS:,} active, {due:,} with a step due today and {due:,} tomorrow, "
        f"through one real worker (solo pool)\n"
        f"  setup (bulk inserts): {seeded:.1f} s; {ROUNDS} interleaved rounds, medians\n"
        f"  the beat's release task, to the last step given: {releases:6.1f} s\n"
        f"  the same count of no-op tasks: {no_ops:6.1f} s\n"
        f"  the scan alone (two queries and the pacing, nothing due): {scan * 1000:.0f} ms"
    )
    per_release = f"{releases / due * 1000:.1f} ms a due program; the scan {scan * 1000:.0f} ms"
    ratios = [release / no_op for release, no_op in rounds]
    repeats = ", ".join(f"{ratio:.2f}" for ratio in ratios)
    note = f"{due:,} due; {per_release}; repeats {repeats}"
    return [Figure(RELEASE, statistics.median(ratios), GOAL, note=note)]


if __name__ == "__main__":
    services.print_figures(run())
