"""`make run` as a newcomer types it (README), with a stand-in for the virtualenv."""

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def make_run(tmp_path: Path, *args: str, **env: str) -> list[str]:
    """Run `make run` with a fake python that prints the SITE_URL each step sees."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    python = venv / "bin" / "python"
    python.write_text('#!/bin/sh\necho "$2 SITE_URL=$SITE_URL"\n')
    python.chmod(0o755)
    digest = hashlib.md5((ROOT / "pyproject.toml").read_bytes()).hexdigest()[:12]  # noqa: S324
    (venv / f".installed-{digest}").touch()
    clean = {k: v for k, v in os.environ.items() if k not in {"SITE_URL", "PORT", "REDIS_URL"}}
    result = subprocess.run(
        ["make", "--no-print-directory", "-s", "run", f"VENV={venv}", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return result.stdout.splitlines()


def test_make_run_on_another_port_links_to_that_port(tmp_path):
    """An invitation link made while `make run PORT=8123` serves pointed at
    :8000, where nothing (or another checkout) answers."""
    lines = make_run(tmp_path, "PORT=8123")
    assert lines[-1] == "runserver SITE_URL=http://127.0.0.1:8123"
    assert all(line.endswith("SITE_URL=http://127.0.0.1:8123") for line in lines)


def test_make_run_keeps_a_site_url_given_to_it(tmp_path):
    lines = make_run(tmp_path, "PORT=8123", SITE_URL="https://practice.example.org")
    assert lines[-1] == "runserver SITE_URL=https://practice.example.org"
