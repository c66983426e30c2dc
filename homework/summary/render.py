"""Turning what the selectors read into the summary's HTML and PDF.

Pure: no database access, no network, no writes. Every kind draws its own
section with its own template (``kind.summary_template``), given
``kind.summary_context(entries, scope)`` plus ``full_detail`` and
``kind``: a kind's context holds all its template needs. Client text reaches
the page only through Django's autoescaping.
"""

import datetime as dt
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import formats, timezone
from django.utils.html import escape, format_html, strip_spaces_between_tags
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from clients.selectors import NO_EARLIER_SESSION_WEEKS
from homework.kinds import get_kind
from homework.kinds.excerpts import shorten
from homework.kinds.limits import (
    FLAG_LIST_LIMIT,
    RECORDS_BESIDE_TIMELINE,
    WORK_LIST_LIMIT,
    first_of,
)
from homework.kinds.values import SummaryScope
from homework.models import Entry
from homework.selectors.period import Period
from homework.selectors.work_in_period import WorkInPeriod
from homework.summary.selectors import SummaryData, staff_timeline
from practice.bidi import isolated_text
from practice.dates import ClientTimeZone, as_zone, years_named_within
from practice.pdf import render_pdf, rendering_digest

TEMPLATE = "homework/summary/document.html"
STYLESHEET = "css/summary.css"
# Stands in for the time of rendering while the document is fingerprinted:
# an HTML comment, which escaped client text can never contain.
_GENERATED_AT = "<!--generated-at-->"
PAPER_SIZES = {"A4": "A4", "Letter": "letter"}


@dataclass(frozen=True)
class FlagItem:
    entry: Entry
    title: str
    excerpt: str
    # When it happened, on the client's clock, as the kind's section dates it:
    # a hard evening written down next morning is one day, not two.
    when: str = ""
    quotes_client: bool = True  # the excerpt is the client's words (ExerciseKind)
    # Beside the date, for a flag from before the period (SummaryData.unsafe_before).
    note: str = ""


@dataclass(frozen=True)
class SummaryDocument:
    """The summary's HTML, less the time it was made, and a fingerprint of it.

    The fingerprint changes whenever anything the document shows changes
    (an entry edited or added, a flag, the period, a template), and with
    how it is printed (the style sheet, the engine): it is what decides
    whether a stored PDF is still current.
    """

    html: str
    fingerprint: str
    filename: str
    # The entries whose own words the document prints (flagged excerpts, and
    # what each kind's section says it prints). Printing marks none of them read.
    printed: frozenset[int] = frozenset()

    def final_html(self, generated_at: dt.datetime) -> str:
        label = formats.date_format(
            timezone.localtime(generated_at, timezone.get_default_timezone()), "j F Y, H:i"
        )
        return self.html.replace(_GENERATED_AT, escape(label), 1)


def _flags(
    entries: list[Entry],
    *,
    full_detail: bool,
    client_time_zone: ClientTimeZone,
    notes: Mapping[int, str] | None = None,
) -> tuple[list[FlagItem], int]:
    # Newest first by when it happened, the order the dates beside them read in.
    happened = sorted(
        ((get_kind(entry.assignment.exercise.kind).happened_at(entry), entry) for entry in entries),
        key=lambda pair: pair[0],
        reverse=True,
    )
    shown, more = first_of(happened, full_detail=full_detail, limit=FLAG_LIST_LIMIT)
    items = []
    for at, entry in shown:
        kind = get_kind(entry.assignment.exercise.kind)
        items.append(
            FlagItem(
                entry=entry,
                title=entry.assignment.exercise.title,
                # A kind's line, cut to one line whatever the kind made of it.
                excerpt=shorten(kind.excerpt(entry)),
                when=client_time_zone.show(at, "D j M"),
                quotes_client=kind.excerpt_quotes_client,
                note=(notes or {}).get(entry.pk, ""),
            )
        )
    return items, more


def _unread_from_before_note(period: Period) -> str:
    """Why a flag from before the period is listed: true however often the
    summary is printed, so a second copy reads as the first (the period's
    start is when it was still unread: summary.selectors._unread_unsafe_before)."""
    if period.previous is not None:
        return _("sent before the last session, not read by then")
    return _("sent before this period, not read by its start")


def summary_filename(data: SummaryData) -> str:
    """Neutral on purpose: a file name shows in downloads lists and print queues.

    Chosen dates are named by them, not by the session after them: saved
    beside that session's own summary, one would overwrite the other."""
    period = data.period
    if period.chosen_dates:
        return f"summary-{period.since:%Y-%m-%d}-to-{period.until:%Y-%m-%d}.pdf"
    day = data.period.session.starts_at if data.period.session else None
    date = timezone.localtime(day).date() if day else data.period.until
    return f"session-summary-{date:%Y-%m-%d}.pdf"


_FIRST_TAG = re.compile(r"<[a-z][a-z0-9]*")


def _naming_its_section(html: SafeString, label: str) -> SafeString:
    """A kind's section, its first element marked to name the section atop the
    pages it runs onto (summary.css): an attribute on an element that is there
    anyway, since a wrapper or an extra element costs the engine about as much
    as a paragraph. Client text in it is escaped, so its first tag is ours."""
    match = _FIRST_TAG.search(html)
    if match is None:
        return html
    attribute = format_html(' data-running="{}"', _("%(label)s, continued") % {"label": label})
    # Our template's output with an escaped attribute put in its first tag.
    named = html[: match.end()] + attribute + html[match.end() :]
    return mark_safe(named)  # noqa: S308 (escaped attribute)  # nosec B703


def _context(data: SummaryData) -> dict[str, Any]:
    full = data.full_detail
    # Kinds count the client's days (days without contact): up to the last
    # one on the client's calendar, which their entries are dated on too.
    as_of = data.period.as_of(data.now, zone=as_zone(data.client.timezone))
    sections = []
    glance = []
    printed: set[int] = set()
    # Times in the client's life print on their clock, said once in the
    # masthead when it is not the practice's, rather than on every line.
    client_time_zone = ClientTimeZone(zone=data.client.timezone, noted=True)
    # Only with two kinds or more in the period (homework.kinds.timeline).
    timeline = staff_timeline(
        data.entries, client=data.client, since=data.period.since, until=data.period.until
    )
    for section in data.sections:
        kind = section.kind
        scope = SummaryScope(
            full_detail=full,
            earlier=section.earlier,
            as_of=as_of,
            records_in_words=None if timeline is None else RECORDS_BESIDE_TIMELINE,
            current=section.current,
        )
        context, lines = kind.summary_and_glance(section.entries, scope)
        html = render_to_string(
            kind.summary_template,
            {
                **context,
                "full_detail": full,
                "kind": kind,
                "client_time_zone": client_time_zone,
            },
        )
        sections.append(
            {
                "label": kind.label,
                "html": _naming_its_section(html, str(kind.label)),
                # For the since-last-session page: each entry a click from its digest.
                "entries": section.entries,
            }
        )
        printed.update(entry.pk for entry in context.get("printed", ()))
        if lines:
            glance.append({"label": kind.label, "lines": lines})
    # Unread from before the period, listed with the period's own among them.
    unsafe, unsafe_more = _flags(
        [*data.flagged_unsafe, *data.unsafe_before],
        full_detail=full,
        client_time_zone=client_time_zone,
        notes=dict.fromkeys(
            (entry.pk for entry in data.unsafe_before), _unread_from_before_note(data.period)
        ),
    )
    review, review_more = _flags(
        [*data.flagged_review, *data.review_before],
        full_detail=full,
        client_time_zone=client_time_zone,
        notes=dict.fromkeys(
            (entry.pk for entry in data.review_before), _unread_from_before_note(data.period)
        ),
    )
    discuss, discuss_more = _flags(
        data.flagged_discuss, full_detail=full, client_time_zone=client_time_zone
    )
    # A flag's line is the client's words read, unless its kind's line says
    # only how much there is (a safety plan's "6 of 6 parts filled in").
    printed.update(item.entry.pk for item in (*review, *unsafe, *discuss) if item.quotes_client)
    # Work still open, past due or recurring gets a line each; finished
    # one-off work is named on one line, since it needs nothing more.
    finished = [item.title for item in data.completion.items if item.state == WorkInPeriod.DONE]
    finished, finished_more = first_of(finished, full_detail=full, limit=WORK_LIST_LIMIT)
    work, work_more = first_of(
        [item for item in data.completion.items if item.state != WorkInPeriod.DONE],
        full_detail=full,
        limit=WORK_LIST_LIMIT,
    )
    return {
        "data": data,
        "client": data.client,
        "therapist": data.therapist,
        "practice": data.practice,
        "period": data.period,
        # In the title (viewers' tabs, recent files) and atop the masthead:
        # chosen dates are not a session, even with one the day after them.
        "document_title": _("Summary") if data.period.chosen_dates else _("Session summary"),
        "no_earlier_session_weeks": NO_EARLIER_SESSION_WEEKS,
        "session": data.period.session,
        "full_detail": full,
        "practice_tz": settings.TIME_ZONE,
        "client_time_zone": client_time_zone,  # the sections are drawn: it knows if the note is needed
        "paper_size": PAPER_SIZES.get(data.practice.paper_size, "A4"),
        "generated_at": mark_safe(_GENERATED_AT),  # noqa: S308 (our own constant)  # nosec B703
        "review": review,
        "review_more": review_more,
        "unsafe": unsafe,
        "unsafe_more": unsafe_more,
        "discuss": discuss,
        "discuss_more": discuss_more,
        "completion": data.completion,
        "work": work,
        "finished": finished,
        "work_more": work_more + finished_more,
        "glance": glance,
        "timeline": timeline,
        "sections": sections,
        "printed": frozenset(printed),
        "entry_count": len(data.entries),
        "page_label": _("Page"),
        "of_label": _("of"),
        "footer_label": _(
            "Confidential: %(practice)s. Please keep out of sight and shred after use."
        )
        % {"practice": isolated_text(data.practice.name)},
    }


def summary_context(data: SummaryData) -> dict[str, Any]:
    """What the summary says, drawn as the PDF draws it: the since-last-session
    page shows the same flags, counts and digests from it, so the two agree."""
    period = data.period
    with (
        timezone.override(timezone.get_default_timezone()),
        years_named_within(period.since, period.until),
    ):
        context = _context(data)
    sections = [
        {**section, "html": _for_a_page(section["html"])} for section in context["sections"]
    ]
    return {**context, "sections": sections, "on_a_page": True}


# The spans ``own_direction`` sets on a right-to-left line for the PDF engine.
_PRINTED_DIRECTION = '<span dir="rtl">'


def _for_a_page(html: SafeString) -> SafeString:
    """A kind's printed section, for a browser: each line ``own_direction``
    marked right to left is marked ``auto`` instead, which a browser reads
    the same way from its first letter, and which a block around it marked
    ``auto`` still counts in finding its own direction (a fixed one it skips)."""
    # Only our own spans change: client text in the section is escaped.
    return mark_safe(html.replace(_PRINTED_DIRECTION, '<span dir="auto">'))  # noqa: S308  # nosec B703 (our own spans; client text escaped)


def summary_document(data: SummaryData) -> SummaryDocument:
    # Dates without their year where the whole period is in one year (the
    # masthead names it); across New Year, "3 Jan" could be either, so each
    # date names its year then (practice.dates.years_named_within).
    period = data.period
    with (
        timezone.override(timezone.get_default_timezone()),
        years_named_within(period.since, period.until),
    ):
        # Whitespace between tags is noise to the PDF engine, which still
        # parses it: dropping it saves a few per cent of a render.
        context = _context(data)
        html = strip_spaces_between_tags(render_to_string(TEMPLATE, context))
    fingerprint = hashlib.sha256((html + rendering_digest([STYLESHEET])).encode()).hexdigest()[:32]
    return SummaryDocument(
        html=html,
        fingerprint=fingerprint,
        filename=summary_filename(data),
        printed=context["printed"],
    )


def render_summary_pdf(document: SummaryDocument, *, generated_at: dt.datetime) -> bytes:
    return render_pdf(document.final_html(generated_at), stylesheets=[STYLESHEET])
