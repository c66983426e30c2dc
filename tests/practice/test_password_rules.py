"""The practice's password rules, said in the portal's voice.

Django's texts ("This password is too short. It must contain at least 8
characters.") read like a system refusing; a client choosing a password,
perhaps in a hurry and afraid, is told what would work instead.
"""

import html

import pytest
from django.contrib.auth import password_validation as django_rules
from django.contrib.auth.password_validation import password_validators_help_texts
from django.test import Client as HttpClient
from django.urls import reverse

from clients import services
from clients.models import Client
from tests.factories import ClientFactory
from tests.helpers import accept, token_of

DJANGO_WORDS = [
    django_rules.MinimumLengthValidator(min_length=8).get_error_message(),
    django_rules.MinimumLengthValidator(min_length=8).get_help_text(),
    django_rules.CommonPasswordValidator().get_error_message(),
    django_rules.CommonPasswordValidator().get_help_text(),
    django_rules.UserAttributeSimilarityValidator().get_help_text(),
    str(django_rules.UserAttributeSimilarityValidator().get_error_message()).split("%")[0],
]


@pytest.fixture
def welcome_token(cast) -> str:
    """A link for a client of Tara's with no portal account yet."""
    casey: Client = ClientFactory.create(
        therapist=cast.tara, portal_user=None, contact_email="casey@example.test"
    )
    return token_of(services.client_invite(actor=cast.tara, client=casey))


@pytest.mark.parametrize(
    ("password", "said"),
    [
        ("short1", "This is shorter than 8 characters."),
        ("password", "Many people use this password, so it is easy to guess."),
        ("casey@example.test", "This is too close to your email, so it is easy to guess."),
    ],
)
def test_a_weak_password_is_refused_in_plain_words(welcome_token, password, said):
    page = accept(HttpClient(), welcome_token, password1=password, password2=password)
    text = html.unescape(page.content.decode())
    assert page.status_code == 400
    assert said in text
    assert not [words for words in DJANGO_WORDS if words in text]


def test_the_rules_are_said_before_a_password_is_chosen(welcome_token):
    http = HttpClient()
    http.get(reverse("clients:welcome", args=[welcome_token]))
    text = html.unescape(http.get(reverse("clients:welcome_password")).content.decode())
    assert "At least 8 characters" in text
    assert not [words for words in DJANGO_WORDS if words in text]
    assert all(str(rule) in text for rule in password_validators_help_texts())
