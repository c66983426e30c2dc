"""``{% load crisis %}``: ``{{ line|with_tel_links }}`` shows a crisis line as
the practice typed it, each phone number a ``tel:`` link (practice.crisis)."""

from django import template
from django.utils.safestring import SafeString

from practice.crisis import crisis_line_html

register = template.Library()


@register.filter
def with_tel_links(line: str) -> SafeString:
    return crisis_line_html(str(line))
