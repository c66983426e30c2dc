"""PostgreSQL, Redis and real Celery workers for the benchmarks that need
them (bench.reminders, bench.evening, bench.load): each works in a database of its own
beside the one DATABASE_URL names, made afresh and dropped at the end, and
on a Redis queue of its own (it flushes nothing).

Such a benchmark runs in a process of its own (``python -m bench.<name>``,
its figures printed as JSON on the last line): its worker must see the same
settings, and the rest of ``make bench`` may be on SQLite.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from bench.figures import Figure

ROOT = Path(__file__).resolve().parent.parent
WAIT_SECONDS = 600  # one round; only ever reached when something is wrong


def _reachable(url: str, default_port: int) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection(
            (parts.hostname or "127.0.0.1", parts.port or default_port), 2
        ):
            return True
    except OSError:
        return False


def services(environ: dict[str, str]) -> tuple[str, str] | None:
    """(DATABASE_URL, REDIS_URL) when both name a reachable server, else None."""
    database, redis = environ.get("DATABASE_URL", ""), environ.get("REDIS_URL", "")
    if not database.startswith(("postgres://", "postgresql://")) or not redis:
        return None
    if not (_reachable(database, 5432) and _reachable(redis, 6379)):
        return None
    return database, redis


def database_beside(url: str, suffix: str) -> str:
    """The URL of database ``<name>_<suffix>`` beside the one ``url`` names."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{parts.path.lstrip('/') or 'practice'}_{suffix}"))


def fresh_database(url: str, suffix: str, *, template: str = "") -> str:
    """A new database beside the one ``url`` names (empty, or a copy of the
    database ``template`` names); its URL."""
    import psycopg

    made = database_beside(url, suffix)
    name = urlsplit(made).path.lstrip("/")
    copy = f' TEMPLATE "{urlsplit(template).path.lstrip("/")}"' if template else ""
    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"{copy}')
    return made


def database_exists(url: str) -> bool:
    import psycopg

    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        found = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (urlsplit(url).path.lstrip("/"),)
        ).fetchone()
    return found is not None


def drop_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}"')


@contextmanager
def own_place(found: tuple[str, str], name: str, **environ: str) -> Iterator[tuple[Path, str, str]]:
    """A benchmark's own database (beside ``found``'s, made afresh, dropped
    after), its own Redis queue and a folder for files, with Django pointed
    at them (and ``environ``) through the environment, as its worker is:
    yields the folder, the queue's name and the Redis URL."""
    database, redis_url = found
    bench_database = fresh_database(database, f"{name}_bench")
    queue = f"bench-{name}-{uuid.uuid4().hex[:12]}"
    with tempfile.TemporaryDirectory(prefix=f"{name}-bench-") as tmp:
        os.environ.update(
            DATABASE_URL=bench_database, VAR_DIR=tmp, DEBUG="0", LOG_LEVEL="WARNING", **environ
        )
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "practice.settings")
        try:
            yield Path(tmp), queue, redis_url
        finally:
            from django.db import connections

            connections.close_all()
            drop_database(bench_database)


def django_on(queue: str) -> None:
    """Django set up inside ``own_place``, migrated, its tasks sent to the benchmark's ``queue``."""
    import django

    django.setup()
    from django.core.management import call_command

    from practice.celery import app

    app.conf.update(task_default_queue=queue)
    call_command("migrate", verbosity=0)


@contextmanager
def running_worker(
    log: Path, *options: str, queue: str = "", include: tuple[str, ...] = ("bench.noop",)
) -> "Iterator[subprocess.Popen[bytes]]":
    """A real ``celery worker`` (``options``: e.g. "--pool=solo"), on ``queue``
    when given, importing ``include``; the tail of its log printed when the
    work inside fails, and stopped at the end."""
    command = [sys.executable, "-m", "celery", "-A", "practice", "worker", *options]
    command += ["--loglevel=WARNING", "--without-heartbeat", "--without-gossip", "--without-mingle"]
    command += ["-Q", queue] if queue else []
    command += ["-I", ",".join(include)] if include else []
    with log.open("ab") as out:
        worker = subprocess.Popen(
            command, cwd=ROOT, env={**os.environ}, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        yield worker
    except BaseException:
        print(log.read_text(errors="replace")[-3000:], file=sys.stderr)
        raise
    finally:
        stop(worker)


@contextmanager
def sampled(worker: "subprocess.Popen[bytes]") -> Iterator[None]:
    """BENCH_PROFILE=path: py-spy samples ``worker`` throughout, its stacks written there."""
    profile = os.environ.get("BENCH_PROFILE", "")
    if not profile:
        yield
        return
    command = ["py-spy", "record", "--idle", "--format", "raw", "-o", profile]
    spy = subprocess.Popen([*command, "--pid", str(worker.pid)])
    try:
        yield
    finally:
        spy.send_signal(signal.SIGINT)
        spy.wait(timeout=60)


@contextmanager
def warm_solo_worker(folder: Path, queue: str, no_op_round: Callable[[], float]) -> Iterator[None]:
    """One real worker (solo pool) on ``queue``, sampled, warmed up by a round of no-op tasks."""
    with (
        running_worker(folder / "worker.log", "--pool=solo", queue=queue) as worker,
        sampled(worker),
    ):
        no_op_round()  # the worker has started and imported everything
        yield


def stop(process: "subprocess.Popen[bytes]") -> None:
    process.terminate()
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def until(done: Callable[[], bool], what: str) -> None:
    """Wait for ``done``, asked every 50 ms: it must be cheap, as it shares
    the cores with the workers it waits for."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not done():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not finish within {WAIT_SECONDS} seconds")
        time.sleep(0.05)


def no_op_round(redis: Any, counter: str, count: int) -> float:
    """``count`` no-op tasks through the benchmark's worker, to the last one counted: seconds."""
    from bench.noop import no_op

    redis.delete(counter)
    started = time.perf_counter()
    for _ in range(count):
        no_op.delay()
    until(lambda: int(redis.get(counter) or 0) >= count, "the no-op tasks")
    return time.perf_counter() - started


def figures_in_a_process_of_its_own(module: str, skipped: list[Figure]) -> list[Figure]:
    """Run ``python -m <module>`` with the environment ``make bench`` was
    given (saved by the runner before it chose a database for the others),
    and read the figures it prints as JSON on its last line."""
    environ = json.loads(os.environ.get("BENCH_ORIGINAL_ENVIRON", "null")) or dict(os.environ)
    if services(environ) is None:
        return skipped
    done = subprocess.run(
        [sys.executable, "-m", module], cwd=ROOT, env=environ, stdout=subprocess.PIPE, text=True
    )
    lines = done.stdout.strip().splitlines()
    print("\n".join(lines[:-1]))
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"{module} failed ({done.returncode})")
    return [Figure(**row) for row in json.loads(lines[-1])]


def print_figures(figures: list[Figure]) -> None:
    """The last line of a process of its own: what the runner reads."""
    print(json.dumps([{k: v for k, v in f.as_json().items() if k != "passed"} for f in figures]))
