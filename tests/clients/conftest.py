"""Fixtures shared by the client tests."""

import pytest

from clients.models import Client
from tests.factories import ClientFactory


@pytest.fixture
def newcomer(cast) -> Client:
    """Tara's client without a portal account yet, with an email to invite."""
    return ClientFactory.create(
        therapist=cast.tara,
        display_name="Casey",
        portal_user=None,
        contact_email="casey@example.test",
    )
