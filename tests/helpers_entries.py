"""Entries over HTTP: a sent entry changed or noted, the quick exit's last
words, the newest entry sent; the forms, their addresses, and the words
that go in them."""

import uuid
from collections.abc import Iterable
from typing import Any

from django.test import Client as HttpClient
from django.urls import reverse
from django.utils import timezone

from homework.models import Assignment, Entry
from homework.services import Flags, entry_submit
from tests.factories import written_record

TYPED = "Now I remember more: the door was locked."


def edit_form(entry: Entry, version: int | None = None, **overrides: str) -> dict[str, str]:
    return {
        "key": str(entry.key),
        "version": str(entry.version if version is None else version),
        **{f"r-{k}": str(v) for k, v in written_record(**overrides).items()},
    }


def edit_url(entry: Entry) -> str:
    return reverse("homework:entry_edit", args=[entry.key])


def first_saying(entries: Iterable[Entry], **answers: object) -> Entry | None:
    """The first of ``entries`` whose response holds these answers. Compared
    here, not in SQL: the column is encrypted (practice.encryption)."""
    return next(
        (e for e in entries if all(e.response.get(k) == v for k, v in answers.items())), None
    )


def read_by_therapist(entry: Entry) -> None:
    Entry.objects.filter(pk=entry.pk).update(seen_at=timezone.now())
    entry.refresh_from_db()


OVER_LONG = "I could not stop writing." + " And more." * 216  # 2,185 characters; a note takes 2,000


def note_url(entry: Entry) -> str:
    return reverse("homework:entry_add_note", args=[entry.key])


def quick_exit_with_draft(http: HttpClient, assignment: Assignment, key: str, words: str) -> Any:
    """The quick exit as quick-exit.js sends it from a new entry's page
    (version 0), carrying the words typed in its first box."""
    return http.post(
        reverse("homework:quick_exit"),
        {
            "beacon": "1",
            "draft-assignment": str(assignment.pk),
            "draft-key": key,
            "draft-version": "0",
            "draft-r-what_happened": words,
        },
    )


def newest_sent_response(assignment: Assignment) -> dict[str, object]:
    """The response of the newest entry sent: the one the next page opens on
    for work that continues the last one (a plan, a map, a ladder)."""
    newest = (
        Entry.objects.filter(assignment=assignment, status=Entry.Status.SUBMITTED)
        .order_by("-submitted_at")
        .first()
    )
    assert newest is not None
    return dict(newest.response)


def submit_written_record(assignment: Assignment, *, private: bool = False) -> Entry:
    """A new written record sent through the service by the assignment's
    client, as the portal sends one: a fresh key, from nothing."""
    user = assignment.client.portal_user
    assert user is not None, "the client has no portal account to send from"
    return entry_submit(
        user=user,
        assignment_id=assignment.pk,
        key=uuid.uuid4(),
        base_version=0,
        data=written_record(),
        flags=Flags(private=private),
    )
