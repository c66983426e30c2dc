"""How an entry is dated, for staff and for its client."""

from django import template
from django.utils.translation import gettext as _

from homework.kinds import get_kind
from homework.models import Entry
from practice.dates import calendar_day

register = template.Library()


def changed_note(entry: Entry | None) -> str:
    """Never said of a private entry, whose changes are the client's alone."""
    changed = entry.changed_since_sent if entry is not None else None
    if changed is None:
        return ""
    return _("changed %(date)s") % {"date": calendar_day(changed, "ABBR_MONTH_DAY_FORMAT")}


@register.filter
def changed_mark(entry: Entry | None, separator: str = " · ") -> str:
    note = changed_note(entry)
    return f"{separator}{note}" if note else ""


@register.filter
def review_words(entry: Entry) -> list[str]:
    return get_kind(entry.assignment.exercise.kind).review_words(entry)
