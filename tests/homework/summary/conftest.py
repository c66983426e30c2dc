"""Helpers for the session summary tests: entries in a period, PDFs read back."""

import datetime as dt
import io
import subprocess
import uuid

import pytest
from django.utils import timezone
from pypdf import PdfReader

from homework.models import Assignment, Entry
from tests.factories import written_record


def record(
    assignment: Assignment,
    *,
    days_ago: float = 1,
    what_happened: str = "They went quiet for the whole evening.",
    status: str = Entry.Status.SUBMITTED,
    **fields: object,
) -> Entry:
    """A written record sent ``days_ago`` days ago (unsaved: bulk_create or save it).

    Keyword arguments that name a written-record field go into the response;
    the rest are the entry's own fields (flags, private).
    """
    when = timezone.now() - dt.timedelta(days=days_ago)
    answers = {key: fields.pop(key) for key in list(fields) if key in written_record()}
    response = {
        **written_record(),
        "what_happened": what_happened,
        "body_distress": 6,
        "occurred_at": (when - dt.timedelta(hours=1)).isoformat(),
        **answers,
    }
    return Entry(
        key=uuid.uuid4(),
        assignment=assignment,
        schema_version=1,
        response=response,
        status=status,
        submitted_at=when if status == Entry.Status.SUBMITTED else None,
        shared_at=when if status == Entry.Status.SUBMITTED and not fields.get("private") else None,
        **fields,
    )


def add(assignment: Assignment, **kwargs: object) -> Entry:
    entry = record(assignment, **kwargs)  # type: ignore[arg-type]
    entry.save()
    return entry


def pdf_text(pdf: bytes) -> str:
    """The PDF's text as poppler reads it, lines joined so phrases stay whole."""
    out = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    return " ".join(out.split())


def page_count(pdf: bytes) -> int:
    return len(PdfReader(io.BytesIO(pdf)).pages)


@pytest.fixture
def summaries_storage(settings, tmp_path):
    """Stored summaries go to a folder of this test's own."""
    settings.STORAGES = {
        **settings.STORAGES,
        "summaries": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path / "summaries")},
        },
    }
    return tmp_path / "summaries"


@pytest.fixture(autouse=True)
def _own_storage(summaries_storage):
    """No summary test writes into var/."""
    return summaries_storage
