from django import template
from django.utils.safestring import SafeString

from practice.crisis import crisis_line_html

register = template.Library()


@register.filter
def with_tel_links(line: str) -> SafeString:
    return crisis_line_html(str(line))
