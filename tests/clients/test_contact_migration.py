"""Migration 0011 moves what the old "Reminders" fields said onto each
client's contact profile, and turns nothing on: staff set those fields,
so they never count as the client saying a channel is safe."""

import datetime as dt

import pytest

from tests.factories import TherapistFactory
from tests.helpers_migrations import migrate, migrate_to_latest

BEFORE = [("clients", "0010_invitation_finish_by_email")]
AFTER = [("clients", "0011_contact_profile")]


@pytest.fixture
def before_the_profile(transactional_db):
    yield migrate(BEFORE)
    migrate_to_latest()


def test_old_reminder_settings_move_to_the_profile_with_every_channel_off(before_the_profile):
    Client = before_the_profile.get_model("clients", "Client")
    therapist = TherapistFactory.create()

    def client(name, **fields):
        return Client.objects.create(therapist_id=therapist.pk, display_name=name, **fields).pk

    overnight = client(
        "Overnight",
        reminder_channel="email",
        contact_email="Night@Example.test",
        quiet_hours_start=dt.time(22, 0),
        quiet_hours_end=dt.time(8, 0),
    )
    midday = client("Midday", quiet_hours_start=dt.time(12, 0), quiet_hours_end=dt.time(14, 30))
    same_email = client("Same", reminder_channel="email", contact_email="night@example.test")
    no_reminders = client("Plain", contact_email="plain@example.test")
    erased = client("", status="erased")

    apps = migrate(AFTER)
    ContactProfile = apps.get_model("clients", "ContactProfile")
    profiles = {p.client_id: p for p in ContactProfile.objects.all()}

    assert not any(p.email_is_safe or p.text_is_safe for p in profiles.values())
    assert all(p.checked_on is None for p in profiles.values())
    assert profiles[overnight].email == "night@example.test"
    assert profiles[overnight].safe_hours == [[["08:00", "22:00"]]] * 7
    # Quiet in the middle of the day: the longer safe stretch is kept (fewer hours, never more).
    assert profiles[midday].safe_hours == [[["00:00", "12:00"]]] * 7
    assert profiles[same_email].email == ""  # one address, one client
    assert profiles[no_reminders].email == ""  # no email reminders were chosen
    assert profiles[no_reminders].safe_hours == []  # no quiet hours: not chosen, not "any time"
    assert erased not in profiles
