"""Turning what the selectors read into the summary's HTML and PDF. Pure: no database access, no
network, no writes; client text reaches the page only through Django's autoescaping."""

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
from homework.kinds.worksheet.over_time import measure_over_time
from homework.models import Entry
from homework.selectors.period import Period
from homework.selectors.work_in_period import WorkInPeriod
from homework.summary.selectors import SummaryData, staff_timeline
from practice.bidi import isolated_text
from practice.dates import ClientTimeZone, as_zone, years_named_within
from practice.pdf import render_pdf, rendering_digest

TEMPLATE = "homework/summary/document.html"
STYLESHEET = "css/summary.css"
# An HTML comment, which escaped client text can never contain.
_GENERATED_AT = "<!--generated-at-->"
PAPER_SIZES = {"A4": "A4", "Letter": "letter"}


@dataclass(frozen=True)
class FlagItem:
    entry: Entry
    title: str
    excerpt: str
    # On the client's clock: a hard evening written down next morning is one day, not two.
    when: str = ""
    quotes_client: bool = True
    note: str = ""


@dataclass(frozen=True)
class SummaryDocument:
    """The fingerprint changes whenever anything shown or how it is printed changes: it decides
    whether a stored PDF is still current."""

    html: str
    fingerprint: str
    filename: str
    # Printing marks none of these read.
    printed: frozenset[int] = frozenset()

    def final_html(self, generated_at: dt.datetime) -> str:
        label = formats.date_format(
            timezone.localtime(generated_at, timezone.get_default_timezone()),
            "LONG_DATETIME_FORMAT",
        )
        return self.html.replace(_GENERATED_AT, escape(label), 1)


def _flags(
    entries: list[Entry],
    *,
    full_detail: bool,
    client_time_zone: ClientTimeZone,
    notes: Mapping[int, str] | None = None,
) -> tuple[list[FlagItem], int]:
    shown, more = _flags_listed(entries, full_detail=full_detail)
    items = []
    for at, entry in shown:
        kind = get_kind(entry.assignment.exercise.kind)
        items.append(
            FlagItem(
                entry=entry,
                title=entry.assignment.exercise.title,
                excerpt=shorten(kind.excerpt(entry)),
                when=client_time_zone.show(at, "ABBR_WEEKDAY_DATE_FORMAT"),
                quotes_client=kind.excerpt_quotes_client,
                note=(notes or {}).get(entry.pk, ""),
            )
        )
    return items, more


def _flags_listed(
    entries: list[Entry], *, full_detail: bool
) -> tuple[list[tuple[dt.datetime, Entry]], int]:
    """Newest first by when it happened, as many as the list shows."""
    happened = sorted(
        ((get_kind(entry.assignment.exercise.kind).happened_at(entry), entry) for entry in entries),
        key=lambda pair: pair[0],
        reverse=True,
    )
    return first_of(happened, full_detail=full_detail, limit=FLAG_LIST_LIMIT)


def entries_in_page_order(data: SummaryData) -> list[Entry]:
    """Each entry the since-last-session page links to, once, where it first comes: its alerts,
    the flags as "At a glance" lists them (review, unsafe, discuss), then each kind's section."""
    flags = (
        [*data.flagged_review, *data.review_before],
        [*data.flagged_unsafe, *data.unsafe_before],
        data.flagged_discuss,
    )
    listed = [alert.entry for alert in data.alerts]
    for entries in flags:
        listed += [entry for _, entry in _flags_listed(entries, full_detail=data.full_detail)[0]]
    listed += [entry for section in data.sections for entry in section.entries]
    return list({entry.pk: entry for entry in listed}.values())


def _unread_from_before_note(period: Period) -> str:
    """True however often the summary is printed, so a second copy reads as the first."""
    if period.previous is not None:
        return _("sent before the last session, not read by then")
    return _("sent before this period, not read by its start")


def summary_filename(data: SummaryData) -> str:
    """Neutral on purpose: a file name shows in downloads lists and print queues. Chosen dates are
    named by them, so they never overwrite a session's summary."""
    period = data.period
    if period.chosen_dates:
        return f"summary-{period.since:%Y-%m-%d}-to-{period.until:%Y-%m-%d}.pdf"
    day = data.period.session.starts_at if data.period.session else None
    date = timezone.localtime(day).date() if day else data.period.until
    return f"session-summary-{date:%Y-%m-%d}.pdf"


_FIRST_TAG = re.compile(r"<[a-z][a-z0-9]*")


def _naming_its_section(html: SafeString, label: str) -> SafeString:
    """Marked by an attribute on the first element rather than a wrapper, which costs the PDF engine
    as much as a paragraph."""
    match = _FIRST_TAG.search(html)
    if match is None:
        return html
    attribute = format_html(' data-running="{}"', _("%(label)s, continued") % {"label": label})
    # Our template's output with an escaped attribute put in its first tag.
    named = html[: match.end()] + attribute + html[match.end() :]
    return mark_safe(named)  # noqa: S308 (escaped attribute)  # nosec B703


def _context(data: SummaryData) -> dict[str, Any]:
    full = data.full_detail
    as_of = data.period.as_of(data.now, zone=as_zone(data.client.timezone))
    sections = []
    glance = []
    printed: set[int] = set()
    # Said once in the masthead when the client's time zone is not the practice's, rather than on
    # every line.
    client_time_zone = ClientTimeZone(zone=data.client.timezone, noted=True)
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
                "entries": section.entries,
                "kind": kind.slug,
            }
        )
        printed.update(entry.pk for entry in context.get("printed", ()))
        if lines:
            glance.append({"label": kind.label, "lines": lines})
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
    printed.update(item.entry.pk for item in (*review, *unsafe, *discuss) if item.quotes_client)
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
        # Chosen dates are not a session, even with one the day after them.
        "document_title": _("Summary") if data.period.chosen_dates else _("Session summary"),
        "no_earlier_session_weeks": NO_EARLIER_SESSION_WEEKS,
        "session": data.period.session,
        "full_detail": full,
        "practice_tz": settings.TIME_ZONE,
        "client_time_zone": client_time_zone,
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
        "measures": [measure_over_time(m.exercise, m.scores, m.subscales) for m in data.measures],
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
    """Drawn as the PDF draws it, so the since-last-session page and the summary agree."""
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


_PRINTED_DIRECTION = '<span dir="rtl">'


def _for_a_page(html: SafeString) -> SafeString:
    """Right-to-left lines are marked ``auto`` instead, which browsers handle better in nested
    blocks."""
    # Only our own spans change: client text in the section is escaped.
    return mark_safe(html.replace(_PRINTED_DIRECTION, '<span dir="auto">'))  # noqa: S308  # nosec B703 (our own spans; client text escaped)


def summary_document(data: SummaryData) -> SummaryDocument:
    # Across New Year, "3 Jan" could be either year, so dates name their year then.
    period = data.period
    with (
        timezone.override(timezone.get_default_timezone()),
        years_named_within(period.since, period.until),
    ):
        # Whitespace between tags is noise the PDF engine still parses.
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
