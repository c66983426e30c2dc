"""Producing summary PDFs and storing them encrypted under their client, period and fingerprint, so
an unchanged one is served without rendering. No database writes: the caller records who printed
what. Full-detail PDFs are never stored: they may hold a whole safety plan."""

import datetime as dt
import logging
from dataclasses import dataclass

from django.utils import timezone

from clients.models import Client
from homework.selectors.period import PeriodQuery, key_is_for_a_session_from, practice_date
from homework.services.stored_summaries import folder_remove, summary_storage
from homework.summary import render, selectors
from practice.encrypted_files import encrypted_file_read, encrypted_file_save
from practice.encryption import UnreadableValue
from practice.languages import in_language
from practice.models import User
from practice.selectors import practice_settings

logger = logging.getLogger(__name__)

# Stored summaries are clinical records at rest, kept only as long as printing before the
# session needs (the default of PracticeSettings.summary_keep_days, which the purge reads).
RETENTION = dt.timedelta(days=14)


@dataclass(frozen=True)
class SummaryPdf:
    content: bytes
    filename: str
    data: selectors.SummaryData
    from_storage: bool
    printed: frozenset[int]

    @property
    def description(self) -> str:
        """For the access log: what was printed, without the client's words."""
        period = self.data.period
        detail = " (full detail)" if self.data.full_detail else ""
        kind = "Summary for chosen dates" if period.chosen_dates else "Session summary"
        return f"{kind} {period.since:%Y-%m-%d} to {period.until:%Y-%m-%d}{detail}"


def _folder(client: Client, data: selectors.SummaryData) -> str:
    return f"{client.pk}/{data.period.key}"


def summary_pdf(
    *, user: User, client: Client, query: PeriodQuery, now: dt.datetime | None = None
) -> SummaryPdf:
    now = now or timezone.now()
    period = selectors.resolve_period(user=user, client=client, query=query, now=now)
    # Printed in the reader's language even with no request around (a command, a task): the
    # data too, which names each measure by its version in that language.
    with in_language(user.language) as language:
        data = selectors.summary_data(
            user=user, client=client, period=period, full_detail=query.full_detail, now=now
        )
        return _from_storage_or_render(data, now=now, language=language)


def summary_prepare_for_session(*, session_id: int, now: dt.datetime | None = None) -> str | None:
    """Safe to run twice: an unchanged summary is not rendered again. None if the session went."""
    now = now or timezone.now()
    session = selectors.session_for_batch(session_id=session_id)
    if session is None:
        return None
    client = session.client
    therapist = client.therapist
    period = selectors.period_for_session(user=therapist, client=client, target=session, now=now)
    # A worker has no request: the therapist who will print it reads it in their own language.
    with in_language(therapist.language) as language:
        data = selectors.summary_data(
            user=therapist, client=client, period=period, full_detail=False, now=now
        )
        document = render.summary_document(data)
        name = _stored_name(client, data, document, language)
        if not summary_storage().exists(name):
            _store(name, render.render_summary_pdf(document, generated_at=now))
    return name


def _stored_name(
    client: Client, data: selectors.SummaryData, document: render.SummaryDocument, language: str
) -> str:
    """One file per language, so a manager printing in another does not replace the therapist's."""
    return f"{_folder(client, data)}/{language}-{document.fingerprint}.pdf"


def _from_storage_or_render(
    data: selectors.SummaryData, *, now: dt.datetime, language: str
) -> SummaryPdf:
    document = render.summary_document(data)
    if data.full_detail:
        content = render.render_summary_pdf(document, generated_at=now)
        return SummaryPdf(content, document.filename, data, False, document.printed)
    storage = summary_storage()
    name = _stored_name(data.client, data, document, language)
    if storage.exists(name):
        try:
            stored = encrypted_file_read(storage=storage, name=name)
            return SummaryPdf(stored, document.filename, data, True, document.printed)
        except FileNotFoundError:  # replaced or purged since exists()
            pass
        except UnreadableValue:
            # Its key was dropped, or it was read mid-rotation: render again in its place.
            logger.warning("A stored summary could not be opened; rendering it again.")
            storage.delete(name)
    content = render.render_summary_pdf(document, generated_at=now)
    _store(name, content)
    return SummaryPdf(content, document.filename, data, False, document.printed)


def _store(name: str, content: bytes) -> None:
    storage = summary_storage()
    saved = encrypted_file_save(storage=storage, name=name, content=content)
    if saved != name:
        storage.delete(saved)
    folder, keep = name.rsplit("/", 1)
    language = keep.rsplit("-", 1)[0]
    _, files = storage.listdir(folder)
    for other in files:
        if other != keep and other.rsplit("-", 1)[0] == language:
            storage.delete(f"{folder}/{other}")


def summary_purge_stale(*, now: dt.datetime | None = None) -> int:
    """Except those for a session still to come: an unchanged file keeps its first date."""
    now = now or timezone.now()
    cutoff = now - dt.timedelta(days=practice_settings().summary_keep_days)
    today = practice_date(now)
    storage = summary_storage()
    removed = 0
    try:
        clients, _ = storage.listdir("")
    except FileNotFoundError:
        return 0
    for client_folder in clients:
        periods, _ = storage.listdir(client_folder)
        for period_folder in periods:
            if key_is_for_a_session_from(period_folder, today):
                continue
            folder = f"{client_folder}/{period_folder}"
            _, files = storage.listdir(folder)
            stale = [f"{folder}/{name}" for name in files]
            stale = [name for name in stale if storage.get_modified_time(name) < cutoff]
            for name in stale:
                storage.delete(name)
            removed += len(stale)
            if len(stale) == len(files):
                folder_remove(storage, folder)
        folder_remove(storage, client_folder)
    return removed
