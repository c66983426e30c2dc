"""A client the reminders reach: a safe way to be contacted at any hour,
and daily work that is due on ``day``."""

import datetime as dt

from clients.contact import hours
from clients.contact.models import ContactProfile
from clients.models import Client
from tests.factories import ClientFactory, daily_assignment


def reminded_client(*, day: dt.date, text: bool = False, **profile: object) -> Client:
    """By email, or by text with ``text``; ``profile`` overrides the contact profile."""
    client = ClientFactory.create()
    ContactProfile.objects.create(
        client=client,
        email_is_safe=not text,
        email=f"safe-{client.pk}@example.test",
        text_is_safe=text,
        phone="+447700900123" if text else "",
        **{"safe_hours": hours.any_time_every_day(), **profile},
    )
    daily_assignment(
        client, starts_on=day - dt.timedelta(days=3), ends_on=day + dt.timedelta(days=10)
    )
    return client
