"""The urge log kind: its entries, the curve drawn from them, and its part of the summary and the
progress page."""

import datetime as dt
import statistics
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeAlias

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from homework.kinds import charts
from homework.kinds.base import ExerciseKind
from homework.kinds.charts.timeline_points import Lane, TimelinePoint
from homework.kinds.limits import OLDER_LIST_LIMIT, first_of
from homework.kinds.shelves import Shelf
from homework.kinds.summaries import by_assignment
from homework.kinds.urge_log.curve import (
    contact_answer,
    contact_key,
    contact_said,
    plain_pull,
    trend_sentence,
    urge_at,
    urge_contact,
    urge_pull,
    urge_trend,
)
from homework.kinds.urge_log.form import (
    INITIATED_BY,
    INITIATED_FOR_THERAPIST,
    TRIGGERS,
    UrgeLogForm,
)
from homework.kinds.values import BRIEF, EarlierWanted, JSONDict, SummaryScope
from practice.bidi import isolated_text
from practice.dates import as_zone, calendar_day

if TYPE_CHECKING:
    from homework.models import Assignment, Entry, Exercise


SummaryCurve: TypeAlias = tuple["Assignment", list["Entry"], JSONDict]


class UrgeLog(ExerciseKind):
    slug = "urge_log"
    label = gettext_lazy("Urge log (no-contact tracker)")
    short_label = gettext_lazy("Urge log")
    shelf = Shelf.LOGS
    about = gettext_lazy("Each urge to make contact, logged as it comes, with days of no contact.")
    schema_version = 1
    is_log = True
    assignment_fields = ("no_contact_since",)
    brief_in_download = True
    form_class = UrgeLogForm
    has_trend = True

    def happened_at(self, entry: "Entry") -> dt.datetime:
        return urge_at(self.response_of(entry)) or entry.submitted_at or entry.created_at

    def present(self, entry: "Entry") -> JSONDict:
        response = self.response_of(entry)
        return {
            "response": response,
            "at": urge_at(response),
            "pull": urge_pull(response),
            "trigger_label": dict(TRIGGERS).get(response.get("trigger", ""), ""),
            "initiated_label": dict(INITIATED_BY).get(response.get("contact_initiated_by", ""), ""),
            "contact_answer": contact_answer(response),
        }

    def excerpt(self, entry: "Entry") -> str:
        shown = self.present(entry)
        parts = [
            _("pull %(n)s/10") % {"n": shown["pull"]} if shown["pull"] is not None else "",
            str(shown["trigger_label"]),
        ]
        if shown["response"].get("contact_happened"):
            # Staff read excerpts: the client's "I reached out" would name the reader.
            who = INITIATED_FOR_THERAPIST.get(shown["response"].get("contact_initiated_by", ""))
            parts.append(_("contact: %(who)s") % {"who": who} if who else _("contact"))
        return " · ".join(part for part in parts if part)

    def happened_at_given(self, response: JSONDict) -> dt.datetime | None:
        return urge_at(response)

    def contact_happened(self, response: JSONDict) -> bool | None:
        return contact_said(response)

    def opened_for_charts(self) -> Q:
        # Who reached out is only in the encrypted response; the rest is drawn from plain columns.
        return Q(contact_happened=True)

    def timeline_points(self, entry: "Entry", *, zone: dt.tzinfo) -> list[TimelinePoint]:
        at = entry.happened_at or entry.submitted_at or entry.created_at
        on = timezone.localdate(at, zone)
        points = [TimelinePoint(on=on, lane=Lane.URGE, value=plain_pull(entry))]
        if entry.contact_happened:
            # "" when the client did not say.
            by = self.response_of(entry).get("contact_initiated_by", "")
            mark = by if by in ("me", "them") else ""
            points.append(TimelinePoint(on=on, lane=Lane.CONTACT, mark=mark))
        return points

    def curve(
        self,
        *,
        assignment: "Assignment | None",
        entries: Sequence["Entry"],
        today: dt.date | None = None,
        zone: dt.tzinfo | None = None,
    ) -> JSONDict:
        """``today`` is the last day counted; ``zone`` is the client's time zone, whose days the
        urges fall on."""
        zone = zone or timezone.get_current_timezone()
        # Only an urge with contact is decrypted, for who reached out.
        urges: list[tuple[dt.datetime, Entry]] = []
        for entry in entries:
            if entry.happened_at is not None:
                urges.append((entry.happened_at, entry))
        urges.sort(key=lambda urge: urge[0])
        today = today or timezone.localdate(timezone=zone)
        first_logged = timezone.localdate(urges[0][0], zone) if urges else today
        given = assignment.no_contact_since if assignment else None
        start = min(given or first_logged, first_logged)
        by_day: dict[int, list[int]] = defaultdict(list)
        contacts: list[JSONDict] = []
        for at, urge in urges:
            day = (timezone.localdate(at, zone) - start).days
            pull = plain_pull(urge)
            if pull is not None:  # a pull not given is not drawn as a 0
                by_day[day].append(pull)
            if urge.contact_happened:
                contacts.append(urge_contact(at, self.response_of(urge), day=day, zone=zone))
        last_day = max([(today - start).days, *by_day]) if by_day else (today - start).days
        days = [
            {
                "day": day,
                "on": start + dt.timedelta(days=day),
                "highest": max(values),
                "count": len(values),
                "mean": round(statistics.fmean(values), 1),
            }
            for day, values in sorted(by_day.items())
        ]
        # The latest by its day: an old contact shared late still counts at its own time.
        last_contact = max(contacts, key=lambda contact: contact["on"]) if contacts else None
        counted_from = given or first_logged
        since = max(counted_from, last_contact["on"]) if last_contact else counted_from
        # "No contact since" is said only from a date the client gave.
        since_given = given is not None or last_contact is not None
        days_without_contact = max((today - since).days, 0)
        # The day the count starts is its first day, not its "0 days".
        contact_that_day = last_contact is not None and last_contact["on"] >= since
        return {
            "start": start,
            "days": days,
            "contacts": contacts,
            "span_days": last_day + 1,
            "days_without_contact": days_without_contact,
            "just_begun": days_without_contact == 0 and not contact_that_day,
            "contact_on_last_day": days_without_contact == 0 and contact_that_day,
            "since": since,
            "since_given": since_given,
            "last_contact": last_contact,
            "trend": urge_trend(by_day),
        }

    def score(self, response: JSONDict, *, exercise: "Exercise") -> float | None:
        # A blank stays None, never a 0.
        pull = urge_pull(response)
        return None if pull is None else float(pull)

    def trend(self, scores: Sequence[tuple[dt.date, float | None]]) -> str | None:
        if not scores:
            return None
        first = min(day for day, _score in scores)
        by_day: dict[int, list[int]] = defaultdict(list)
        for day, pull in scores:
            if pull is not None:  # a pull not given is not drawn as a 0
                by_day[(day - first).days].append(int(pull))
        trend = urge_trend(by_day)
        return None if trend is None else str(trend["direction"])

    def earlier_wanted(self) -> EarlierWanted:
        return EarlierWanted(Q(), every=True)

    def chart(self, curve: JSONDict, *, for_client: bool) -> str:
        trend = curve["trend"]
        description = trend_sentence(trend, for_client=for_client) or _(
            "Not enough days logged yet to see a trend."
        )
        if curve["contacts"]:
            description += " " + ngettext(
                "Contact on %(n)s day.", "Contact on %(n)s days.", len(curve["contacts"])
            ) % {"n": len(curve["contacts"])}
        return charts.urge_curve(
            points=[charts.DayValue(day["day"], day["highest"]) for day in curve["days"]],
            contacts=[charts.ContactMark(c["day"], c["by_me"]) for c in curve["contacts"]],
            days=curve["span_days"],
            start=curve["start"],
            title=_("The strongest pull each day, since %(date)s")
            % {"date": calendar_day(curve["start"], "MONTH_DAY_FORMAT")},
            description=description,
            # The therapist's key is in words beside it: the legend speaks as the client.
            legend=for_client,
        )

    def summary_context(self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF) -> JSONDict:
        return self._section(self._summary_curves(entries, scope), scope)

    def at_a_glance(self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF) -> list[str]:
        return self._glance(self._summary_curves(entries, scope))

    def summary_and_glance(
        self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF
    ) -> tuple[JSONDict, list[str]]:
        curves = self._summary_curves(entries, scope)
        return self._section(curves, scope), self._glance(curves)

    def _section(self, curves: "list[SummaryCurve]", scope: SummaryScope) -> JSONDict:
        sections = []
        printed: list[Entry] = []
        full_detail = scope.full_detail
        for assignment, own, curve in curves:
            if full_detail:
                printed.extend(own)
            newest, earlier_contacts = first_of(
                curve["contacts"][::-1], full_detail=full_detail, limit=OLDER_LIST_LIMIT
            )
            sections.append(
                {
                    "assignment": assignment,
                    "curve": curve,
                    "chart": self.chart(curve, for_client=False),
                    "trend_sentence": trend_sentence(curve["trend"], for_client=False),
                    "key": contact_key(curve["contacts"]),
                    "contacts_listed": newest,
                    "contacts_more": earlier_contacts,
                    # Newest first: the latest is what a session starts from.
                    "entries": [
                        (entry, self.present(entry))
                        for entry in sorted(own, key=self.happened_at, reverse=True)
                    ]
                    if full_detail
                    else [],
                    "count": len(own),
                }
            )
        return {
            "sections": sections,
            "full_detail": full_detail,
            "printed": printed,
        }

    def _glance(self, curves: "list[SummaryCurve]") -> list[str]:
        lines = []
        for assignment, _own, curve in curves:
            # Named, so two trackers' counts can be told apart.
            title = isolated_text(assignment.exercise.title)
            contact = curve["last_contact"]
            days = curve["days_without_contact"]
            if not curve["since_given"]:
                lines.append(
                    _("%(title)s: no contact logged since %(date)s, when logging began.")
                    % {
                        "title": title,
                        "date": calendar_day(curve["since"], "ABBR_MONTH_DAY_FORMAT"),
                    }
                )
            elif curve["just_begun"]:
                lines.append(
                    _("%(title)s: just begun, no contact since %(date)s (day 1).")
                    % {
                        "title": title,
                        "date": calendar_day(curve["since"], "ABBR_MONTH_DAY_FORMAT"),
                    }
                )
            elif curve["contact_on_last_day"]:
                lines.append(
                    _(
                        "%(title)s: last contact %(date)s (%(who)s), the last day this summary covers."
                    )
                    % {
                        "title": title,
                        "date": calendar_day(contact["on"], "ABBR_MONTH_DAY_FORMAT"),
                        "who": contact["by_for_therapist"],
                    }
                )
            elif contact:
                lines.append(
                    ngettext(
                        "%(title)s: no contact for %(days)s day; last contact %(date)s (%(who)s).",
                        "%(title)s: no contact for %(days)s days; last contact %(date)s (%(who)s).",
                        days,
                    )
                    % {
                        "title": title,
                        "days": days,
                        "date": calendar_day(contact["on"], "ABBR_MONTH_DAY_FORMAT"),
                        "who": contact["by_for_therapist"],
                    }
                )
            else:
                lines.append(
                    ngettext(
                        "%(title)s: no contact for %(days)s day (since %(date)s).",
                        "%(title)s: no contact for %(days)s days (since %(date)s).",
                        days,
                    )
                    % {
                        "title": title,
                        "days": days,
                        "date": calendar_day(curve["since"], "ABBR_MONTH_DAY_FORMAT"),
                    }
                )
            sentence = trend_sentence(curve["trend"], for_client=False)
            if sentence:
                lines.append(sentence)
        return lines

    def _summary_curves(
        self, entries: Sequence["Entry"], scope: SummaryScope
    ) -> "list[SummaryCurve]":
        before: dict[int, list[Entry]] = defaultdict(list)
        for entry in scope.earlier:
            before[entry.assignment_id].append(entry)
        return [
            (
                assignment,
                own,
                self.curve(
                    assignment=assignment,
                    entries=[*before[assignment.pk], *own],
                    today=scope.as_of,
                    zone=as_zone(assignment.client.timezone),
                ),
            )
            for assignment, own in by_assignment(entries)
        ]

    def progress_context(
        self, *, assignment: "Assignment", entries: Sequence["Entry"]
    ) -> JSONDict | None:
        if not entries and assignment.no_contact_since is None:
            return None
        curve = self.curve(assignment=assignment, entries=entries)
        return {
            "curve": curve,
            "chart": self.chart(curve, for_client=True) if entries else "",
            "trend_sentence": trend_sentence(curve["trend"], for_client=True),
        }


KIND = UrgeLog()
