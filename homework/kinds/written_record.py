"""The written record: a difficult moment, written down soon after it happened,
so the full picture is there when memory starts to soften it."""

import datetime as dt
import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from homework.kinds.base import BRIEF, ExerciseKind, JSONDict, SummaryScope
from homework.kinds.charts.timeline_points import Lane, TimelinePoint
from homework.kinds.excerpts import shorten
from homework.kinds.fields import (
    KindForm,
    long_text,
    scale,
    stored_datetime,
    when,
)
from homework.kinds.limits import OLDER_LIST_LIMIT, SECTION_LIST_LIMIT, first_of
from homework.kinds.shelves import Shelf

if TYPE_CHECKING:
    from homework.models import Entry


class WrittenRecordForm(KindForm):
    # Optional and never filled in for the client: a time they did not give
    # would reach the therapist as theirs (CLINICAL.md, Honesty).
    occurred_at = when(_("When did it happen?"), required=False)
    what_happened = long_text(_("What happened?"), required=True)
    what_was_said_or_done = long_text(_("What was said or done?"))
    body_distress = scale(
        _("How did it feel in your body?"),
        legend=_("(0 = calm, 10 = the most distress)"),
        low=_("calm"),
        high=_("most distress"),
    )
    what_i_told_myself = long_text(_("What did you tell yourself afterwards?"))
    remember_when_i_miss_them = long_text(
        _("What do you want to remember when you miss them?"),
        help_text=_("Optional. A line for the days when the good memories come flooding back."),
    )


class WrittenRecord(ExerciseKind):
    slug = "written_record"
    label = _("Written record")
    shelf = Shelf.LOGS
    about = _("A difficult moment, written down soon after it happens.")
    schema_version = 1
    is_log = True
    form_class = WrittenRecordForm

    def present(self, entry: "Entry") -> JSONDict:
        context = super().present(entry)
        context["occurred_at"] = stored_datetime(context["response"].get("occurred_at"))
        distress = context["response"].get("body_distress")
        # A blank is shown as not answered, never as a number (CLINICAL.md, Honesty).
        context["distress"] = (
            distress if isinstance(distress, int) and not isinstance(distress, bool) else None
        )
        return context

    def happened_at(self, entry: "Entry") -> dt.datetime:
        occurred = stored_datetime(
            self.upgrade(entry.response, entry.schema_version).get("occurred_at")
        )
        return occurred or super().happened_at(entry)

    def timeline_points(self, entry: "Entry", *, zone: dt.tzinfo) -> list[TimelinePoint]:
        distress = self.present(entry)["distress"]
        on = timezone.localdate(self.happened_at(entry), zone)
        return [TimelinePoint(on=on, lane=Lane.RECORD, value=distress)]

    def excerpt(self, entry: "Entry") -> str:
        text = self.upgrade(entry.response, entry.schema_version).get("what_happened", "")
        return shorten(text)

    def summary_context(self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF) -> JSONDict:
        presented = [(entry, self.present(entry)) for entry in entries]
        presented.sort(key=lambda pair: pair[1]["occurred_at"] or pair[0].created_at, reverse=True)
        in_words = SECTION_LIST_LIMIT if scope.records_in_words is None else scope.records_in_words
        shown, _rest = first_of(presented, full_detail=scope.full_detail, limit=in_words)
        older, more = first_of(
            presented[len(shown) :], full_detail=scope.full_detail, limit=OLDER_LIST_LIMIT
        )
        titles = dict.fromkeys(entry.assignment.exercise.title for entry in entries)
        return {
            "entries": shown,
            "printed": [entry for entry, _shown in shown],
            "older": older,
            "more": more,
            "count": len(entries),
            "titles": list(titles),
            "full_detail": scope.full_detail,
        }

    def at_a_glance(self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF) -> list[str]:
        line = ngettext("%(count)s record", "%(count)s records", len(entries)) % {
            "count": len(entries)
        }
        values = [
            value
            for entry in entries
            if isinstance(
                value := self.upgrade(entry.response, entry.schema_version).get("body_distress"),
                int,
            )
            and not isinstance(value, bool)
        ]
        if len(values) == 1:
            line += " · " + _("distress %(value)s out of 10") % {"value": values[0]}
        elif values and min(values) == max(values):
            line += " · " + _("distress %(value)s out of 10 each time") % {"value": values[0]}
        elif values:
            line += " · " + _("distress %(low)s to %(high)s out of 10, on average %(mean)s") % {
                "low": min(values),
                "high": max(values),
                # Rounded first: number_format alone cuts digits off.
                "mean": formats.number_format(round(statistics.fmean(values), 1), 1),
            }
        return [line]


KIND = WrittenRecord()
