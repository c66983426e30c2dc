"""The evening batch: tomorrow's summaries prepared and stored, by a real worker too."""

import datetime as dt
import subprocess
import sys
import time
from pathlib import Path

import pytest
from celery.schedules import crontab
from django.conf import settings
from django.utils import timezone

from clients.models import Client
from homework import tasks
from homework.selectors.period import practice_midnight
from practice.encryption import codec
from tests.factories import SessionFactory
from tests.helpers_workers import worker_queue  # noqa: F401 (a fixture)

ROOT = Path(__file__).resolve().parents[3]


def tomorrow_at(hour: int) -> dt.datetime:
    return practice_midnight(timezone.localdate() + dt.timedelta(days=1)) + dt.timedelta(hours=hour)


def stored(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.pdf"))


@pytest.mark.django_db
def test_evening_batch_prepares_each_session_tomorrow_once(cast, summaries_storage):
    SessionFactory.create(client=cast.alice, starts_at=tomorrow_at(10))
    SessionFactory.create(client=cast.bob, starts_at=tomorrow_at(15))
    SessionFactory.create(client=cast.alice, starts_at=tomorrow_at(10) + dt.timedelta(days=1))
    archived = Client.objects.filter(pk=cast.bob.pk)
    assert tasks.prepare_tomorrows_summaries.delay().get() == 2
    files = stored(summaries_storage)
    assert {f.relative_to(summaries_storage).parts[0] for f in files} == {
        str(cast.alice.pk),
        str(cast.bob.pk),
    }
    before = [f.stat().st_mtime_ns for f in files]
    assert tasks.prepare_tomorrows_summaries.delay().get() == 2
    assert [f.stat().st_mtime_ns for f in stored(summaries_storage)] == before  # not rendered again
    archived.update(status=Client.Status.ARCHIVED)
    assert tasks.prepare_tomorrows_summaries.delay().get() == 1


def test_beat_runs_the_batch_each_evening_and_the_purge_each_night():
    schedule = settings.CELERY_BEAT_SCHEDULE
    evening = schedule["prepare-tomorrows-summaries"]
    assert evening["task"] == "homework.tasks.prepare_tomorrows_summaries"
    assert isinstance(evening["schedule"], crontab)
    assert evening["schedule"] == crontab(hour=19, minute=0)
    assert schedule["purge-stale-summaries"]["task"] == "homework.tasks.purge_stale_summaries"
    assert settings.CELERY_TIMEZONE == settings.TIME_ZONE


def test_summary_tasks_have_time_limits():
    for task in (tasks.prepare_session_summary, tasks.prepare_tomorrows_summaries):
        assert task.soft_time_limit and task.time_limit
        assert task.soft_time_limit < task.time_limit


def test_a_worker_has_weasyprint_loaded_once_it_has_its_tasks():
    probe = (
        "import django, sys; django.setup(); import homework.tasks; "
        "print('weasyprint' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"DJANGO_SETTINGS_MODULE": "practice.settings", "PATH": "/usr/bin:/bin"},
    )
    assert out.stdout.strip().endswith("True")


@pytest.fixture
def worker_var_dir(monkeypatch, tmp_path, settings):
    """The worker keeps its summaries where this test can look."""
    monkeypatch.setenv("VAR_DIR", str(tmp_path))
    return tmp_path / "summaries"


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_renders_and_stores_a_sessions_summary(cast, worker_var_dir, worker_queue):  # noqa: F811
    session = SessionFactory.create(client=cast.alice, starts_at=tomorrow_at(9))
    # The fan-out is tested above; inside the worker it would send to the default
    # queue, which this test's private worker does not listen to.
    tasks.prepare_session_summary.delay(session.pk)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not stored(worker_var_dir):
        assert worker_queue.poll() is None, (
            worker_queue.stdout.read() if worker_queue.stdout else ""
        )
        time.sleep(0.5)
    if not stored(worker_var_dir):
        worker_queue.terminate()
        pytest.fail(worker_queue.communicate(timeout=20)[0])
    (pdf,) = stored(worker_var_dir)
    # Kept encrypted at rest, with the keys this test process shares with the worker.
    assert codec().decrypt(pdf.read_bytes()).startswith(b"%PDF")
    assert pdf.relative_to(worker_var_dir).parts[0] == str(cast.alice.pk)
