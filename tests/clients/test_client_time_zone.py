"""A client's time zone decides their days: when "today" turns over for
them, which day an urge or a record falls on, when a due date has passed.

A new client starts on the practice's clock (settings.TIME_ZONE), whatever
that is: a practice in New York whose clients started on London's would see
each client's day end at 7 p.m.
"""

import pytest
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


# -- typing a time zone: a city is enough ---------------------------------------------


def save_alice_with_time_zone(cast, typed):
    from clients.models import Client
    from tests.conftest import save_change_form

    response = save_change_form(
        login(cast.tara),
        reverse("admin:clients_client_change", args=[cast.alice.pk]),
        {
            "display_name": "Alice",
            "contact_email": "",
            "timezone": typed,
        },
    )
    return response, Client.objects.get(pk=cast.alice.pk).timezone


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("London", "Europe/London"),
        ("  new york ", "America/New_York"),
        ("New_York", "America/New_York"),
        ("europe/paris", "Europe/Paris"),
        ("America/Los Angeles", "America/Los_Angeles"),
        ("Buenos Aires", "America/Argentina/Buenos_Aires"),
        ("utc", "UTC"),
        ("Asia/Tokyo", "Asia/Tokyo"),
    ],
)
def test_a_therapist_can_type_a_city_and_the_iana_name_is_stored(cast, typed, stored):
    response, timezone = save_alice_with_time_zone(cast, typed)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert timezone == stored


def form_error(response):
    return " ".join(response.context["adminform"].form.errors["timezone"])


@pytest.mark.parametrize("typed", ["Mars/Olympus", "../../etc", "12345", "-5", "Europe/"])
def test_an_unknown_time_zone_is_refused_and_nothing_changes(cast, typed):
    response, timezone = save_alice_with_time_zone(cast, typed)
    assert response.status_code == 200
    assert "not a time zone we know" in form_error(response)
    assert timezone == cast.alice.timezone


def test_a_near_miss_names_the_close_matches(cast):
    response, _stored = save_alice_with_time_zone(cast, "Londn")
    assert "Europe/London" in form_error(response)


def test_a_city_in_two_zones_names_both_and_stores_neither(cast):
    response, timezone = save_alice_with_time_zone(cast, "Nicosia")
    assert response.status_code == 200
    error = form_error(response)
    assert "Asia/Nicosia" in error and "Europe/Nicosia" in error
    assert timezone == cast.alice.timezone


@pytest.mark.parametrize("typed", ["", "   "])
def test_an_empty_time_zone_is_asked_for(cast, typed):
    response, timezone = save_alice_with_time_zone(cast, typed)
    assert response.status_code == 200
    assert form_error(response)
    assert timezone == cast.alice.timezone


def test_a_huge_time_zone_is_refused_without_echoing_it(cast):
    typed = "London" * 20_000
    response, timezone = save_alice_with_time_zone(cast, typed)
    assert response.status_code == 200
    assert "too long" in form_error(response)
    assert typed[:200] not in form_error(response)
    assert timezone == cast.alice.timezone


def test_the_time_zone_input_offers_every_zone_as_a_suggestion(cast):
    page = login(cast.tara).get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
    html = page.content.decode()
    assert 'list="id_timezone_zones"' in html
    assert '<datalist id="id_timezone_zones">' in html
    assert '<option value="Europe/London">' in html
    assert '<option value="America/New_York">' in html


def test_the_time_zone_help_says_a_city_is_enough(cast):
    page = login(cast.tara).get(reverse("admin:clients_client_add"))
    assert "type their city" in page.content.decode()


# -- the picker offers places ---------------------------------------------------------


def test_the_time_zone_picker_offers_real_places_and_utc_only(cast):
    """Not tzdata's internals and old spellings: "Factory", "Etc/GMT+3" (whose
    sign is the reverse of what it reads), "US/Pacific-New", "Zulu"..."""
    page = login(cast.tara).get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
    html = page.content.decode()
    for offered in ("Europe/London", "America/Argentina/Buenos_Aires", "Pacific/Auckland", "UTC"):
        assert f'<option value="{offered}">' in html
    for odd in (
        "Factory",
        "Etc/GMT+3",
        "Etc/UTC",
        "GMT+0",
        "GMT0",
        "UCT",
        "Universal",
        "Zulu",
        "posixrules",
        "US/Pacific",
        "US/Pacific-New",
        "GB",
        "EST5EDT",
        "Asia/Calcutta",  # the old spelling of Asia/Kolkata
    ):
        assert f'<option value="{odd}">' not in html


def test_every_place_offered_is_a_zone_this_machine_knows():
    from clients.time_zones import place_names, zone_names

    assert set(place_names()) <= set(zone_names())
    assert len(place_names()) > 300  # every country's zones


@pytest.mark.parametrize("stored", ["US/Pacific", "Etc/GMT-3", "UTC"])
def test_a_stored_zone_that_is_not_offered_is_still_accepted(cast, stored):
    cast.alice.timezone = stored
    cast.alice.save(update_fields=["timezone"])
    response, timezone = save_alice_with_time_zone(cast, stored)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert timezone == stored


def test_a_near_miss_suggests_places_not_tzdata_internals(cast):
    response, _stored = save_alice_with_time_zone(cast, "Factori")
    assert "Factory" not in form_error(response)


# -- the portal says which clock it keeps -----------------------------------------------


@pytest.mark.parametrize(
    ("zone", "words"),
    [
        ("Europe/London", "London"),
        ("America/New_York", "New York"),
        ("America/Argentina/Buenos_Aires", "Buenos Aires"),
        ("UTC", "UTC"),
        ("US/Pacific", "US/Pacific"),  # no place to name: the zone as stored
    ],
)
def test_a_zone_in_plain_words_is_its_place(zone, words):
    from clients.time_zones import zone_in_words

    assert zone_in_words(zone) == words


@pytest.mark.parametrize("page", ["clients:account", "homework:dashboard"])
def test_the_portal_says_its_times_are_the_clients_own_clock(cast, page):
    cast.alice.timezone = "America/New_York"
    cast.alice.save(update_fields=["timezone"])
    text = " ".join(login(cast.alice.portal_user).get(reverse(page)).text.split())
    assert "Times and dates here are New York time." in text
    assert "America/New_York" not in text


def test_a_clock_that_is_no_place_is_named_as_it_is(cast):
    cast.alice.timezone = "UTC"
    cast.alice.save(update_fields=["timezone"])
    text = " ".join(login(cast.alice.portal_user).get(reverse("clients:account")).text.split())
    assert "Times and dates here are in UTC." in text
