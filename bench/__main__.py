"""`make bench`: every benchmark in bench/, one table, bench/results.json.

Each module listed in MODULES has ``figures() -> list[Figure]``: one
measurement of each of its figures (a ratio against a baseline measured in
the same call). The runner calls it REPEATS times and reports each figure's
median; a module whose setup is a process of its own (a real worker) sets
``REPEATS_ITSELF = True`` and returns the medians of its own rounds. A
module listed but not written yet is reported as missing, not an error.

On PostgreSQL (DATABASE_URL) the in-process modules share a fresh database
``<name>_bench``, dropped at the end; otherwise a throwaway SQLite file, and
the modules that need PostgreSQL and Redis say they were skipped.
"""

import importlib
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

from bench import services
from bench.figures import Figure

# (module, its budget in seconds on this shared two-core machine); adding a
# benchmark is one line. The whole run is held to 15 minutes.
MODULES = (
    ("summary", 60),
    ("evening", 300),
    ("export", 120),
    ("encryption", 30),
    ("caseload", 240),
    ("fhir", 60),
    ("login_flood", 60),
    ("reminders", 150),
    ("programs", 240),
    ("pages", 60),
    ("languages", 120),
    ("load", 90),
    ("lighthouse", 300),
)
REPEATS = 3
SCALE = int(os.environ.get("BENCH_SCALE", "20"))
RESULTS = Path(__file__).resolve().parent / "results.json"
# The kept large practice is sealed with this key, the benchmarks' own (a
# throwaway database of made-up people): a key made afresh in each run's
# temporary folder could not open what an earlier run seeded.
BENCH_FIELD_KEY = "ZoHuAKLhI-_5FefpAmxNNyQbYSEF4yMkGd51y1d0bmQ="


def _manage(*args: str, database: str) -> str:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=services.ROOT,
        env={**os.environ, "DATABASE_URL": database},
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def _large_practice(database: str) -> str:
    """The large practice of SCALE therapists into ``database`` (a no-op where
    it is complete: a therapist already there is skipped)."""
    started = time.perf_counter()
    _manage("migrate", "--no-input", database=database)
    subprocess.run(
        [sys.executable, "-m", "bench.large_practice", str(SCALE)],
        cwd=services.ROOT,
        env={**os.environ, "DATABASE_URL": database},
        check=True,
        capture_output=True,
    )
    return (
        f"the large practice (bench.large_practice {SCALE}): {time.perf_counter() - started:.0f} s"
    )


def _database(folder: Path) -> str:
    """Point Django at the benchmarks' own database, the large practice in
    it; say which. On PostgreSQL the large practice is seeded once into
    ``<name>_bench_large_<N>``, kept between runs, and each run works on a
    copy of it (CREATE DATABASE ... TEMPLATE: seconds, where seeding is minutes)."""
    os.environ["VAR_DIR"] = str(folder)
    os.environ.setdefault("FIELD_ENCRYPTION_KEYS", BENCH_FIELD_KEY)
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    found = services.services(dict(os.environ))
    if found is None:
        database = f"sqlite:///{folder / 'bench.sqlite3'}"
        where = "SQLite (PostgreSQL and Redis not set or not reachable: their figures skipped)"
        seeded = _large_practice(database)
    else:
        large = services.database_beside(found[0], f"bench_large_{SCALE}")
        if not services.database_exists(large):
            services.fresh_database(found[0], f"bench_large_{SCALE}")
        seeded = _large_practice(large)
        database = services.fresh_database(found[0], "bench", template=large)
        where = "PostgreSQL, and Redis for the worker benchmarks"
    os.environ["DATABASE_URL"] = database
    os.environ.pop("REDIS_URL", None)  # in this process tasks run eagerly
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "practice.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return f"{where}\n{seeded}"


def _median_of(runs: list[list[Figure]]) -> list[Figure]:
    first = runs[0]
    return [
        Figure(
            figure.name,
            statistics.median(run[n].ratio for run in runs),
            figure.goal,
            figure.at_least,
            f"{figure.note}; repeats {', '.join(f'{run[n].ratio:.2f}' for run in runs)}".strip(
                "; "
            ),
        )
        for n, figure in enumerate(first)
    ]


def _measure(name: str) -> list[Figure]:
    try:
        module = importlib.import_module(f"bench.{name}")
    except ModuleNotFoundError as missing:
        if missing.name != f"bench.{name}":
            raise
        return [Figure(f"bench/{name}.py", math.nan, None, note="not there yet")]
    if getattr(module, "REPEATS_ITSELF", False):
        return list(module.figures())
    return _median_of([list(module.figures()) for _ in range(REPEATS)])


def _status(figure: Figure) -> str:
    if math.isnan(figure.ratio):
        return "skipped"
    return {True: "pass", False: "short", None: "info"}[figure.passed]


def _table(figures: list[Figure]) -> str:
    width = max(len(f.name) for f in figures)
    lines = [f"{'figure':<{width}}  {'ratio':>7}  {'goal':<13}  {'':<7}  note"]
    for f in figures:
        ratio = "" if math.isnan(f.ratio) else f"{f.ratio:6.2f}x"
        lines.append(f"{f.name:<{width}}  {ratio:>7}  {f.goal_text:<13}  {_status(f):<7}  {f.note}")
    return "\n".join(lines)


def main() -> int:
    started = time.perf_counter()
    os.environ["BENCH_ORIGINAL_ENVIRON"] = json.dumps(dict(os.environ))
    figures: list[Figure] = []
    spent: dict[str, float] = {}
    failed = False
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        where = _database(Path(tmp))
        print(f"make bench on {where}", flush=True)
        for name, budget in MODULES:
            began = time.perf_counter()
            print(f"== {name} (budget {budget} s)", flush=True)
            try:
                figures.extend(_measure(name))
            except Exception:
                traceback.print_exc()
                failed = True
                figures.append(Figure(f"bench/{name}.py", math.nan, None, note="failed: see above"))
            spent[name] = round(time.perf_counter() - began, 1)
            print(f"   {name}: {spent[name]:.0f} s", flush=True)
        from django.db import connections

        connections.close_all()
        if os.environ["DATABASE_URL"].startswith("postgres"):
            services.drop_database(os.environ["DATABASE_URL"])
    took = time.perf_counter() - started
    print(f"\n{_table(figures)}\n\n{len(figures)} figures in {took / 60:.1f} minutes")
    RESULTS.write_text(
        json.dumps(
            {
                "machine": f"{platform.node()}: {os.cpu_count()} cores, {platform.platform()}",
                "database": where,
                "seconds": round(took),
                "seconds_by_module": spent,
                "figures": [
                    {**f.as_json(), "ratio": None if math.isnan(f.ratio) else round(f.ratio, 3)}
                    for f in figures
                ],
            },
            indent=1,
        )
        + "\n"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
