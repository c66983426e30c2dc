"""Without a broker the build runs in a thread: the client is waiting, and no sweep would run it."""

import datetime as dt
import logging
import re
import threading
import time
import uuid
from collections.abc import Callable, Collection

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from clients.languages import client_language
from clients.models import Client
from homework import export
from homework.models import PreparedDownload
from homework.models.downloads import KEPT_FOR
from practice.languages import in_language
from practice.models import User

logger = logging.getLogger(__name__)

# Page counts are written at most this often, not once per page.
PAGES_WRITTEN_EVERY = 2.0
_PAGE = re.compile(r"Creating layout - Page (\d+)")


class _PageCounter(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.listeners: dict[int, Callable[[int], None]] = {}

    def emit(self, record: logging.LogRecord) -> None:
        listener = self.listeners.get(record.thread or 0)
        match = _PAGE.search(record.getMessage()) if listener else None
        if listener and match:
            listener(int(match.group(1)))


_counter = _PageCounter()


def _listen_to_progress() -> None:
    progress = logging.getLogger("weasyprint.progress")
    if _counter not in progress.handlers:
        progress.addHandler(_counter)
    progress.setLevel(logging.INFO)
    progress.disabled = False
    # Counted, not printed: every step of every render would fill the log.
    progress.propagate = False


def prepared_download_for(*, user: User) -> PreparedDownload | None:
    download = (
        PreparedDownload.objects.filter(client__portal_user=user).defer("sealed_file").first()
    )
    if download is None or download.expired(timezone.now()):
        return None
    return download


def download_start(*, client: Client, assignment_ids: Collection[int] | None) -> PreparedDownload:
    now = timezone.now()
    chosen = sorted(assignment_ids) if assignment_ids is not None else None
    downloads_purge_expired(now=now)
    with transaction.atomic():
        download = (
            PreparedDownload.objects.select_for_update()
            .filter(client=client)
            .defer("sealed_file")
            .first()
        )
        if download is not None and download.expired(now):
            download.delete()
            download = None
        if download is not None and download.shown_state(now) != PreparedDownload.State.FAILED:
            return download
        if download is None:
            try:
                with transaction.atomic():
                    download = PreparedDownload.objects.create(
                        client=client, assignment_ids=chosen, touched_at=now
                    )
            except IntegrityError:  # the other click of a double submit got there first
                return PreparedDownload.objects.get(client=client)
        else:
            download.state = PreparedDownload.State.PREPARING
            download.assignment_ids = chosen
            download.attempt += 1
            download.pages = 0
            download.claimed_at = None
            download.touched_at = now
            download.sealed_file = None
            download.save()
        _queue_build(download.pk, download.attempt)
        return download


def _queue_build(download_id: int, attempt: int) -> None:
    def send() -> None:
        from homework.tasks import prepare_download  # tasks import this module

        if prepare_download.app.conf.task_always_eager:
            run_in_thread(download_id, attempt)
            return
        try:
            prepare_download.delay(download_id, attempt)
        except Exception:
            logger.error("Could not queue a download (is Redis down?); building it here.")
            run_in_thread(download_id, attempt)

    transaction.on_commit(send, robust=True)


def run_in_thread(download_id: int, attempt: int) -> None:
    threading.Thread(target=_build_and_close, args=(download_id, attempt), daemon=True).start()


def _build_and_close(download_id: int, attempt: int) -> None:
    try:
        download_build(download_id=download_id, attempt=attempt)
    except Exception:
        logger.exception("A download built in-process failed.")
    finally:
        connection.close()  # the thread's own connection, never reused


def download_build(*, download_id: int, attempt: int) -> str:
    """Safe to run twice: only the first run of an attempt claims it."""
    now = timezone.now()
    claimed = PreparedDownload.objects.filter(
        pk=download_id, attempt=attempt, state=PreparedDownload.State.PREPARING, claimed_at=None
    ).update(claimed_at=now, touched_at=now)
    if not claimed:
        return "not-mine"
    download = PreparedDownload.objects.select_related("client__portal_user").get(pk=download_id)
    mine = PreparedDownload.objects.filter(pk=download_id, attempt=attempt)
    last_write = time.monotonic()
    last_page = 0

    def count(page: int) -> None:
        nonlocal last_write, last_page
        last_page = page
        if time.monotonic() - last_write >= PAGES_WRITTEN_EVERY:
            mine.update(pages=page, touched_at=timezone.now())
            last_write = time.monotonic()

    owner = download.client.portal_user
    _listen_to_progress()
    _counter.listeners[threading.get_ident()] = count
    try:
        if owner is None:  # the account was closed since it was asked for
            raise PreparedDownload.DoesNotExist
        # Built by a worker or a thread, where no request set the client's language.
        with (
            timezone.override(download.client.timezone),
            in_language(client_language(download.client)),
        ):
            body = export.export_pdf(user=owner, assignment_ids=download.assignment_ids)
    except Exception:
        mine.update(state=PreparedDownload.State.FAILED, touched_at=timezone.now())
        raise
    finally:
        _counter.listeners.pop(threading.get_ident(), None)
    mine.update(
        state=PreparedDownload.State.READY,
        pages=last_page,
        sealed_file=body,
        touched_at=timezone.now(),
    )
    return "ready"


def download_take(*, user: User, key: uuid.UUID) -> bytes | None:
    """Removed as it is handed over: no copy is kept."""
    with transaction.atomic():
        download = (
            PreparedDownload.objects.select_for_update()
            .filter(key=key, client__portal_user=user, state=PreparedDownload.State.READY)
            .first()
        )
        if download is None or download.expired(timezone.now()) or not download.sealed_file:
            return None
        body = bytes(download.sealed_file)
        download.delete()
        return body


def downloads_purge_expired(*, now: dt.datetime) -> int:
    return PreparedDownload.objects.filter(touched_at__lt=now - KEPT_FOR).delete()[0]
