"""``{% load clocks %}``: ``{% times_shown_on %}`` says which clock the portal's
dates and times are on: the client's own, which the portal runs on
(clients.decorators.client_required), named as a person names it."""

from django import template
from django.utils import timezone
from django.utils.translation import gettext as _

from clients.time_zones import place_of

register = template.Library()


@register.simple_tag
def times_shown_on() -> str:
    """ "Times and dates here are London time." A due date or a time read on
    the wrong clock is a day out for someone far away; saying which clock
    it is lets them notice."""
    zone = timezone.get_current_timezone_name()
    place = place_of(zone)
    if place is None:
        return _("Times and dates here are in %(zone)s.") % {"zone": zone}
    return _("Times and dates here are %(place)s time.") % {"place": place}
