"""The practice's sender name and subject go into every email's headers:
a line break there is refused when typed, and one already stored never
turns an invitation into a 500."""

import logging

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse

from clients import services as client_services
from clients.models import Invitation
from practice import services
from practice.models import PracticeSettings
from practice.selectors import forget_practice_settings
from tests.conftest import login, save_change_form
from tests.factories import ClientFactory
from tests.helpers import CHANGE, settings_form

HEADER_FIELDS = ["reminder_sender_name", "reminder_subject"]
BROKEN = [
    "Notif\r\nBcc: x@y.z",
    "Notif\nBcc: x@y.z",
    "Notif\rications",
    "Notif\x1b[31mications",
    "Up\u2028date",
]


@pytest.mark.parametrize("value", BROKEN)
@pytest.mark.parametrize("field", HEADER_FIELDS)
def test_a_line_break_in_a_header_setting_is_refused_on_its_field(cast, field, value):
    before = PracticeSettings.objects.get(pk=1)
    response = save_change_form(
        login(cast.morgan), reverse(CHANGE, args=[1]), settings_form(**{field: value})
    )
    assert response.status_code == 200
    errors = " ".join(response.context["adminform"].form.errors.get(field, []))
    assert "one line" in errors, response.context["adminform"].form.errors
    assert getattr(PracticeSettings.objects.get(pk=1), field) == getattr(before, field)


@pytest.mark.parametrize("field", HEADER_FIELDS)
def test_the_service_refuses_a_line_break_in_a_header_setting(cast, field):
    with pytest.raises(ValidationError) as refused:
        services.practice_settings_update(actor=cast.morgan, **{field: "Notif\r\nBcc: x@y.z"})
    assert field in refused.value.message_dict


@pytest.fixture
def stored_line_break(cast):
    """A value from before the check: written past validation, as an old row might be."""
    PracticeSettings.objects.filter(pk=1).update(reminder_sender_name="Notif\r\nBcc: x@y.z")
    forget_practice_settings()


@pytest.fixture
def newcomer(cast):
    return ClientFactory.create(
        therapist=cast.tara, portal_user=None, contact_email="casey@example.test"
    )


def test_a_stored_line_break_does_not_stop_the_invitation(
    cast, newcomer, stored_line_break, caplog, django_capture_on_commit_callbacks
):
    with (
        caplog.at_level(logging.ERROR, logger="clients.services"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        issued = client_services.client_invite(actor=cast.tara, client=newcomer, send_email=True)
    issued.invitation.refresh_from_db()
    # Trying again cannot help until a manager corrects the settings: given up, and said so.
    assert issued.url and issued.invitation.email_state == "given-up"
    assert mail.outbox == []
    assert "header" in caplog.text


@pytest.mark.django_db(transaction=True)  # the page is made after the invitation commits
def test_the_therapist_is_told_the_invitation_email_was_not_sent(cast, newcomer, stored_line_break):
    response = login(cast.tara).post(
        reverse("admin:clients_client_invite", args=[newcomer.pk]), {"send_email": "1"}, follow=True
    )
    assert response.status_code == 200
    assert "The email could not be sent" in response.text
    assert Invitation.objects.filter(client=newcomer).exists()
