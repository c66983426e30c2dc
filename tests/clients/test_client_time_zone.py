"""A client's time zone decides their days: when "today" turns over for
them, which day an urge or a record falls on, when a due date has passed.

A new client starts on the practice's clock (settings.TIME_ZONE), whatever
that is: a practice in New York whose clients started on London's would see
each client's day end at 7 p.m.
"""

from django.test import override_settings
from django.urls import reverse

from clients import services
from tests.conftest import login


@override_settings(TIME_ZONE="America/New_York")
def test_a_new_client_starts_on_the_practices_clock(cast):
    made = services.client_create(actor=cast.tara, display_name="Robin")
    assert made.timezone == "America/New_York"


@override_settings(TIME_ZONE="America/New_York")
def test_the_admin_offers_the_practices_clock_for_a_new_client(cast):
    page = login(cast.tara).get(reverse("admin:clients_client_add"))
    assert page.context["adminform"].form["timezone"].value() == "America/New_York"


def test_the_time_zone_is_asked_with_the_client_not_tucked_under_reminders(cast):
    """It is what the client's days run on, reminders or none: set it when
    adding a client who lives elsewhere."""
    page = login(cast.tara).get(reverse("admin:clients_client_add"))
    _name, first = page.context["adminform"].fieldsets[0]
    assert "timezone" in first["fields"]
