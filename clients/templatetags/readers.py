"""``{% load readers %}``: who can read what a client shares, in clients.readers' one wording."""

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from clients import readers

register = template.Library()


@register.simple_tag
def shared_is_read_by() -> str:
    return str(readers.SHARED_IS_READ_BY)


@register.simple_tag
def private_is_seen_as() -> str:
    return str(readers.PRIVATE_IS_SEEN_AS)


@register.simple_tag
def who_looked_link() -> SafeString:
    return format_html(
        '{} <a href="{}">{}</a>',
        readers.EACH_LOOK_NOTED,
        reverse("clients:who_looked"),
        _("See who has looked"),
    )
