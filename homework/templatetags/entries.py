"""Template helpers for how an entry is dated, for staff and for its client."""

from django import template
from django.utils.translation import gettext as _

from homework.kinds import get_kind
from homework.models import Entry
from practice.dates import calendar_day

register = template.Library()


def changed_note(entry: Entry | None) -> str:
    """ "changed 5 Nov" when the client changed the entry after sending it
    (never said of a private entry), "" otherwise: said after when it was
    sent, wherever the entry is read (the admin, the summary PDF, and the
    client's own page and download: the edit page tells them it shows)."""
    changed = entry.changed_since_sent if entry is not None else None
    if changed is None:
        return ""
    return _("changed %(date)s") % {"date": calendar_day(changed, "j M")}


@register.filter
def changed_mark(entry: Entry | None, separator: str = " · ") -> str:
    """``separator`` and "changed 5 Nov" after an entry's date when the client
    changed it after sending it (``changed_note``); "" otherwise."""
    note = changed_note(entry)
    return f"{separator}{note}" if note else ""


@register.filter
def review_words(entry: Entry) -> list[str]:
    """The answers that flagged ``entry`` for review, each after its question
    (ExerciseKind.review_words); [] for an entry not flagged so."""
    return get_kind(entry.assignment.exercise.kind).review_words(entry)
