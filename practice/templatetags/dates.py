import datetime as dt
from typing import Any

from django import template
from django.conf import settings
from django.utils import formats, timezone
from django.utils.timesince import timesince

from practice import dates

register = template.Library()


@register.filter
def calendar_day(value: dt.date | dt.datetime | None, date_format: str) -> str:
    if not value:
        return ""
    return dates.calendar_day(value, date_format)


@register.simple_tag(takes_context=True)
def their_time(context: template.Context, moment: Any, date_format: str) -> str:
    """Without ``client_time_zone``, the current zone's: a client's pages run on their clock."""
    if not isinstance(moment, dt.datetime) or timezone.is_naive(moment):
        return ""
    clock = context.get("client_time_zone")
    if clock is None:
        return formats.date_format(timezone.localtime(moment), date_format)
    return str(clock.show(moment, date_format))


@register.simple_tag
def their_time_where_it_differs(moment: Any, zone: str, date_format: str) -> str:
    if not isinstance(moment, dt.datetime) or timezone.is_naive(moment):
        return ""
    return dates.where_clocks_differ(moment, zone, date_format)


@register.simple_tag
def password_reset_lifetime() -> str:
    """PASSWORD_RESET_TIMEOUT is the practice's to set, so the pages must say what it is."""
    start = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
    return timesince(start, start + dt.timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT))
