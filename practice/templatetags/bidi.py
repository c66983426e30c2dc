from collections.abc import Iterable

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import get_text_list
from django.utils.translation import gettext

from practice.bidi import isolated_html, isolated_text

register = template.Library()


@register.filter(needs_autoescape=True)
def isolated(text: object, autoescape: bool = True) -> SafeString | str:
    return isolated_html(text) if autoescape else isolated_text(text)


@register.filter(needs_autoescape=True)
def each_isolated(texts: Iterable[object], autoescape: bool = True) -> list[SafeString | str]:
    """Joined first, two Arabic names would be one run again."""
    return [isolated(text, autoescape) for text in texts]


@register.filter(needs_autoescape=True)
def and_list(texts: Iterable[object], autoescape: bool = True) -> SafeString | str:
    names = each_isolated(texts, autoescape)
    if not autoescape:
        return get_text_list(names, gettext("and"))
    return mark_safe(  # noqa: S308 (each name escaped by isolated(); the comma and "and" are ours)  # nosec B703
        get_text_list(names, conditional_escape(gettext("and")))
    )
