"""The evening batch: tomorrow's session summaries prepared by two worker
processes, against one summary's time in the same run (issue 28's figure).

PostgreSQL and Redis, as production runs (bench.services: a database and a
queue of its own). SESSIONS clients, each with three weeks of written
records and a session tomorrow. Each round, interleaved:

- the batch: the stored summaries removed, one ``prepare_session_summary``
  task queued per session (what ``prepare_tomorrows_summaries`` does each
  evening) to a real ``celery worker --concurrency=2`` (prefork: two worker
  processes, each in a session of its own so that each gets the CPU share
  the single below has: bench.own_session), timed until every summary is
  in storage;
- one summary's time: SINGLES of the same sessions prepared one after
  another in this process (``summary_prepare_for_session``, storage
  emptied first), just before the batch and again just after it; their
  mean, as the batch is a sum: each of its summaries pays for the moments
  the machine is busy, which a median would leave out. The median is
  printed too.

The figure: the batch / (SESSIONS x one summary's time / 2); goal at most
1.2x. A round is one repeat; the figure is the median of ROUNDS rounds.
Run on its own with ``python -m bench.evening``.
"""

import os
import shutil
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from bench import services
from bench.figures import Figure

# The count. A summary takes ~80 ms alone here when the machine is
# quiet, so a round is under a minute; on a loaded machine each is several
# times that: BENCH_EVENING_SESSIONS=24 keeps make bench inside its budget there
# (a batch that small is mostly the queue's fixed cost, ~0.2 s).
SESSIONS = int(os.environ.get("BENCH_EVENING_SESSIONS", "1000"))
ROUNDS = int(os.environ.get("BENCH_EVENING_ROUNDS", "3"))
SINGLES = 5
REPEATS_ITSELF = True
GOAL = 1.2
NAME = f"Evening batch: {SESSIONS} summaries by 2 workers / {SESSIONS} x one summary / 2"
SKIPPED = [Figure(NAME, float("nan"), GOAL, note="skipped: needs PostgreSQL and Redis")]


def _count_note() -> str:
    if SESSIONS >= 1000:
        return f"{SESSIONS:,} sessions, the issue's count"
    return f"{SESSIONS} of the issue's 1,000 (time budget)"


def figures() -> list[Figure]:
    return services.figures_in_a_process_of_its_own("bench.evening", SKIPPED)


def _seed(sessions: int) -> tuple[list[int], list[int]]:
    """``sessions`` clients with three weeks of records; their next sessions'
    ids, and those sessions' clients' ids in the same order."""
    from django.utils import timezone

    from bench.clients import client_with_records
    from clients.models import Session

    for number in range(sessions):
        client_with_records(f"Evening{number}", days=21, per_day=10 / 21, seed=number)
    rows = list(
        Session.objects.filter(starts_at__gt=timezone.now())
        .order_by("pk")
        .values_list("pk", "client_id")
    )
    return [pk for pk, _ in rows], [client_id for _, client_id in rows]


def _all_stored(folder: Path, client_ids: list[int]) -> Callable[[], bool]:
    """Whether every client's summary is in storage yet. Asked every 50 ms
    while the workers run, so it looks only at the first client still
    waiting (the queue hands them out in this order), never the whole tree:
    walking 1,000 clients' folders took ~50 ms of a core each time."""
    waiting = list(reversed(client_ids))

    def done() -> bool:
        while waiting and any((folder / str(waiting[-1])).glob("*/*.pdf")):
            waiting.pop()
        return not waiting

    return done


def _batch_round(ids: list[int], client_ids: list[int], folder: Path) -> float:
    from homework.tasks import prepare_session_summary

    shutil.rmtree(folder, ignore_errors=True)
    started = time.perf_counter()
    for session_id in ids:
        prepare_session_summary.delay(session_id)
    services.until(_all_stored(folder, client_ids), "the evening batch")
    return time.perf_counter() - started


def _singles(ids: list[int], folder: Path) -> list[float]:
    from homework.summary.services import summary_prepare_for_session

    shutil.rmtree(folder, ignore_errors=True)
    times = []
    for session_id in ids[:SINGLES]:
        started = time.perf_counter()
        summary_prepare_for_session(session_id=session_id)
        times.append(time.perf_counter() - started)
    return times


def run() -> list[Figure]:
    found = services.services(dict(os.environ))
    if found is None:
        return SKIPPED
    with services.own_place(found, "evening") as (folder, queue, redis_url):
        return _run_on(folder, queue, redis_url)


def _run_on(folder: Path, queue: str, redis_url: str) -> list[Figure]:
    services.django_on(queue)
    import redis as redis_client

    started = time.perf_counter()
    ids, client_ids = _seed(SESSIONS)
    assert len(ids) == SESSIONS, len(ids)
    seeded = time.perf_counter() - started
    summaries = folder / "summaries"
    rounds: list[tuple[float, float, float]] = []
    log = folder / "worker.log"
    try:
        # Each worker process in a session of its own (bench.own_session).
        with services.running_worker(
            log, "--concurrency=2", queue=queue, include=("bench.own_session",)
        ):
            # Warm up: both processes have rendered once.
            _batch_round(ids[:4], client_ids[:4], summaries)
            _singles(ids, summaries)
            for _ in range(ROUNDS):
                # The singles on both sides of the batch: a load that comes
                # or goes on this shared machine weighs on both alike.
                before = _singles(ids, summaries)
                batch = _batch_round(ids, client_ids, summaries)
                singles = before + _singles(ids, summaries)
                rounds.append((batch, statistics.mean(singles), statistics.median(singles)))
    finally:
        redis_client.Redis.from_url(redis_url).delete(queue, f"_kombu.binding.{queue}")
    batch, one, typical = (statistics.median(column) for column in zip(*rounds, strict=True))
    print(
        f"Evening batch: {SESSIONS} sessions tomorrow, 2 worker processes (prefork)\n"
        f"  setup: {seeded:.1f} s; {ROUNDS} interleaved rounds, medians\n"
        f"  the batch: {batch:6.1f} s; one summary alone: {one * 1000:.0f} ms on average "
        f"(x {SESSIONS} / 2 = {one * SESSIONS / 2:.1f} s), its median {typical * 1000:.0f} ms\n"
        f"  against the median instead: "
        f"{statistics.median(b / (m * SESSIONS / 2) for b, _, m in rounds):.2f}x"
    )
    ratio = statistics.median(b / (o * SESSIONS / 2) for b, o, _ in rounds)
    return [Figure(NAME, ratio, GOAL, note=_count_note())]


if __name__ == "__main__":
    services.print_figures(run())
