"""`make bench` runs every benchmark here, on one throwaway database; each
prints its own figures. The reminders' runs in a process of its own, on
PostgreSQL and Redis (skipped without them)."""

import os
import sys
import tempfile
from pathlib import Path

from bench import api, caseload, encryption, export, login_flood, reminders, summary

if __name__ == "__main__":
    environ = dict(os.environ)  # before setup_django points DATABASE_URL at SQLite
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        summary.setup_django(Path(tmp))
        codes = [
            summary.run_on_database(),
            # A list of Figures (bench.figures); the runner that prints them lands with make bench.
            0 if all(figure.passed is not False for figure in export.run_on_database()) else 1,
            encryption.run_on_database(),
            login_flood.run_on_database(),
            0 if all(figure.passed for figure in caseload.run_on_database()) else 1,
            # Returns its Figures (bench.figures); a figure short of its goal fails the run.
            0 if all(figure.passed is not False for figure in api.run_on_database()) else 1,
            reminders.run_in_a_process_of_its_own(environ),
        ]
        sys.exit(max(codes))
