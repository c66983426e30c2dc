"""``{% load dates %}``: ``{{ day|calendar_day:"j M" }}`` names the year when it does
not go without saying (practice.dates.with_year);
``{% their_time moment "D j M, H:i" %}`` shows a time in the client's life on their own clock."""

import datetime as dt
from typing import Any

from django import template
from django.utils import formats, timezone

from practice import dates

register = template.Library()


@register.filter
def calendar_day(value: dt.date | dt.datetime | None, date_format: str) -> str:
    if not value:
        return ""
    return dates.calendar_day(value, date_format)


@register.simple_tag(takes_context=True)
def their_time(context: template.Context, moment: Any, date_format: str) -> str:
    """On the clock in ``their_clock`` (a ``dates.TheirClock``), which staff
    pages pass; without one, the current zone's, as the ``date`` filter
    would: the client's own pages already run on the client's clock.
    Anything that is not an aware time (text that could not be read) gives ""."""
    if not isinstance(moment, dt.datetime) or timezone.is_naive(moment):
        return ""
    clock = context.get("their_clock")
    if clock is None:
        return formats.date_format(timezone.localtime(moment), date_format)
    return str(clock.show(moment, date_format))
