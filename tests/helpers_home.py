"""A therapist's caseload with a week of daily logs, for the admin home's grouped list."""

import datetime as dt

from django.utils import timezone

from clients.models import Client
from practice.models import User
from tests.factories import ClientFactory, EntryFactory, SessionFactory, daily_urge_log

NAMES = (
    "Alex Avery Ashdown", "Blair", "Casey", "Dana", "Eden", "Flynn", "Gray", "Harper", "Indigo",
    "Jules", "Kai", "Lee", "Morgan", "Noor", "Oakley", "Parker", "Quinn", "Rowan", "Sage",
    "Taylor", "Umi", "Vale", "Wren", "Yael", "Zuri",
)  # fmt: skip


def a_week_of_daily_logs(therapist: User, *, clients: int = 25) -> list[Client]:
    """Each client sent a daily urge log for the last seven days; the first also felt unsafe
    (an open alert) and the second wants to talk; two sessions today and two tomorrow."""
    now = timezone.now()
    # Each log is sent at noon: the week ends on the last noon already past.
    start = timezone.localdate(now - dt.timedelta(hours=12)) - dt.timedelta(days=6)
    made = []
    for number in range(clients):
        client = ClientFactory.create(therapist=therapist, display_name=NAMES[number % len(NAMES)])
        daily_urge_log(client, start=start, days=7, intensity=lambda day: 8 - day)
        made.append(client)
        if number < 2:
            EntryFactory.create(
                assignment__client=client,
                submitted_at=now - dt.timedelta(hours=2),
                felt_unsafe=number == 0,
                discuss_in_session=number == 1,
            )
    for client, hours in zip(made, (1, 2, 25, 26), strict=False):
        SessionFactory.create(client=client, starts_at=now + dt.timedelta(hours=hours))
    return made
