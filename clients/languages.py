"""Which language each person reads: a client's from their record, staff's from their account."""

from typing import Any

from django.core.exceptions import ObjectDoesNotExist

from clients.models import Client
from practice.languages import language_or_default


def client_language(client: Client) -> str:
    return language_or_default(client.language)


def person_language(user: Any) -> str:
    """Signed-out visitors have none: their browser's language is asked instead."""
    if getattr(user, "is_client", False):
        try:
            client = user.client_profile
        except ObjectDoesNotExist:
            return language_or_default(None)
        return client_language(client)
    return language_or_default(getattr(user, "language", None))
