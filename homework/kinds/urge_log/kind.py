"""The urge log: each pull to make contact, written down as it comes.

Urges tend to peak early and ease with sustained no-contact; seeing the
curve bend down over the days is part of what helps. Contact is logged
without judgement, with who reached out, because both matter in session.
"""

import datetime as dt
import statistics
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from homework.kinds import charts
from homework.kinds.base import EarlierWanted, ExerciseKind, JSONDict
from homework.kinds.fields import (
    KindForm,
    choice,
    flag,
    local_now_for_input,
    long_text,
    scale,
    short_text,
    stored_datetime,
    when,
)
from homework.kinds.summaries import by_assignment
from homework.summary.limits import OLDER_LIST_LIMIT, first_of
from practice.bidi import isolated_text
from practice.dates import as_zone, calendar_day

if TYPE_CHECKING:
    from homework.models import Assignment, Entry, Exercise

TRIGGERS = [
    ("message", gettext_lazy("A message or call from them")),
    ("memory", gettext_lazy("A memory")),
    ("loneliness", gettext_lazy("Feeling lonely")),
    ("date_or_anniversary", gettext_lazy("A date or an anniversary")),
    ("saw_them", gettext_lazy("I saw them")),
    ("other", gettext_lazy("Something else")),
]
INITIATED_BY = [
    ("none", gettext_lazy("There was no contact")),
    ("me", gettext_lazy("I reached out")),
    ("them", gettext_lazy("They reached out")),
]
# The same, in the therapist's summary (where "I" and "they" would be unclear).
INITIATED_FOR_THERAPIST = {
    "me": gettext_lazy("the client reached out"),
    "them": gettext_lazy("the other person reached out"),
}
# How many days at each end of the log are compared to say whether urges ease.
TREND_WINDOW_DAYS = 7
# A change smaller than this (on the 0–10 scale) is "about the same".
TREND_THRESHOLD = 1.0


class UrgeLogForm(KindForm):
    at = when(gettext_lazy("When was this?"))
    intensity = scale(
        gettext_lazy("How strong was the pull?"),
        legend=gettext_lazy("(0 = barely there, 10 = overwhelming)"),
        low=gettext_lazy("barely there"),
        high=gettext_lazy("overwhelming"),
    )
    trigger = choice(
        gettext_lazy("What set it off?"),
        TRIGGERS,
        help_text=gettext_lazy("If you are not sure, “Something else” is fine."),
    )
    trigger_note = short_text(gettext_lazy("Anything you want to add about what set it off?"))
    did_instead = long_text(
        gettext_lazy("What did you do with the urge?"),
        help_text=gettext_lazy("Anything counts: waiting, calling a friend, going for a walk."),
    )
    contact_happened = flag(gettext_lazy("There was contact between us"))
    contact_initiated_by = choice(
        gettext_lazy("Was there contact? If there was, who reached out first?"),
        INITIATED_BY,
        initial="none",
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        by = cleaned.get("contact_initiated_by")
        # The portal asks once ("There was no contact / I / they reached
        # out") and sends no tick: contact is then whatever the answer says;
        # a post that sends both must agree.
        if self.add_prefix("contact_happened") not in self.data:
            cleaned["contact_happened"] = by in {"me", "them"}
        happened = cleaned.get("contact_happened")
        if happened and by == "none":
            self.add_error("contact_initiated_by", _("Who reached out first? Either answer is OK."))
        elif not happened and by in {"me", "them"}:
            self.add_error(
                "contact_initiated_by",
                _("“There was contact” is not ticked. Tick it, or choose “There was no contact”."),
            )
        return cleaned


class UrgeLog(ExerciseKind):
    slug = "urge_log"
    label = gettext_lazy("Urge log (no-contact tracker)")
    schema_version = 1
    is_log = True
    uses_no_contact_since = True  # the summary counts days without contact from it
    brief_in_download = True  # two lines an urge
    form_class = UrgeLogForm

    def initial(self, *, exercise: "Exercise", previous: "Entry | None" = None) -> JSONDict:
        return {"at": local_now_for_input(), "contact_initiated_by": "none"}

    def happened_at(self, entry: "Entry") -> dt.datetime:
        return _at(self.response_of(entry)) or entry.submitted_at or entry.created_at

    def present(self, entry: "Entry") -> JSONDict:
        response = self.response_of(entry)
        return {
            "response": response,
            "at": _at(response),
            "trigger_label": dict(TRIGGERS).get(response.get("trigger", ""), ""),
            "initiated_label": dict(INITIATED_BY).get(response.get("contact_initiated_by", ""), ""),
        }

    def excerpt(self, entry: "Entry") -> str:
        shown = self.present(entry)
        parts = [
            _("pull %(n)s/10") % {"n": shown["response"].get("intensity", "?")},
            str(shown["trigger_label"]),
        ]
        if shown["response"].get("contact_happened"):
            # Staff read excerpts (the admin's list, the summary's flags): the
            # client's "I reached out" would name the reader, and lower-cased
            # it read "i reached out". Said as the summary says it.
            who = INITIATED_FOR_THERAPIST.get(shown["response"].get("contact_initiated_by", ""))
            parts.append(_("contact: %(who)s") % {"who": who} if who else _("contact"))
        return " · ".join(part for part in parts if part)

    # -- the curve, shared by the summary and the progress page
    def curve(
        self,
        *,
        assignment: "Assignment | None",
        entries: Sequence["Entry"],
        today: dt.date | None = None,
        zone: dt.tzinfo | None = None,
    ) -> JSONDict:
        """Days since no-contact began, the strongest pull each day, contact events.

        ``entries`` are all the urges the curve draws (a summary's include
        those logged before its period). ``today`` is the last day
        counted (a summary of past dates stops at its end). ``zone`` is the
        client's clock, whose days the urges fall on (by default the current
        zone, which on the client's own pages is theirs): an urge at 21:00
        their time belongs to that day, whichever clock the reader keeps.
        """
        zone = zone or timezone.get_current_timezone()
        urges: list[tuple[dt.datetime, JSONDict]] = []
        for entry in entries:
            response = self.response_of(entry)
            at = _at(response)
            if at is not None:
                urges.append((at, response))
        urges.sort(key=lambda urge: urge[0])
        today = today or timezone.localdate(timezone=zone)  # the same calendar as the urges
        first_logged = timezone.localdate(urges[0][0], zone) if urges else today
        start = (assignment.no_contact_since if assignment else None) or first_logged
        start = min(start, first_logged)
        by_day: dict[int, list[int]] = defaultdict(list)
        contacts: list[JSONDict] = []
        for at, response in urges:
            day = (timezone.localdate(at, zone) - start).days
            by_day[day].append(int(response.get("intensity", 0)))
            if response.get("contact_happened"):
                contacts.append(_contact(at, response, day=day, zone=zone))
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
        # The latest by its day: an old contact shared late is logged at its
        # own time, and a later one still counts.
        last_contact = max(contacts, key=lambda contact: contact["on"]) if contacts else None
        since = max(start, last_contact["on"]) if last_contact else start
        days_without_contact = max((today - since).days, 0)
        # The day the count starts is its first day, not its "0 days": said
        # so on the day someone begins, or begins again after contact.
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
            "last_contact": last_contact,
            "trend": _trend(by_day),
        }

    def earlier_wanted(self) -> EarlierWanted:
        # The curve runs from the day no contact began, not from the last
        # session: every urge before the period, contacts among them.
        return EarlierWanted(Q(), every=True)

    def chart(self, curve: JSONDict, *, for_client: bool, labelled: bool = True) -> str:
        trend = curve["trend"]
        description = _trend_sentence(trend, for_client=for_client) or _(
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
            title=_("The strongest pull each day, since %(date)s")
            % {"date": calendar_day(curve["start"], "j F")},
            description=description,
            labelled=labelled,
        )

    def summary_context(
        self,
        entries: Sequence["Entry"],
        *,
        full_detail: bool = False,
        earlier: Sequence["Entry"] = (),
        as_of: dt.date | None = None,
    ) -> JSONDict:
        sections = []
        printed: list[Entry] = []
        for assignment, own, curve in self._summary_curves(entries, earlier, as_of):
            if full_detail:
                printed.extend(own)
            # The newest contacts by day, newest first as the records are, the
            # earlier ones counted: contact most days ran to a paragraph (the
            # chart marks them all).
            newest, earlier_contacts = first_of(
                curve["contacts"][::-1], full_detail=full_detail, limit=OLDER_LIST_LIMIT
            )
            sections.append(
                {
                    "assignment": assignment,
                    "curve": curve,
                    # The summary says the scale and the contacts in words.
                    "chart": self.chart(curve, for_client=False, labelled=False),
                    "trend_sentence": _trend_sentence(curve["trend"], for_client=False),
                    "key": _contact_key(curve["contacts"]),
                    "contacts_listed": newest,
                    "contacts_more": earlier_contacts,
                    # Newest first by when the urge came, as the written
                    # records are: the latest is what a session starts from.
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
            # Brief, urges print as a curve and counts; in full, each one's words.
            "printed": printed,
        }

    def at_a_glance(
        self,
        entries: Sequence["Entry"],
        *,
        earlier: Sequence["Entry"] = (),
        as_of: dt.date | None = None,
    ) -> list[str]:
        lines = []
        for assignment, _own, curve in self._summary_curves(entries, earlier, as_of):
            # Named, as the other kinds' lines are: two trackers at once
            # printed their counts side by side with nothing to tell them apart.
            title = isolated_text(assignment.exercise.title)
            contact = curve["last_contact"]
            days = curve["days_without_contact"]
            if curve["just_begun"]:
                lines.append(
                    _("%(title)s: just begun, no contact since %(date)s (day 1).")
                    % {"title": title, "date": calendar_day(curve["since"], "j M")}
                )
            elif curve["contact_on_last_day"]:
                lines.append(
                    _(
                        "%(title)s: last contact %(date)s (%(who)s), the last day this summary covers."
                    )
                    % {
                        "title": title,
                        "date": calendar_day(contact["on"], "j M"),
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
                        "date": calendar_day(contact["on"], "j M"),
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
                    % {"title": title, "days": days, "date": calendar_day(curve["since"], "j M")}
                )
            sentence = _trend_sentence(curve["trend"], for_client=False)
            if sentence:
                lines.append(sentence)
        return lines

    def _summary_curves(
        self, entries: Sequence["Entry"], earlier: Sequence["Entry"], as_of: dt.date | None
    ) -> list[tuple["Assignment", list["Entry"], JSONDict]]:
        """Each assignment's urges in the period, and its curve since no
        contact began: the urges logged before the period drawn too, and days
        without contact counted from the last contact, whenever it was."""
        before: dict[int, list[Entry]] = defaultdict(list)
        for entry in earlier:
            before[entry.assignment_id].append(entry)
        return [
            (
                assignment,
                own,
                self.curve(
                    assignment=assignment,
                    entries=[*before[assignment.pk], *own],
                    today=as_of,
                    # The summary's entries hold their client (summary.selectors).
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
            "trend_sentence": _trend_sentence(curve["trend"], for_client=True),
        }


def _contact_key(contacts: Sequence[JSONDict]) -> list[str]:
    """The marks the chart has, as charts.urge_curve draws them: a hollow
    triangle when the other person reached out, a dot when the client did."""
    key = []
    if any(not contact["by_me"] for contact in contacts):
        key.append(_("△ the other person reached out"))
    if any(contact["by_me"] for contact in contacts):
        key.append(_("● the client reached out"))
    return key


def _contact(at: dt.datetime, response: JSONDict, *, day: int, zone: dt.tzinfo) -> JSONDict:
    initiated_by = response.get("contact_initiated_by", "")
    return {
        "day": day,
        "on": timezone.localdate(at, zone),
        "by_me": initiated_by == "me",
        "by_label": dict(INITIATED_BY).get(initiated_by, ""),
        "by_for_therapist": INITIATED_FOR_THERAPIST.get(initiated_by, ""),
    }


def _at(response: JSONDict) -> dt.datetime | None:
    return stored_datetime(response.get("at"))


def _trend(by_day: dict[int, list[int]]) -> JSONDict | None:
    """Mean pull in the first week logged against the last week logged."""
    if not by_day:
        return None
    first, last = min(by_day), max(by_day)
    if last - first < 2 * TREND_WINDOW_DAYS - 1:
        return None
    early = [v for day, values in by_day.items() if day < first + TREND_WINDOW_DAYS for v in values]
    late = [v for day, values in by_day.items() if day > last - TREND_WINDOW_DAYS for v in values]
    early_mean, late_mean = statistics.fmean(early), statistics.fmean(late)
    if late_mean <= early_mean - TREND_THRESHOLD:
        direction = "easing"
    elif late_mean >= early_mean + TREND_THRESHOLD:
        direction = "stronger"
    else:
        direction = "steady"
    return {"direction": direction, "first": round(early_mean, 1), "last": round(late_mean, 1)}


def _trend_sentence(trend: JSONDict | None, *, for_client: bool) -> str:
    if trend is None:
        return ""
    numbers = {"first": trend["first"], "last": trend["last"]}
    if for_client:
        sentences = {
            "easing": _(
                "The pull has been easing: on average %(first)s in your first week, %(last)s in the last week."
            ),
            "stronger": _(
                "The pull has been stronger lately (on average %(first)s in your first week, %(last)s in the last). That happens, and it is worth bringing to your next session."
            ),
            "steady": _(
                "The pull has stayed about the same: on average %(first)s in your first week, %(last)s in the last."
            ),
        }
    else:
        sentences = {
            "easing": _(
                "Urges easing: mean %(first)s in the first week logged, %(last)s in the last."
            ),
            "stronger": _(
                "Urges stronger lately: mean %(first)s in the first week logged, %(last)s in the last."
            ),
            "steady": _(
                "Urges about the same: mean %(first)s in the first week logged, %(last)s in the last."
            ),
        }
    return sentences[trend["direction"]] % numbers


KIND = UrgeLog()
