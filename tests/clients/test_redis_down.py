"""Redis gone (REDIS_URL names a closed port) while someone asks for a reset
and a therapist invites a client: each is answered promptly, and the email
is tried once, from the request. In a process of its own, as production runs
with Redis down: no eager tasks, the broker and the cache both unreachable."""

from typing import Any

import pytest

from clients.models import Invitation
from tests.factories import ClientFactory
from tests.helpers_workers import run_in_a_process_of_its_own
from tests.listener import SilentMailServer

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

RESET_AND_INVITE = """
import json
import django
django.setup()
from django.core import mail
from django.test import Client
from django.urls import reverse
from practice.models import User

reset = Client().post(reverse("clients:password_reset"), {{"email": "alice@example.test"}})
from tests.helpers import force_verified_login
staff = Client()
force_verified_login(staff, User.objects.get(pk={therapist}))
invite = staff.post(
    reverse("admin:clients_client_invite", args=[{client}]), {{"send_email": "1"}}, follow=True
)
print(json.dumps({{
    "statuses": [reset.status_code, invite.status_code],
    "sent": sorted(to for message in getattr(mail, "outbox", []) for to in message.to),
    "invite_says_not_sent": "could not be sent" in invite.text,
}}))
"""


def run_with_redis_down(cast, email_url: str) -> tuple[dict[str, Any], str]:
    invited = ClientFactory.create(
        therapist=cast.tara, portal_user=None, contact_email="robin@example.test"
    )
    script = RESET_AND_INVITE.format(therapist=cast.tara.pk, client=invited.pk)
    outcome, stderr = run_in_a_process_of_its_own(
        script,
        env={
            "REDIS_URL": "redis://127.0.0.1:1/0",  # port 1 refuses every connection
            "EMAIL_URL": email_url,
            "EMAIL_TIMEOUT": "1",
        },
        hung="a request hung with Redis down",
    )
    assert outcome["statuses"] == [302, 200], stderr
    assert Invitation.objects.filter(client=invited, revoked_at=None).count() == 1
    return outcome, stderr


def test_with_redis_down_a_reset_and_an_invitation_are_emailed_from_the_request(cast):
    outcome, log = run_with_redis_down(cast, "locmem://")
    assert outcome["sent"] == ["alice@example.test", "robin@example.test"]
    assert "running it here, once" in log


def test_with_redis_down_and_a_silent_mail_server_each_waits_for_one_try(cast):
    server = SilentMailServer()
    try:
        outcome, log = run_with_redis_down(cast, f"smtp://{server.host}:{server.port}")
    finally:
        server.close()
    assert server.connections == 2  # one for the reset, one for the invitation
    assert outcome["invite_says_not_sent"]  # the link is on the page, to pass on another way
    assert "send_password_reset(" in log and "was not retried" in log
