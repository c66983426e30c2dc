"""``{% times_shown_on %}``: which clock the portal's dates and times are on."""

from django import template
from django.utils import timezone
from django.utils.translation import gettext as _

from clients.time_zones import place_of

register = template.Library()


@register.simple_tag
def times_shown_on() -> str:
    """A date read on the wrong clock is a day out for someone far away: this lets them notice."""
    zone = timezone.get_current_timezone_name()
    place = place_of(zone)
    if place is None:
        return _("Times and dates here are in %(zone)s.") % {"zone": zone}
    return _("Times and dates here are %(place)s time.") % {"place": place}
