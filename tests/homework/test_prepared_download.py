"""A long notebook's PDF, prepared in the background (homework.services.downloads):
asked for by a post, followed without JavaScript, fetched once, then gone."""

import datetime as dt
import io

import pytest
from cryptography.fernet import Fernet
from django.core.management import call_command
from django.db import IntegrityError, connection
from django.urls import reverse
from django.utils import timezone

from homework.models import PreparedDownload
from homework.portal.export_forms import ExportChoiceForm
from homework.services import downloads
from tests.conftest import TEST_FIELD_KEY, login
from tests.helpers_pdf import pages_of

CANARY = "Canary-words-4417 only I wrote"
NEWER_KEY = Fernet.generate_key().decode()


@pytest.fixture
def long_notebook(monkeypatch):
    """Every notebook counts as long, and the build runs in the test's own
    thread when the request's transaction commits (not in a thread of its own)."""
    monkeypatch.setattr(ExportChoiceForm, "LONG_NOTEBOOK", 1)
    monkeypatch.setattr(downloads, "PAGES_WRITTEN_EVERY", 0)
    monkeypatch.setattr(
        downloads,
        "run_in_thread",
        lambda pk, attempt: downloads.download_build(download_id=pk, attempt=attempt),
    )


def ask(http, django_capture_on_commit_callbacks, *, build: bool = True):
    with django_capture_on_commit_callbacks(execute=build) as queued:
        response = http.post(reverse("homework:download_ask"))
    return response, queued


def test_a_short_notebook_downloads_at_once(cast):
    response = login(cast.alice.portal_user).post(reverse("homework:download_ask"))
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    assert not PreparedDownload.objects.exists()


def test_a_long_notebook_is_followed_without_javascript_then_fetched_once(
    cast, long_notebook, django_capture_on_commit_callbacks
):
    http = login(cast.alice.portal_user)
    response, _ = ask(http, django_capture_on_commit_callbacks, build=False)
    assert response.status_code == 302
    assert response["Location"] == reverse("homework:download_progress")
    page = http.get(response["Location"]).text
    assert "being put together" in page and "Check again" in page
    assert 'role="status" aria-live="polite"' in page
    assert "Download the PDF" in page  # in the page, hidden until ready (the script shows it)
    assert 'data-show-when="ready" hidden' in page

    download = PreparedDownload.objects.get()
    downloads.download_build(download_id=download.pk, attempt=download.attempt)
    download.refresh_from_db()
    assert download.state == PreparedDownload.State.READY and download.pages >= 1
    assert http.get(reverse("homework:download_status")).json()["state"] == "ready"
    page = http.get(reverse("homework:download_progress")).text
    assert "Your PDF is ready." in page and 'data-show-when="preparing" hidden' in page

    fetch = reverse("homework:download_fetch", args=[download.key])
    taken = http.post(fetch)
    assert taken.content.startswith(b"%PDF") and "attachment" in taken["Content-Disposition"]
    assert not PreparedDownload.objects.exists()  # no copy kept
    assert http.post(fetch).status_code == 404


def test_asking_twice_finds_the_download_under_way(
    cast, long_notebook, django_capture_on_commit_callbacks
):
    http = login(cast.alice.portal_user)
    _, first = ask(http, django_capture_on_commit_callbacks, build=False)
    _, second = ask(http, django_capture_on_commit_callbacks, build=False)
    assert len(first) == 1 and len(second) == 0  # one build queued, not two
    assert PreparedDownload.objects.filter(client=cast.alice).count() == 1


def test_one_download_per_client_is_a_constraint(cast):
    PreparedDownload.objects.create(client=cast.alice, touched_at=timezone.now())
    with pytest.raises(IntegrityError):
        PreparedDownload.objects.create(client=cast.alice, touched_at=timezone.now())


def test_the_stored_file_is_sealed(cast, long_notebook, django_capture_on_commit_callbacks):
    cast.alice_entry.response = {**cast.alice_entry.response, "what_happened": CANARY}
    cast.alice_entry.save(update_fields=["response"])
    ask(login(cast.alice.portal_user), django_capture_on_commit_callbacks)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT sealed_file FROM {PreparedDownload._meta.db_table}")  # noqa: S608
        (raw,) = cursor.fetchone()
    raw = bytes(raw)
    assert raw and not raw.startswith(b"%PDF")
    assert CANARY.encode() not in raw and b"Canary" not in raw


def test_a_ready_download_opens_after_the_keys_rotate_and_the_old_one_is_dropped(cast, settings):
    download = PreparedDownload.objects.create(
        client=cast.alice,
        state=PreparedDownload.State.READY,
        touched_at=timezone.now(),
        sealed_file=f"%PDF {CANARY}".encode(),
    )
    settings.FIELD_ENCRYPTION_KEYS = [NEWER_KEY, TEST_FIELD_KEY]
    out = io.StringIO()
    call_command("rotate_field_keys", stdout=out)
    assert "homework_prepareddownload.sealed_file: 1 value(s)" in out.getvalue()

    settings.FIELD_ENCRYPTION_KEYS = [NEWER_KEY]
    taken = downloads.download_take(user=cast.alice.portal_user, key=download.key)
    assert taken == f"%PDF {CANARY}".encode()


def test_a_failed_build_offers_to_try_again(
    cast, long_notebook, django_capture_on_commit_callbacks, monkeypatch
):
    def broken(**_kwargs):
        raise RuntimeError("the renderer fell over")

    monkeypatch.setattr("homework.export.export_pdf", broken)
    http = login(cast.alice.portal_user)
    ask(http, django_capture_on_commit_callbacks)  # the failure is logged, the ask stands
    page = http.get(reverse("homework:download_progress")).text
    assert "could not be finished" in page and "Try again" in page

    _, queued = ask(http, django_capture_on_commit_callbacks, build=False)
    download = PreparedDownload.objects.get()
    assert len(queued) == 1
    assert (download.state, download.attempt) == (PreparedDownload.State.PREPARING, 2)


def test_a_build_that_stopped_moving_shows_as_failed(cast):
    stalled = PreparedDownload.objects.create(
        client=cast.alice, touched_at=timezone.now() - dt.timedelta(minutes=11)
    )
    assert stalled.shown_state(timezone.now()) == PreparedDownload.State.FAILED
    status = login(cast.alice.portal_user).get(reverse("homework:download_status")).json()
    assert status["state"] == "failed"


def test_expired_downloads_are_purged_and_not_handed_over(cast):
    now = timezone.now()
    old = PreparedDownload.objects.create(
        client=cast.alice,
        state=PreparedDownload.State.READY,
        touched_at=now - dt.timedelta(hours=1, minutes=1),
        sealed_file=b"sealed",
    )
    PreparedDownload.objects.create(client=cast.bob, touched_at=now)
    fetch = reverse("homework:download_fetch", args=[old.key])
    assert login(cast.alice.portal_user).post(fetch).status_code == 404
    assert downloads.downloads_purge_expired(now=now) == 1
    assert list(PreparedDownload.objects.values_list("client", flat=True)) == [cast.bob.pk]


def test_a_link_to_a_long_notebooks_pdf_starts_nothing(cast, long_notebook):
    response = login(cast.alice.portal_user).get(reverse("homework:export_pdf"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("clients:account"))
    assert not PreparedDownload.objects.exists()


def test_with_the_broker_down_the_download_is_built_here(
    cast, long_notebook, django_capture_on_commit_callbacks, monkeypatch
):
    from homework.tasks import prepare_download

    def broker_down(*_args):
        raise OSError("connection refused")

    monkeypatch.setattr(prepare_download.app.conf, "task_always_eager", False)
    monkeypatch.setattr(prepare_download, "delay", broker_down)
    ask(login(cast.alice.portal_user), django_capture_on_commit_callbacks)
    assert PreparedDownload.objects.get().state == PreparedDownload.State.READY


def test_settings_lead_back_to_a_download_asked_for(cast):
    http = login(cast.alice.portal_user)
    assert "See the PDF you asked for" not in http.get(reverse("clients:account")).text
    PreparedDownload.objects.create(client=cast.alice, touched_at=timezone.now())
    assert "See the PDF you asked for" in http.get(reverse("clients:account")).text


def test_a_download_built_in_the_background_is_in_the_clients_language(cast):
    """The worker has no request: the client's own language is set for the build."""
    cast.alice.language = "es"
    cast.alice.save(update_fields=["language"])
    download = PreparedDownload.objects.create(client=cast.alice, touched_at=timezone.now())
    assert downloads.download_build(download_id=download.pk, attempt=download.attempt) == "ready"
    download.refresh_from_db()
    assert download.sealed_file is not None
    text = " ".join(line for page in pages_of(bytes(download.sealed_file)) for line in page)
    assert "Mi cuaderno" in text and "My notebook" not in text
    assert cast.alice_entry.response["what_happened"] in text
