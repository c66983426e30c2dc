"""Stored summaries: a second download is instant, a change renders again."""

import datetime as dt
import os
import stat
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.utils import timezone

from homework.models import Entry
from homework.selectors.period import PeriodQuery
from homework.services.stored_summaries import summary_storage
from homework.summary import render, services
from practice.encrypted_files import encrypted_file_read
from tests.factories import SessionFactory, daily_assignment

from .conftest import add, pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def renders(monkeypatch):
    """Counts PDF renders (the expensive step) while still doing them."""
    calls = []
    real = render.render_summary_pdf

    def counting(document, *, generated_at):
        calls.append(document.fingerprint)
        return real(document, generated_at=generated_at)

    monkeypatch.setattr(render, "render_summary_pdf", counting)
    return calls


def stored_files(root):
    return sorted(p for p in root.rglob("*") if p.is_file())


def test_second_download_comes_from_storage(cast, renders, summaries_storage):
    first = services.summary_pdf(user=cast.tara, client=cast.alice, query=PeriodQuery())
    second = services.summary_pdf(user=cast.tara, client=cast.alice, query=PeriodQuery())
    assert (first.from_storage, second.from_storage) == (False, True)
    assert second.content == first.content
    assert len(renders) == 1
    (only,) = stored_files(summaries_storage)
    assert "Alice" not in str(only)
    assert only.relative_to(summaries_storage).parts[0] == str(cast.alice.pk)


def test_a_changed_entry_renders_again_and_replaces_the_stored_file(
    cast, renders, summaries_storage
):
    services.summary_pdf(user=cast.tara, client=cast.alice, query=PeriodQuery())
    Entry.objects.filter(pk=cast.alice_entry.pk).update(felt_unsafe=True)
    again = services.summary_pdf(user=cast.tara, client=cast.alice, query=PeriodQuery())
    assert not again.from_storage
    assert len(renders) == 2
    assert len(stored_files(summaries_storage)) == 1
    assert "FELT UNSAFE" in pdf_text(again.content).upper()


def test_a_changed_style_sheet_renders_again_and_replaces_the_stored_file(
    cast, renders, summaries_storage, tmp_path, monkeypatch
):
    """A release that changes how the summary prints (its style sheet) is
    not hidden behind PDFs stored for the same HTML."""
    sheet = tmp_path / "summary.css"
    sheet.write_text(Path(str(finders.find(render.STYLESHEET))).read_text())
    monkeypatch.setattr(finders, "find", lambda name: str(sheet))
    services.summary_pdf(user=cast.tara, client=cast.alice, query=PeriodQuery())
    sheet.write_text(sheet.read_text() + "\nh1 { font-size: 30pt; }\n")
    os.utime(sheet, (sheet.stat().st_atime, sheet.stat().st_mtime + 1))
    again = services.summary_pdf(user=cast.tara, client=cast.alice, query=PeriodQuery())
    assert not again.from_storage
    assert len(renders) == 2 and renders[0] != renders[1]
    assert len(stored_files(summaries_storage)) == 1
    assert services.summary_pdf(user=cast.tara, client=cast.alice, query=PeriodQuery()).from_storage


def test_a_new_entry_renders_again(cast, renders):
    services.summary_pdf(user=cast.tara, client=cast.alice, query=PeriodQuery())
    add(cast.alice_assignment, what_happened="Something new came in.", days_ago=0.01)
    again = services.summary_pdf(user=cast.tara, client=cast.alice, query=PeriodQuery())
    assert "Something new came in." in pdf_text(again.content)


def test_a_newly_private_entry_leaves_the_stored_summary(cast, renders):
    before = services.summary_pdf(user=cast.tara, client=cast.alice, query=PeriodQuery())
    words = cast.alice_entry.response["what_happened"]
    assert words in pdf_text(before.content)
    Entry.objects.filter(pk=cast.alice_entry.pk).update(private=True)
    after = services.summary_pdf(user=cast.tara, client=cast.alice, query=PeriodQuery())
    assert words not in pdf_text(after.content)


def test_full_detail_is_never_stored(cast, renders, summaries_storage):
    query = PeriodQuery(full_detail=True)
    services.summary_pdf(user=cast.tara, client=cast.alice, query=query)
    services.summary_pdf(user=cast.tara, client=cast.alice, query=query)
    assert len(renders) == 2
    assert stored_files(summaries_storage) == []


def test_stored_summaries_are_readable_by_their_owner_only(cast, settings, tmp_path):
    settings.STORAGES = {
        **settings.STORAGES,
        "summaries": {
            **settings.STORAGES["summaries"],
            "OPTIONS": {"location": str(tmp_path / "s"), "file_permissions_mode": 0o600},
        },
    }
    services.summary_pdf(user=cast.tara, client=cast.alice, query=PeriodQuery())
    (stored,) = stored_files(tmp_path / "s")
    assert stat.S_IMODE(os.stat(stored).st_mode) == 0o600


def test_preparing_a_session_is_idempotent_and_matches_the_admins_download(cast, renders):
    session = SessionFactory.create(
        client=cast.alice, starts_at=timezone.now() + dt.timedelta(hours=20)
    )
    evening = timezone.now()
    name = services.summary_prepare_for_session(session_id=session.pk, now=evening)
    assert services.summary_prepare_for_session(session_id=session.pk, now=evening) == name
    assert len(renders) == 1
    # Next morning the therapist presses "Print": the stored PDF is served.
    morning = services.summary_pdf(
        user=cast.tara, client=cast.alice, query=PeriodQuery(), now=evening + dt.timedelta(hours=1)
    )
    assert morning.from_storage
    assert len(renders) == 1


def test_preparing_a_cancelled_session_does_nothing(cast, renders):
    assert services.summary_prepare_for_session(session_id=987654) is None
    assert renders == []


def test_purge_removes_only_old_summaries(cast, summaries_storage):
    services.summary_pdf(user=cast.tara, client=cast.alice, query=PeriodQuery())
    services.summary_pdf(user=cast.theo, client=cast.bob, query=PeriodQuery())
    old, recent = stored_files(summaries_storage)[0], stored_files(summaries_storage)[1]
    long_ago = (timezone.now() - services.RETENTION - dt.timedelta(days=1)).timestamp()
    os.utime(old, (long_ago, long_ago))
    just_now = timezone.now().timestamp()  # the files' times are the real clock's
    os.utime(recent, (just_now, just_now))
    assert services.summary_purge_stale() == 1
    assert stored_files(summaries_storage) == [recent]


def test_purge_with_nothing_stored_is_fine(db, summaries_storage):
    assert services.summary_purge_stale() == 0


def evening_and_session_tomorrow(cast):
    """19:00 today, and Alice's session at 10:00 tomorrow: today is its eve."""
    from homework.selectors.period import practice_midnight

    evening = practice_midnight(timezone.localdate()) + dt.timedelta(hours=19)
    session = SessionFactory.create(client=cast.alice, starts_at=evening + dt.timedelta(hours=15))
    return evening, session


def every_evening(cast):
    """Daily work for Alice from three days ago: its fourth slot is today's."""
    from tests.factories import ExerciseFactory

    today = timezone.localdate()
    return daily_assignment(
        cast.alice,
        exercise=ExerciseFactory.create(title="Every evening"),
        starts_on=today - dt.timedelta(days=3),
        ends_on=today + dt.timedelta(days=10),
    )


@pytest.mark.parametrize("daily_work", [False, True])
def test_the_evening_batch_is_what_the_morning_print_serves(cast, renders, daily_work):
    """Prepared at 19:00 for a session at 10:00 tomorrow, printed at 08:00: the
    same summary, from storage. Both count through the eve, and the eve's
    daily work, done before the batch, reads the same once the day is over."""
    from tests.factories import EntryFactory

    evening, session = evening_and_session_tomorrow(cast)
    if daily_work:
        done = evening - dt.timedelta(hours=1)
        EntryFactory.create(
            assignment=every_evening(cast),
            occurrence_on=timezone.localdate(),
            submitted_at=done,
            shared_at=done,
        )
    services.summary_prepare_for_session(session_id=session.pk, now=evening)
    morning = services.summary_pdf(
        user=cast.tara, client=cast.alice, query=PeriodQuery(), now=evening + dt.timedelta(hours=13)
    )
    assert morning.from_storage
    assert len(renders) == 1


def test_the_eves_daily_work_still_open_at_the_batch_counts_by_morning(cast, renders):
    """At 19:00 the eve is not over: its check-in, not done yet, is open, not
    missed. By 08:00 the day is over and it counts: the summary reads
    differently, so the morning's print renders it again (the accepted cost
    of never counting the client's today as missed)."""
    evening, session = evening_and_session_tomorrow(cast)
    every_evening(cast)
    name = services.summary_prepare_for_session(session_id=session.pk, now=evening)
    assert name is not None
    stored = encrypted_file_read(storage=summary_storage(), name=name)
    assert "Every evening — 0 of 3 days" in pdf_text(stored)
    morning = services.summary_pdf(
        user=cast.tara, client=cast.alice, query=PeriodQuery(), now=evening + dt.timedelta(hours=13)
    )
    assert not morning.from_storage
    assert len(renders) == 2
    assert "Every evening — 0 of 4 days" in pdf_text(morning.content)


def test_the_purge_keeps_a_summary_prepared_for_a_session_to_come(cast, summaries_storage):
    """Unchanged for a fortnight, found again by tonight's batch: the file keeps
    its first date, and the night's purge must not take it before the session."""
    from homework.selectors.period import practice_midnight

    today = timezone.localdate()
    evening = practice_midnight(today) + dt.timedelta(hours=19)
    session = SessionFactory.create(client=cast.alice, starts_at=evening + dt.timedelta(hours=15))
    name = services.summary_prepare_for_session(session_id=session.pk, now=evening)
    assert name is not None
    path = summaries_storage / name
    fortnight = (evening - services.RETENTION + dt.timedelta(hours=4)).timestamp()
    os.utime(path, (fortnight, fortnight))
    assert services.summary_prepare_for_session(session_id=session.pk, now=evening) == name
    assert services.summary_purge_stale(now=evening + dt.timedelta(hours=8, minutes=30)) == 0
    assert path.exists()


@pytest.mark.django_db(transaction=True)  # the files go once the change is committed
@pytest.mark.parametrize("change", ["made private", "edited"])
def test_words_taken_back_or_changed_leave_no_stored_copy(cast, summaries_storage, change):
    from homework import services as homework_services
    from homework.services import Flags

    SessionFactory.create(client=cast.alice, starts_at=timezone.now() + dt.timedelta(hours=20))
    session = cast.alice.sessions.get()
    services.summary_prepare_for_session(session_id=session.pk)
    assert len(stored_files(summaries_storage)) == 1
    entry = cast.alice_entry
    if change == "made private":
        homework_services.entry_set_private(
            user=cast.alice.portal_user, key=entry.key, private=True
        )
    else:
        homework_services.entry_edit(
            user=cast.alice.portal_user,
            key=entry.key,
            base_version=entry.version,
            data={**entry.response, "what_happened": "Said differently."},
            flags=Flags(),
        )
    assert stored_files(summaries_storage) == []


def test_purge_follows_the_practices_keep_period(cast, summaries_storage):
    from practice.models import PracticeSettings
    from practice.selectors import forget_practice_settings

    PracticeSettings.objects.filter(pk=1).update(summary_keep_days=3)
    forget_practice_settings()
    services.summary_pdf(user=cast.tara, client=cast.alice, query=PeriodQuery())
    services.summary_pdf(user=cast.theo, client=cast.bob, query=PeriodQuery())
    old, recent = stored_files(summaries_storage)[0], stored_files(summaries_storage)[1]
    four_days_ago = (timezone.now() - dt.timedelta(days=4)).timestamp()
    two_days_ago = (timezone.now() - dt.timedelta(days=2)).timestamp()
    os.utime(old, (four_days_ago, four_days_ago))
    os.utime(recent, (two_days_ago, two_days_ago))
    assert services.summary_purge_stale() == 1
    assert stored_files(summaries_storage) == [recent]
