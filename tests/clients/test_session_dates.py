"""Session times stay within a few years of today.

"Since last session" and the summary start from the previous session: a
session typed as 1900 would have them cover a century, round the summary's
own limit on chosen dates.
"""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from clients import services
from clients.models import SESSION_BEHIND_DAYS, Session
from tests.factories import SessionFactory


def test_the_service_refuses_a_session_long_ago(cast):
    with pytest.raises(ValidationError) as refused:
        services.session_schedule(
            actor=cast.tara,
            client=cast.alice,
            starts_at=timezone.now() - dt.timedelta(days=SESSION_BEHIND_DAYS + 2),
        )
    assert "starts_at" in refused.value.message_dict
    assert not Session.objects.filter(client=cast.alice).exists()


def test_the_service_refuses_to_move_a_session_to_1900(cast):
    session = SessionFactory.create(client=cast.alice)
    with pytest.raises(ValidationError):
        services.session_reschedule(
            actor=cast.tara,
            session=session,
            starts_at=timezone.make_aware(dt.datetime(1900, 1, 1, 10, 30)),
        )
