"""Template helpers for how an entry is dated, for staff and for its client."""

from django import template

from homework.display import changed_note
from homework.models import Entry

register = template.Library()


@register.filter
def changed_mark(entry: Entry | None, separator: str = " · ") -> str:
    """``separator`` and "changed 5 Nov" after an entry's date when the client
    changed it after sending it (homework.display.changed_note); "" otherwise."""
    note = changed_note(entry)
    return f"{separator}{note}" if note else ""
