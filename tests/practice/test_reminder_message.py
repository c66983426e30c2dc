"""A reminder's words name nothing: every kind, alone and batched, checked for clinical words."""

from itertools import combinations

import pytest
from django.core.exceptions import ValidationError

from practice import services
from practice.discreet import clinical_words
from practice.languages import in_language
from practice.models import PracticeSettings
from practice.reminder_message import ReminderKind, reminder_email, reminder_message
from tests.helpers_discreet import FORBIDDEN_WORDS, assert_discreet, readable_parts

EVERY_BATCH = [set(kinds) for size in (1, 2, 3) for kinds in combinations(list(ReminderKind), size)]
# A practice whose own name and crisis lines are full of clinical words: a
# reminder must use neither.
CLINICAL_PRACTICE = PracticeSettings(
    name="Harbour Therapy and Trauma Clinic",
    crisis_resources="Domestic abuse helpline: 0808 2000 247",
    reminder_sender_name="Notes",
    reminder_subject="Something new",
)


def test_the_project_list_catches_every_forbidden_word():
    assert all(clinical_words(word) for word in FORBIDDEN_WORDS)


@pytest.mark.parametrize("kinds", EVERY_BATCH, ids=lambda kinds: "+".join(sorted(kinds)))
def test_every_reminder_names_nothing_clinical_anywhere(kinds):
    message = reminder_message(practice_settings=CLINICAL_PRACTICE, kinds=kinds)
    email = reminder_email(message=message, to="someone@example.org")
    assert_discreet(
        message.subject,
        message.text,
        message.html,
        message.sms,
        message.link,
        *readable_parts(email),
        canaries=("Harbour", "0808"),
    )
    assert message.subject == "Something new"
    assert email.from_email.startswith("Notes <")
    assert message.link == "http://127.0.0.1:8000/login/"  # no token, no id
    assert message.link in message.text and message.link in message.html
    assert message.sms.startswith("Notes: ") and message.sms.endswith(message.link)
    # One text-message segment, so it arrives whole and costs one.
    assert len(message.sms) <= 160


def test_a_batched_reminder_says_what_each_kind_says_and_counts_nothing():
    every = reminder_message(practice_settings=PracticeSettings(), kinds=set(ReminderKind))
    for kind in ReminderKind:
        alone = reminder_message(practice_settings=PracticeSettings(), kinds={kind})
        assert set(alone.text.splitlines()) <= set(every.text.splitlines()), kind
    assert not any(char.isdigit() for char in every.text.replace(every.link, ""))


def test_our_own_sender_and_subject_are_in_the_readers_language_and_the_practices_as_written():
    defaults = PracticeSettings()
    with in_language("es"):
        ours = reminder_message(practice_settings=defaults, kinds={ReminderKind.TODAY})
        written = reminder_message(practice_settings=CLINICAL_PRACTICE, kinds={ReminderKind.TODAY})
    assert (ours.sender_name, ours.subject) == ("Notificaciones", "Tienes una novedad")
    assert (written.sender_name, written.subject) == ("Notes", "Something new")


def test_stored_clinical_words_fall_back_to_neutral_ones(caplog):
    # Saved before the settings page refused such words, or changed in the database.
    old = PracticeSettings(
        reminder_sender_name="Your therapist", reminder_subject="Session\nBcc: x@y.z"
    )
    message = reminder_message(practice_settings=old, kinds={ReminderKind.TODAY})
    assert (message.sender_name, message.subject) == ("Notifications", "You have a new update")
    assert_discreet(
        message.text,
        message.sms,
        *readable_parts(reminder_email(message=message, to="a@example.org")),
    )
    assert "reminder_sender_name" in caplog.text and "therapist" not in caplog.text


def test_a_reminder_about_nothing_is_a_bug_not_a_message():
    with pytest.raises(ValueError, match="at least one"):
        reminder_message(practice_settings=PracticeSettings(), kinds=set())
    with pytest.raises(ValueError, match="overdue"):
        reminder_message(practice_settings=PracticeSettings(), kinds={"overdue"})


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("reminder_subject", "Before your session"),
        ("reminder_subject", "Urgent: please sign in"),
        ("reminder_sender_name", "Safety team"),
    ],
)
def test_the_practice_cannot_set_the_newly_listed_words(cast, field, value):
    with pytest.raises(ValidationError) as refused:
        services.practice_settings_update(actor=cast.morgan, **{field: value})
    assert field in refused.value.message_dict
    assert getattr(PracticeSettings.objects.get(pk=1), field) != value
