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
    if first == last:
        return date_format(last, "ABBR_DATE_FORMAT")
    start = date_format(
        first, "ABBR_MONTH_DAY_FORMAT" if first.year == last.year else "ABBR_DATE_FORMAT"
    )
    return f"{start} – {date_format(last, 'ABBR_DATE_FORMAT')}"


# Anything not listed is hex-escaped, so no text can end the CSS string or the <style>.
_CSS_PLAIN = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,.:;!?()-")


@register.filter
def own_direction(text: object) -> SafeString:
    """Each line in its own direction: the PDF engine ignores ``dir="auto"`` and isolates."""
    value = "" if text is None else str(text)
    if not RIGHT_TO_LEFT.search(value):
        return conditional_escape(value)
    # Line breaks stay inside the spans: whitespace between tags is dropped from the document.
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
    """Plain on a page, where spans would hide the text from the browser's ``dir="auto"``."""
    if context.get("printing"):
        return own_direction(text)
    return conditional_escape("" if text is None else str(text))


@register.simple_tag(takes_context=True)
def chart_in_own_direction(context: template.Context, svg: str) -> SafeString:
    if context.get("printing"):
        return in_visual_order(svg)
    return conditional_escape(svg)


@register.filter
def summary_excerpt(text: object, full_detail: bool = False) -> SafeString:
    value = "" if text is None else str(text).strip()
    if full_detail:
        return own_direction(value)
    flat = " ".join(value.split())
    cut = shorten(flat, EXCERPT_CHARS)
    if cut == flat:
        return own_direction(flat)
    # Not a styled span: an inline element costs the PDF engine as much as a paragraph.
    return format_html("{} {}", own_direction(cut), _("(continued in the portal)"))


@register.filter
def as_image(svg: object) -> SafeString:
    """WeasyPrint parses an SVG image as XML, much faster than inline SVG's HTML parser."""
    markup = in_visual_order(str(svg))
    title = _SVG_TITLE.search(markup)
    # Our own escaped text: unescaped here, escaped again below.
    alt = html.unescape(title["text"]) if title else ""
    encoded = base64.b64encode(markup.encode()).decode("ascii")
    return format_html(
        '<img class="chart" alt="{}" src="data:image/svg+xml;base64,{}">', alt, encoded
    )


_SVG_TITLE = re.compile(r"<title[^>]*>(?P<text>[^<]*)</title>")


@register.filter
def css_string(text: object) -> SafeString:
    escaped = "".join(c if c in _CSS_PLAIN else f"\\{ord(c):06x}" for c in str(text))
    return mark_safe(f'"{escaped}"')  # noqa: S308 (every character above is plain or hex-escaped)  # nosec B703
