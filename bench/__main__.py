"""`make bench` runs every benchmark here, on one throwaway database; each
prints its own figures."""

import sys
import tempfile
from pathlib import Path

from bench import caseload, encryption, export, login_flood, summary

if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        summary.setup_django(Path(tmp))
        codes = [
            summary.run_on_database(),
            export.run_on_database(),
            encryption.run_on_database(),
            login_flood.run_on_database(),
            caseload.run_on_database(),
        ]
        sys.exit(max(codes))
