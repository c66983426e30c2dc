"""The practice's neutral sender name and subject, for each language it offers: its own words for
that language, else our default in it, else its own words as written."""

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse

from clients.services.discreet_email import send_discreet_email
from practice import services
from practice.languages import in_language
from practice.models import PracticeSettings
from practice.reminder_message import ReminderKind, reminder_message
from practice.selectors import forget_practice_settings, practice_settings
from tests.conftest import login, save_change_form
from tests.helpers import CHANGE, settings_form
from tests.helpers_discreet import assert_discreet

OWN = PracticeSettings(reminder_sender_name="Notes", reminder_subject="Something new")
GIVEN = PracticeSettings(
    reminder_sender_name="Notes",
    reminder_subject="Something new",
    reminder_sender_name_by_language={"es": "Notas"},
    reminder_subject_by_language={"es": "Algo nuevo"},
)


@pytest.mark.parametrize(
    ("practice", "language", "sender", "subject"),
    [
        (PracticeSettings(), "en-gb", "Notifications", "You have a new update"),
        (PracticeSettings(), "es", "Notificaciones", "Tienes una novedad"),
        (OWN, "es", "Notes", "Something new"),
        (GIVEN, "es", "Notas", "Algo nuevo"),
        (GIVEN, "en-gb", "Notes", "Something new"),
        (GIVEN, "", "Notes", "Something new"),
    ],
    ids=["default", "default in spanish", "own, no spanish", "spanish given", "english", "none"],
)
def test_each_language_reads_the_practices_words_or_falls_back(practice, language, sender, subject):
    assert practice.reminder_words_in("reminder_sender_name", language) == sender
    assert practice.reminder_words_in("reminder_subject", language) == subject


@pytest.mark.parametrize("practice", [PracticeSettings(), GIVEN], ids=["default", "given"])
def test_a_spanish_reminder_is_spanish_and_discreet(practice):
    with in_language("es"):
        message = reminder_message(practice_settings=practice, kinds=set(ReminderKind))
    assert message.subject == practice.reminder_words_in("reminder_subject", "es")
    assert message.sms.startswith(practice.reminder_words_in("reminder_sender_name", "es") + ": ")
    assert "Hola" in message.text and "Hello" not in message.text
    assert_discreet(message.subject, message.sender_name, message.text, message.html, message.sms)


def test_stored_clinical_spanish_words_fall_back_to_the_neutral_spanish_ones(caplog):
    old = PracticeSettings(reminder_subject_by_language={"es": "Tu terapia"})
    with in_language("es"):
        message = reminder_message(practice_settings=old, kinds={ReminderKind.TODAY})
    assert message.subject == "Tienes una novedad"
    assert "reminder_subject (es)" in caplog.text and "terapia" not in caplog.text


@pytest.mark.django_db
def test_an_invitation_goes_under_the_subject_of_the_clients_language(cast):
    services.practice_settings_update(
        actor=cast.morgan, reminder_subject_by_language={"es": "Algo nuevo"}
    )
    forget_practice_settings()
    context = {"url": "https://p.example/welcome/t/", "expires_at": None}
    for language in ("es", None):
        send_discreet_email(
            to="someone@example.org",
            template="clients/email/invitation",
            context=context,
            language=language,
        )
    assert [sent.subject for sent in mail.outbox] == ["Algo nuevo", "You have a new update"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"reminder_subject_by_language": {"es": "Tu terapia"}}, "reminder_subject_by_language"),
        (
            {"reminder_sender_name_by_language": {"es": "Notas\nBcc: x@y.z"}},
            "reminder_sender_name_by_language",
        ),
        ({"reminder_subject_by_language": {"de": "Neuigkeit"}}, "reminder_subject_by_language"),
    ],
    ids=["clinical", "two lines", "not offered"],
)
def test_the_service_refuses_words_no_client_should_get(cast, changes, field):
    with pytest.raises(ValidationError) as refused:
        services.practice_settings_update(actor=cast.morgan, **changes)
    assert field in refused.value.message_dict
    assert PracticeSettings.objects.get(pk=1).reminder_subject_by_language == {}


@pytest.mark.django_db
def test_the_settings_page_shows_one_field_per_language_and_refuses_at_it(
    cast, django_capture_on_commit_callbacks
):
    admin = login(cast.morgan)
    page = admin.get(reverse(CHANGE, args=[1])).text
    assert 'name="reminder_subject_es"' in page and 'lang="es"' in page
    assert "Tienes una novedad" in page  # what these clients see while it is left empty
    refused = save_change_form(
        admin, reverse(CHANGE, args=[1]), settings_form(reminder_subject_es="Tu terapia")
    )
    assert "terapia" in " ".join(refused.context["adminform"].form.errors["reminder_subject_es"])
    with django_capture_on_commit_callbacks(execute=True):
        saved = save_change_form(
            admin,
            reverse(CHANGE, args=[1]),
            settings_form(reminder_sender_name_es=" Notas ", reminder_subject_es="Algo nuevo"),
        )
    assert saved.status_code == 302
    row = practice_settings()
    assert row.reminder_sender_name_by_language == {"es": "Notas"}
    assert row.reminder_subject_by_language == {"es": "Algo nuevo"}
