"""``{% load crisis %}``: ``{{ line|tel_links }}`` makes each phone number in
a crisis line a ``tel:`` link, so a client on a phone calls with one tap.

The practice types its lines as it likes ("0808 2000 247", "1-800-799-7233");
the link keeps only the digits (and a leading +), the text stays as typed.
Three digits at least, so "24 hours" stays text while "999" becomes a link.
"""

import re

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

PHONE_NUMBER = re.compile(r"\+?\d(?:[ \-.]?\d){2,}")


def tel_href(number: str) -> str:
    """The ``tel:`` address of ``number`` as typed: its digits, and a leading +."""
    return "tel:" + ("+" if number.startswith("+") else "") + re.sub(r"\D", "", number)


@register.filter
def tel_links(line: object) -> SafeString:
    text = str(line)
    parts: list[str] = []
    end = 0
    for found in PHONE_NUMBER.finditer(text):
        parts.append(escape(text[end : found.start()]))
        parts.append(format_html('<a href="{}">{}</a>', tel_href(found.group()), found.group()))
        end = found.end()
    parts.append(escape(text[end:]))
    return mark_safe("".join(parts))  # noqa: S308 (every part escaped above)  # nosec B308 B703
