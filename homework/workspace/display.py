"""How the admin shows entries and schedules: one place, used by every admin page."""

import datetime as dt
from typing import TYPE_CHECKING

from django.template.loader import render_to_string
from django.utils.dates import WEEKDAYS
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clients.contact.selectors import contact_profile_of
from clients.contact.wording import reminder_waits_for_staff
from homework.kinds import get_kind
from homework.models import Assignment, Entry
from practice.bidi import isolated_text
from practice.dates import ClientTimeZone, calendar_day

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise


def entry_html(entry: Entry, *, heading_level: int) -> SafeString:
    """The entry as its kind displays it, or only that it is private."""
    if not entry.readable_by_staff:
        return format_html("<p>{}</p>", _("The client has kept this entry private."))
    kind = get_kind(entry.assignment.exercise.kind)
    # Both are autoescaped templates' output, and safe strings added stay safe.
    return (
        render_to_string(
            kind.display_template,
            # for_therapist: only the therapist's; client_time_zone: read on the client's clock.
            {
                "entry": entry,
                "heading_level": heading_level,
                "for_therapist": True,
                "client_time_zone": ClientTimeZone(zone=entry.assignment.client.timezone),
                **kind.present(entry),
            },
        )
        # What the client added after the entry was read (escaped by the template).
        + render_to_string("homework/partials/client_notes.html", {"entry": entry})
    )


# A schedule on chosen weekdays in words: with no day chosen yet, with an end date, without.
ON_WEEKDAYS: dict[str, tuple["StrPromise", "StrPromise", "StrPromise"]] = {
    Assignment.Schedule.WEEKLY: (
        gettext_lazy("Weekly (no day chosen yet)"),
        gettext_lazy("Every %(days)s until %(date)s"),
        gettext_lazy("Every %(days)s, until you end it"),
    ),
    Assignment.Schedule.FORTNIGHTLY: (
        gettext_lazy("Every two weeks (no day chosen yet)"),
        gettext_lazy("Every other %(days)s until %(date)s"),
        gettext_lazy("Every other %(days)s, until you end it"),
    ),
}


def weekday_names(assignment: Assignment) -> str:
    """Its days in the week's order, each once: "Monday and Thursday"."""
    days = sorted({d for d in assignment.weekdays or [] if d in WEEKDAYS})
    return get_text_list([str(WEEKDAYS[d]) for d in days], _("and"))


def schedule_text(assignment: Assignment) -> str:
    """The schedule in words: "Once, by Friday 6 March", "Every Monday and Thursday until …"."""

    def day(value: dt.date) -> str:
        return calendar_day(value, "WEEKDAY_DATE_FORMAT")

    if assignment.schedule == Assignment.Schedule.DAILY:
        if assignment.ends_on:
            return _("Every day until %(date)s") % {"date": day(assignment.ends_on)}
        # No end date: it runs until the therapist ends it.
        return _("Every day, until you end it")
    if assignment.schedule == Assignment.Schedule.BEFORE_SESSION:
        count = assignment.days_before or 0
        values: dict[str, object] = {"days": count}
        if assignment.ends_on:
            values["date"] = day(assignment.ends_on)
            return (
                ngettext(
                    "%(days)s day before each session, until %(date)s",
                    "%(days)s days before each session, until %(date)s",
                    count,
                )
                % values
            )
        return (
            ngettext(
                "%(days)s day before each session, until you end it",
                "%(days)s days before each session, until you end it",
                count,
            )
            % values
        )
    if assignment.schedule in ON_WEEKDAYS:
        none_chosen, until, open_ended = ON_WEEKDAYS[assignment.schedule]
        names = weekday_names(assignment)
        if not names:
            return str(none_chosen)
        if assignment.ends_on:
            return until % {"days": names, "date": day(assignment.ends_on)}
        return open_ended % {"days": names}
    if assignment.due_on:
        return _("Once, by %(date)s") % {"date": day(assignment.due_on)}
    return _("Once, whenever suits")


def reminder_waits_warning(assignment: Assignment) -> str | None:
    """The client's reminder time, when it falls outside their safe hours and so waits."""
    if not assignment.is_recurring:
        return None
    waits = reminder_waits_for_staff(contact_profile_of(assignment.client))
    if waits is None:
        return None
    return _("%(client)s: %(waits)s") % {
        "client": isolated_text(assignment.client.display_name),
        "waits": waits,
    }
