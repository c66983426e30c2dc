"""A client's records to take away; the practice's copy holds only what the practice could read."""

import datetime as dt
from collections.abc import Collection, Iterable
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone

from clients.contact.selectors import client_contact_for_portal, contact_export, contact_profile_of
from clients.models import Client
from homework import selectors
from homework.kinds import get_kind
from homework.models import Entry
from practice.models import User
from practice.pdf import render_pdf
from practice.selectors import practice_settings

EXPORT_FORMAT = "notebook-export/1"


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _entry_json(
    entry: Entry, questions: dict[int, list[dict[str, Any]]], *, for_practice: bool
) -> dict[str, Any]:
    exercise = entry.assignment.exercise
    kind = get_kind(exercise.kind)
    if exercise.pk not in questions:
        questions[exercise.pk] = kind.questions_asked(exercise)
    return {
        "id": str(entry.key),
        "exercise": entry.assignment.exercise.title,
        "kind": kind.slug,
        "status": entry.status,
        "for_the_day": _iso(entry.occurrence_on),
        "happened_at": _iso(kind.happened_at(entry)),
        "started_at": _iso(entry.created_at),
        "last_saved_at": _iso(entry.updated_at),
        "sent_at": _iso(entry.submitted_at),
        "private": entry.private,
        "want_to_talk_about_it_in_session": entry.discuss_in_session,
        "felt_unsafe": entry.felt_unsafe,
        "read_by_therapist_at": _iso(entry.seen_at),
        "response": kind.upgrade(entry.response, entry.schema_version),
        "questions": kind.questions_answered(entry, questions[exercise.pk]),
        "my_notes": [
            {"text": note.text, "added_at": _iso(note.created_at)} for note in entry.notes.all()
        ],
        # The client's to take, an unsent note too, but never the practice's: it never saw it.
        "my_note_not_sent_yet": None if for_practice else (entry.note_draft or None),
        "comments_from_my_therapist": [
            {"text": comment.text, "added_at": _iso(comment.created_at)}
            for comment in entry.comments.all()
        ],
    }


def _json_of(entries: Iterable[Entry], *, for_practice: bool) -> dict[str, Any]:
    questions: dict[int, list[dict[str, Any]]] = {}
    return {
        "format": EXPORT_FORMAT,
        "exported_at": timezone.now().isoformat(),
        "entries": [_entry_json(entry, questions, for_practice=for_practice) for entry in entries],
    }


def export_json(*, user: User) -> dict[str, Any]:
    exported = _json_of(selectors.entries_for_export(user=user), for_practice=False)
    client = client_contact_for_portal(user=user, include_archived=True)
    if client is not None:
        exported["contact_profile"] = contact_export(contact_profile_of(client))
    return exported


def practice_export_json(*, user: User, client: Client) -> dict[str, Any]:
    entries = selectors.entries_for_practice_export(user=user, client_id=client.pk)
    return {**_json_of(entries, for_practice=True), "for_the_practice": True}


def export_pdf(*, user: User, assignment_ids: Collection[int] | None = None) -> bytes:
    return render_pdf(export_document(user=user, assignment_ids=assignment_ids))


def practice_export_pdf(*, user: User, client: Client) -> bytes:
    entries = selectors.entries_for_practice_export(user=user, client_id=client.pk)
    return render_pdf(_document(entries, chosen=False, practice_copy_of=client))


def export_document(*, user: User, assignment_ids: Collection[int] | None = None) -> str:
    entries = selectors.entries_for_export(user=user, assignment_ids=assignment_ids)
    return _document(entries, chosen=assignment_ids is not None)


def _document(
    entries: Iterable[Entry], *, chosen: bool, practice_copy_of: Client | None = None
) -> str:
    shown: list[tuple[dt.datetime, dict[str, Any]]] = []
    titles: dict[int, str] = {}
    for entry in entries:
        if not entry.is_submitted:
            continue
        kind = get_kind(entry.assignment.exercise.kind)
        titles.setdefault(entry.assignment_id, entry.assignment.exercise.title)
        happened_at = kind.happened_at(entry)
        shown.append(
            (
                happened_at,
                {
                    "entry": entry,
                    "kind": kind,
                    "happened_at": happened_at,
                    "display": render_to_string(
                        kind.export_template,
                        {
                            "entry": entry,
                            "heading_level": 3,
                            "printing": True,
                            **kind.present(entry),
                        },
                    ),
                },
            )
        )
    shown.sort(key=lambda pair: pair[0])
    return render_to_string(
        "homework/export.html",
        {
            "items": [item for _, item in shown],
            "chosen_titles": list(dict.fromkeys(titles.values())) if chosen else None,
            "exported_at": timezone.localtime(),
            "paper_size": practice_settings().paper_size,
            "practice_copy_of": practice_copy_of,
        },
    )
