"""``{% load dates %}``: ``{{ day|calendar_day:"j M" }}`` names the year when it is not this year."""

import datetime as dt

from django import template

from practice import dates

register = template.Library()


@register.filter
def calendar_day(value: dt.date | dt.datetime | None, date_format: str) -> str:
    if not value:
        return ""
    return dates.calendar_day(value, date_format)
