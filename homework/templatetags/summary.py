"""Template helpers for the session summary PDF and the kinds' summary sections."""

import base64
import datetime as dt
import html
import re

from django import template
from django.utils.formats import date_format
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from homework.kinds.charts import in_visual_order
from homework.kinds.excerpts import shorten
from homework.kinds.limits import EXCERPT_CHARS
from practice.bidi import RIGHT_TO_LEFT, first_letter_right_to_left

register = template.Library()


@register.filter
def day_range(first: dt.date, last: dt.date) -> str:
    """Two days as a span, the year said once when they share it:
    "10 Nov – 30 Nov 2026", "20 Dec 2025 – 5 Jan 2026"; one day alone,
    "30 Nov 2026"."""
    if first == last:
        return date_format(last, "j M Y")
    start = date_format(first, "j M" if first.year == last.year else "j M Y")
    return f"{start} – {date_format(last, 'j M Y')}"


# Characters that may stand as themselves inside a CSS string; everything else
# is written as a hex escape, so no text can end the string or the <style>.
_CSS_PLAIN = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,.:;!?()-")


@register.filter
def own_direction(text: object) -> SafeString:
    """Client text, escaped, each line running in the direction of its first letter.

    The summary runs left to right, and the PDF engine reads neither
    ``dir="auto"`` nor Unicode's isolates once it wraps a line: a Hebrew or
    Arabic sentence ending on a Latin word or a time ("… at 22:00 on
    WhatsApp.") printed that word at the right, where a reader of the
    sentence starts, and its full stop before it. A line whose first letter
    is written right to left goes in a span marked so. Other text is left
    as it was: an inline element costs the engine about as much as a
    paragraph, and a stored PDF's fingerprint stays the same.
    """
    value = "" if text is None else str(text)
    if not RIGHT_TO_LEFT.search(value):
        return conditional_escape(value)
    # Each line keeps its line break inside it: whitespace between two tags
    # is dropped from the document (render.summary_document).
    lines = value.splitlines(keepends=True)
    return mark_safe(  # noqa: S308 (each line escaped; only our own spans added)  # nosec B703
        "".join(
            format_html('<span dir="rtl">{}</span>', line)
            if first_letter_right_to_left(line)
            else conditional_escape(line)
            for line in lines
        )
    )


@register.simple_tag(takes_context=True)
def in_own_direction(context: template.Context, text: object) -> SafeString:
    """Client text in a template shown both on a page and in a PDF (a kind's
    display: the portal, the admin and the client's download).

    Printed (``printing`` in the context), each line runs in its own
    direction (``own_direction``). On a page the block around the text says
    ``dir="auto"`` and the browser finds the direction itself; the spans
    would hide the text from it (``dir=auto`` skips whatever has a ``dir`` of
    its own), so there it stays plain.
    """
    if context.get("printing"):
        return own_direction(text)
    return conditional_escape("" if text is None else str(text))


@register.simple_tag(takes_context=True)
def chart_in_own_direction(context: template.Context, svg: str) -> SafeString:
    """One of our charts in a kind's display (the portal, the admin and the
    client's download). Printed (``printing`` in the context), its Arabic
    and Hebrew labels are given in the order the PDF engine must draw them
    (``charts.in_visual_order``); on a page the browser orders them itself."""
    if context.get("printing"):
        return in_visual_order(svg)
    return conditional_escape(svg)


@register.filter
def summary_excerpt(text: object, full_detail: bool = False) -> SafeString:
    """Client text, escaped and in its own direction (``own_direction``):
    whole in full detail, otherwise cut at a word with a note that the rest
    is in the portal."""
    value = "" if text is None else str(text).strip()
    if full_detail:
        return own_direction(value)
    # An excerpt is one run of text: twenty blank lines must not fill a page.
    flat = " ".join(value.split())
    cut = shorten(flat, EXCERPT_CHARS)
    if cut == flat:
        return own_direction(flat)
    # Plain text, not a styled span: an inline element costs the PDF engine
    # about as much as a paragraph, and a section may hold dozens of these.
    return format_html("{} {}", own_direction(cut), _("(continued in the portal)"))


@register.filter
def as_image(svg: object) -> SafeString:
    """One of our charts (``homework.kinds.charts``) as an <img> with a data: URI.

    For the PDF only: WeasyPrint reads an SVG image with an XML parser, and
    inline SVG with its much slower HTML parser (our charts took a tenth of a
    summary's render time that way). Its alt text is the chart's own title:
    the numbers are in the words beside it, and the tagged PDF names the
    picture for a screen reader.
    """
    # Its Arabic or Hebrew labels in the order the engine must draw them.
    markup = in_visual_order(str(svg))
    title = _SVG_TITLE.search(markup)
    # The title is our own escaped text: unescaped here, escaped again below.
    alt = html.unescape(title["text"]) if title else ""
    encoded = base64.b64encode(markup.encode()).decode("ascii")
    return format_html(
        '<img class="chart" alt="{}" src="data:image/svg+xml;base64,{}">', alt, encoded
    )


_SVG_TITLE = re.compile(r"<title[^>]*>(?P<text>[^<]*)</title>")


@register.filter
def css_string(text: object) -> SafeString:
    """A double-quoted CSS string for our own labels (page numbers, footer).

    The practice's name is set in the admin, so it is escaped like anything else.
    """
    escaped = "".join(c if c in _CSS_PLAIN else f"\\{ord(c):06x}" for c in str(text))
    return mark_safe(f'"{escaped}"')  # noqa: S308 (every character above is plain or hex-escaped)  # nosec B703
