"""Discretion in every language offered: each message, in each, names nothing clinical."""

import datetime as dt
from itertools import combinations
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.core import mail
from django.template.loader import render_to_string
from django.utils import timezone

from clients.services.discreet_email import send_discreet_email
from practice.discreet import clinical_words
from practice.languages import in_language
from practice.models import PracticeSettings
from practice.reminder_message import ReminderKind, reminder_email, reminder_message
from tests.helpers_discreet import FORBIDDEN_WORDS_ES, assert_discreet, readable_parts

LANGUAGES = [code for code, _name in settings.LANGUAGES]
EVERY_BATCH = [set(kinds) for size in (1, 2, 3) for kinds in combinations(list(ReminderKind), size)]
CLIENT_EMAILS: dict[str, dict[str, object]] = {
    "clients/email/invitation": {"url": "https://p.example/welcome/t/"},
    "clients/email/finish-sign-in": {"url": "https://p.example/welcome/finish/t/"},
    "clients/email/address-in-use": {
        "sign_in_url": "https://p.example/login/",
        "reset_url": "https://p.example/password/reset/",
    },
    "clients/email/password-reset": {"url": "https://p.example/password/reset/x/y/"},
}
STAFF_EMAILS = (
    "homework/email/alert-escalated",
    "homework/email/digest",
    "homework/email/flagged-entry",
    "homework/email/new-entry",
)


@pytest.mark.parametrize(
    "text",
    [
        *FORBIDDEN_WORDS_ES,
        "Tu Terapeuta",
        "Tienes TAREAS nuevas",
        "la psicóloga",
        "antes de la sesión",
        "salud-mental",
        "tu plan de seguridad",
        "TERAPÉUTICO",
        "víctimas",
    ],
)
def test_the_spanish_list_finds_clinical_words_however_written(text):
    assert clinical_words(text)


@pytest.mark.parametrize("text", ["Tienes una novedad", "Notificaciones", "posesión", "Suiza"])
def test_everyday_spanish_passes(text):
    assert clinical_words(text) == []


# Our defaults, said in each language; and a practice's own words for each.
PRACTICES = {
    "default": PracticeSettings(),
    "own words": PracticeSettings(
        reminder_sender_name="Notes",
        reminder_subject="Something new",
        reminder_sender_name_by_language={"es": "Notas"},
        reminder_subject_by_language={"es": "Algo nuevo"},
    ),
}


@pytest.mark.parametrize("practice", PRACTICES.values(), ids=PRACTICES.keys())
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.django_db
def test_every_message_names_nothing_clinical_in_each_language(language, practice):
    for kinds in EVERY_BATCH:
        with in_language(language):
            message = reminder_message(practice_settings=practice, kinds=kinds)
        email = reminder_email(message=message, to="someone@example.org")
        assert message.subject == practice.reminder_words_in("reminder_subject", language)
        assert_discreet(message.subject, message.sms, *readable_parts(email))
    expires_at = timezone.now() + dt.timedelta(days=7)
    for template, context in CLIENT_EMAILS.items():
        context = {**context, "expires_at": expires_at}
        assert send_discreet_email(
            to="someone@example.org", template=template, context=context, language=language
        )
    assert len(mail.outbox) == len(CLIENT_EMAILS)
    for sent in mail.outbox:
        assert_discreet(*readable_parts(sent))
    staff = SimpleNamespace(get_short_name=lambda: "Sam")
    week = SimpleNamespace(flags_to_read=2, new_entries=5, done=3)
    staff_context: dict[str, object] = {
        "manager": staff,
        "therapist": staff,
        "hours": 24,
        "week": week,
        "due": 4,
    }
    with in_language(language):
        for template in STAFF_EMAILS:
            for part in ("subject.txt", "body.txt", "body.html"):
                assert_discreet(render_to_string(f"{template}-{part}", staff_context))
