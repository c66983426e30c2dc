"""The safe-contact profile, the client's own: set in the portal, turned off
in one step, refused calmly when wrong, and never anyone else's."""

import datetime as dt
import json

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from clients.contact import hours
from clients.contact.selectors import contact_profile_of, profiles_with_a_safe_channel
from clients.contact.wording import hours_in_words
from clients.models import Client, ContactChange, ContactProfile
from clients.services import contact as contact_services
from clients.services import contact_profile_turn_off, contact_profile_update
from tests.conftest import login
from tests.helpers import CONTACT_CHOICES, contact_form_data

CONTACT = "/account/contact/"
OFF = "/account/contact/off/"


def profile_of(client) -> ContactProfile:
    return ContactProfile.objects.get(client=client)


def test_a_client_who_said_nothing_is_sent_nothing(cast):
    profile = contact_profile_of(cast.alice)
    assert profile.pk is None and profile.safe_channels == []
    assert not profiles_with_a_safe_channel().exists()
    page = login(cast.alice.portal_user).get(CONTACT)
    assert page.status_code == 200
    assert "Every message is off" in page.text


def test_the_client_sets_their_profile_in_the_portal(cast):
    http = login(cast.alice.portal_user)

    response = http.post(CONTACT, contact_form_data(phone="07911 123456"))

    assert response.status_code == 302
    profile = profile_of(cast.alice)
    assert profile.safe_channels == [ContactProfile.Channel.EMAIL]
    assert profile.email == "alice.reminders@example.test"
    assert str(profile.phone) == "+447911123456"  # stored in E.164
    assert profile.safe_hours[0] == [["09:00", "17:00"]] and profile.safe_hours[6] == []
    # The client's own save confirms it, as a check with the therapist does.
    assert profile.checked_on == timezone.localdate()
    assert profile.checked_by == ContactProfile.CheckedBy.CLIENT
    change = ContactChange.objects.get(client=cast.alice)
    assert change.by == ContactChange.By.CLIENT and change.actor == cast.alice.portal_user
    assert "email_on" in change.parts and "safe_hours" in change.parts
    assert "alice.reminders" not in json.dumps(change.parts)
    assert list(profiles_with_a_safe_channel()) == [profile]


def test_until_midnight_and_any_time_are_read_as_the_whole_rest_of_the_day(cast):
    data = contact_form_data(mon_from="18:00", mon_until="00:00", tue_when="any")
    login(cast.alice.portal_user).post(CONTACT, data)
    week = profile_of(cast.alice).safe_hours
    assert week[0] == [["18:00", "24:00"]] and week[1] == hours.ANY_TIME


def test_one_step_turns_every_message_off(cast):
    contact_profile_update(
        actor=cast.alice.portal_user,
        client=cast.alice,
        **{**CONTACT_CHOICES, "text_is_safe": True, "phone": "+447911123456"},
    )
    http = login(cast.alice.portal_user)
    assert "Turn off every message" in http.get(CONTACT).text

    response = http.post(OFF)

    assert response.status_code == 302
    profile = profile_of(cast.alice)
    assert profile.safe_channels == [] and not profiles_with_a_safe_channel().exists()
    assert profile.email and profile.phone  # kept, unused, until the client clears them
    off = ContactChange.objects.filter(client=cast.alice, turned_off=True).get()
    assert off.parts == ["email_off", "text_off"]
    http.post(OFF)  # a second press, or a replayed request: nothing more to log
    assert ContactChange.objects.filter(client=cast.alice, turned_off=True).count() == 1


def test_an_archived_client_can_still_turn_messages_off(cast):
    contact_profile_update(actor=cast.alice.portal_user, client=cast.alice, **CONTACT_CHOICES)
    cast.alice.status = cast.alice.Status.ARCHIVED
    cast.alice.save()
    login(cast.alice.portal_user).post(OFF)
    assert profile_of(cast.alice).safe_channels == []


BAD = {
    "malformed email": ({"email": "alice@"}, "email"),
    "huge email": ({"email": "a" * 300 + "@example.test"}, "email"),
    "email safe without an address": ({"email": ""}, "email"),
    "malformed phone": ({"phone": "12", "text_is_safe": "on"}, "phone"),
    "letters for a phone": ({"phone": "call me"}, "phone"),
    "texts safe without a number": ({"text_is_safe": "on"}, "phone"),
    "no time in the whole week": (
        {f"{d}_when": "never" for d in ("mon", "tue", "wed", "thu", "fri")},
        None,
    ),
    "between without a start": ({"mon_from": ""}, "mon_from"),
    "ends before it starts": ({"mon_from": "17:00", "mon_until": "09:00"}, "mon_until"),
    "a window of no time": ({"mon_from": "09:00", "mon_until": "09:00"}, "mon_until"),
    "a time that does not exist": ({"mon_from": "25:61"}, "mon_from"),
    "an unknown choice of day": ({"mon_when": "sometimes"}, "mon_when"),
    "an unknown time zone": ({"time_zone": "Nowhere/Atlantis"}, "time_zone"),
    "no time zone": ({"time_zone": ""}, "time_zone"),
    "an unknown spacing": ({"days_between": "5"}, "days_between"),
    "no time for the daily reminder": ({"recurring_reminder_at": ""}, "recurring_reminder_at"),
}


@pytest.mark.parametrize("change", BAD.values(), ids=BAD.keys())
def test_bad_input_for_each_field_is_refused_and_changes_nothing(cast, change):
    overrides, field = change
    contact_profile_update(actor=cast.alice.portal_user, client=cast.alice, **CONTACT_CHOICES)
    before = ContactProfile.objects.filter(client=cast.alice).values().get()
    logged = ContactChange.objects.count()

    response = login(cast.alice.portal_user).post(CONTACT, contact_form_data(**overrides))

    assert response.status_code == 400
    form = response.context["form"]
    assert form.errors.get(field) if field else form.non_field_errors(), form.errors
    assert 'id="error-summary"' in response.text
    assert ContactProfile.objects.filter(client=cast.alice).values().get() == before
    assert ContactChange.objects.count() == logged
    cast.alice.refresh_from_db()
    assert cast.alice.timezone != "Nowhere/Atlantis"


def test_an_address_or_number_on_another_clients_profile_is_refused_without_saying_whose(cast):
    contact_profile_update(
        actor=cast.bob.portal_user,
        client=cast.bob,
        **{**CONTACT_CHOICES, "email": "shared@example.test", "phone": "+447911123456"},
    )
    http = login(cast.alice.portal_user)

    response = http.post(
        CONTACT,
        contact_form_data(email="Shared@Example.test", text_is_safe="on", phone="07911 123456"),
    )

    assert response.status_code == 400
    errors = response.context["form"].errors
    assert "cannot be used for your reminders" in errors["email"][0]
    assert "cannot be used for your reminders" in errors["phone"][0]
    assert "Bob" not in response.text and "another client" not in response.text
    assert not ContactProfile.objects.filter(client=cast.alice).exists()


def test_the_portal_page_shows_the_clients_own_profile_only(cast):
    contact_profile_update(
        actor=cast.bob.portal_user,
        client=cast.bob,
        **{**CONTACT_CHOICES, "email": "bob.only@example.test"},
    )
    page = login(cast.alice.portal_user).get(CONTACT)
    assert "bob.only@example.test" not in page.text
    assert page.context["form"].initial["email"] == ""


def test_nobody_else_may_change_a_clients_profile(cast):
    for actor in (cast.bob.portal_user, cast.theo):
        with pytest.raises(PermissionDenied):
            contact_profile_update(actor=actor, client=cast.alice, **CONTACT_CHOICES)
        with pytest.raises(PermissionDenied):
            contact_profile_turn_off(actor=actor, client=cast.alice)
    assert not ContactProfile.objects.filter(client=cast.alice).exists()


@pytest.mark.parametrize(
    ("who", "change"),
    [
        ("client", {"status": "erased"}),
        ("therapist", {"status": "erased"}),
        ("therapist", {"therapist": "theo"}),
    ],
)
def test_a_save_that_waited_on_an_erasure_or_a_move_changes_nothing(cast, monkeypatch, who, change):
    """The client changes after the first check, as when the save queued on
    the erasure's (or the move's) lock on the client's row."""
    real_check = contact_services._as_staff

    def checked_then_changed(actor, client):
        as_staff = real_check(actor, client)
        fields = {k: getattr(cast, v) if k == "therapist" else v for k, v in change.items()}
        Client.objects.filter(pk=cast.alice.pk).update(**fields)
        return as_staff

    monkeypatch.setattr(contact_services, "_as_staff", checked_then_changed)
    actor = cast.alice.portal_user if who == "client" else cast.tara
    for save in (
        lambda: contact_profile_update(actor=actor, client=cast.alice, **CONTACT_CHOICES),
        lambda: contact_profile_turn_off(actor=actor, client=cast.alice),
    ):
        with pytest.raises(PermissionDenied):
            save()
    assert not ContactProfile.objects.filter(client=cast.alice).exists()
    assert not ContactChange.objects.filter(client=cast.alice).exists()


def test_the_form_is_labelled_with_a_fieldset_for_each_weekday(cast):
    page = login(cast.alice.portal_user).get(CONTACT).text
    for day in ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"):
        assert f"<legend>{day}</legend>" in page
    assert '<label for="id_phone">' in page and '<label for="id_mon_from">' in page


def test_the_therapists_change_is_shown_to_the_client(cast):
    contact_profile_update(actor=cast.tara, client=cast.alice, **CONTACT_CHOICES)
    page = login(cast.alice.portal_user).get(CONTACT).text
    assert "Tara, your therapist" in page
    assert "went through them together and changed: email turned on, email address" in page


def test_the_client_exports_their_contact_profile(cast):
    contact_profile_update(actor=cast.alice.portal_user, client=cast.alice, **CONTACT_CHOICES)
    exported = login(cast.alice.portal_user).get(reverse("homework:export_json")).json()
    profile = exported["contact_profile"]
    assert profile["email_is_safe"] is True
    assert profile["email"] == "alice.reminders@example.test"
    assert profile["safe_hours"]["sunday"] == hours.ANY_TIME
    # Her own save is her word that it is right: it counts as checked, by her.
    assert profile["last_checked_on"] == timezone.localdate().isoformat()
    assert profile["last_checked_by"] == "client"


def test_safe_hours_hold_a_message_to_the_next_window_across_a_clock_change():
    week = [[["09:00", "17:00"]]] * 7
    # The night the UK clocks go forward (30 March 2025): 20:00 Saturday → 09:00 Sunday BST.
    saturday_evening = dt.datetime(2025, 3, 29, 20, 0, tzinfo=dt.UTC)
    held_to = hours.next_safe_moment(week, zone="Europe/London", after=saturday_evening)
    assert held_to == dt.datetime(2025, 3, 30, 8, 0, tzinfo=dt.UTC)
    assert hours.is_safe_at(week, zone="Europe/London", moment=held_to)
    assert hours.next_safe_moment([[]] * 7, zone="Europe/London", after=held_to) is None


def test_a_number_taken_by_a_save_at_the_same_moment_is_refused_calmly(cast, monkeypatch):
    """Two clients saving one number at once both pass the service's check;
    the database's constraint then decides, and the loser is told calmly.
    (The other save commits after both checks: here, neither finds it.)"""
    contact_profile_update(
        actor=cast.bob.portal_user,
        client=cast.bob,
        **{**CONTACT_CHOICES, "email": "bob@example.test", "phone": "+447911123456"},
    )
    monkeypatch.setattr("clients.services.contact._refuse_taken", lambda *a, **k: None)
    monkeypatch.setattr(ContactProfile, "validate_constraints", lambda *a, **k: None)

    response = login(cast.alice.portal_user).post(
        CONTACT, contact_form_data(text_is_safe="on", phone="07911 123456")
    )

    assert response.status_code == 400
    assert "cannot be used for your reminders" in response.context["form"].errors["phone"][0]
    assert not ContactProfile.objects.filter(client=cast.alice).exists()
    assert not ContactChange.objects.filter(client=cast.alice).exists()


def test_no_weekday_is_chosen_for_the_client(cast):
    page = login(cast.alice.portal_user).get(CONTACT)
    form = page.context["form"]
    assert not any(name.endswith("_when") for name in form.initial)
    assert all(not day["when"].value() for day in form.days())
    assert "checked" not in "".join(str(day["when"]) for day in form.days())


def test_turning_a_channel_on_needs_a_choice_for_every_day(cast):
    data = contact_form_data(tue_when="", sun_when="")
    response = login(cast.alice.portal_user).post(CONTACT, data)
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert "on Tuesday" in errors["tue_when"][0] and "on Sunday" in errors["sun_when"][0]
    assert "mon_when" not in errors
    assert not ContactProfile.objects.filter(client=cast.alice).exists()


def test_a_profile_saved_without_hours_sends_nothing(cast):
    blank = {f"{day}_when": "" for day in ("mon", "tue", "wed", "thu", "fri", "sat", "sun")}
    data = contact_form_data(email_is_safe="", **blank)
    response = login(cast.alice.portal_user).post(CONTACT, data)
    assert response.status_code == 302, response.context["form"].errors
    profile = profile_of(cast.alice)
    assert profile.safe_hours == [] and not profile.hours_chosen
    # Even with a channel on (as an older row or a direct write might have it): nothing.
    ContactProfile.objects.filter(pk=profile.pk).update(email_is_safe=True)
    profile.refresh_from_db()
    assert profile.safe_channels == [] and not profile.allows(ContactProfile.Channel.EMAIL)
    assert not profiles_with_a_safe_channel().exists()
    now = dt.datetime(2025, 3, 29, 12, 0, tzinfo=dt.UTC)
    assert not hours.is_safe_at(profile.safe_hours, zone="Europe/London", moment=now)
    assert hours.next_safe_moment(profile.safe_hours, zone="Europe/London", after=now) is None
    assert "Not chosen yet" in hours_in_words(profile)[0]  # as the therapist reads it


def test_the_service_refuses_a_channel_with_no_hours_chosen(cast):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as refused:
        contact_profile_update(
            actor=cast.alice.portal_user,
            client=cast.alice,
            **{**CONTACT_CHOICES, "safe_hours": hours.no_hours_chosen()},
        )
    assert "safe_hours" in refused.value.error_dict
    assert not ContactProfile.objects.filter(client=cast.alice).exists()
