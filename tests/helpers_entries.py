"""A sent entry changed or noted over HTTP: the forms, their addresses, and
the words that go in them."""

from django.urls import reverse
from django.utils import timezone

from homework.models import Entry
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


def read_by_therapist(entry: Entry) -> None:
    Entry.objects.filter(pk=entry.pk).update(seen_at=timezone.now())
    entry.refresh_from_db()


OVER_LONG = "I could not stop writing." + " And more." * 216  # 2,185 characters; a note takes 2,000


def note_url(entry: Entry) -> str:
    return reverse("homework:entry_add_note", args=[entry.key])
