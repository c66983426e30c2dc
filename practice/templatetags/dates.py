"""``{% load dates %}``: ``{{ day|calendar_day:"j M" }}`` names the year when it does
not go without saying (practice.dates.with_year);
``{% their_time moment "D j M, H:i" %}`` shows a time in the client's life on their own clock,
``{% their_time_where_it_differs moment zone "D H:i" %}`` a shared one (a session) only where theirs differs;
``{% password_reset_lifetime %}`` says how long a reset link works ("2 hours")."""

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
    """On the clock in ``client_time_zone`` (a ``dates.ClientTimeZone``), which staff
    pages pass; without one, the current zone's, as the ``date`` filter
    would: the client's own pages already run on the client's clock.
    Anything that is not an aware time (text that could not be read) gives ""."""
    if not isinstance(moment, dt.datetime) or timezone.is_naive(moment):
        return ""
    clock = context.get("client_time_zone")
    if clock is None:
        return formats.date_format(timezone.localtime(moment), date_format)
    return str(clock.show(moment, date_format))


@register.simple_tag
def their_time_where_it_differs(moment: Any, zone: str, date_format: str) -> str:
    """``moment`` on the clock of ``zone`` (a client's), marked "(their
    time)", where that clock shows a different time from the reader's; ""
    where they agree, so a page adds it only where it tells something (a
    session at 16:00 in London is at 08:00 for a client in Los Angeles)."""
    if not isinstance(moment, dt.datetime) or timezone.is_naive(moment):
        return ""
    return dates.where_clocks_differ(moment, zone, date_format)


@register.simple_tag
def password_reset_lifetime() -> str:
    """How long a reset link works, in words: PASSWORD_RESET_TIMEOUT is the
    practice's to set, and the email and pages must say what it is."""
    start = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
    return timesince(start, start + dt.timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT))
