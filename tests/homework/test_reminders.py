"""Reminders in-process: the scan writes one row per client and day in a
fixed number of queries; the send goes through the client's safe channel
once, never after they said stop, and retries a failing provider a bounded
number of times without losing the row."""

import datetime as dt
import zoneinfo

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clients.contact import hours
from clients.contact.models import ContactProfile
from clients.models import Client
from homework.models import Assignment, Entry, OutboxMessage
from homework.reminders.services import (
    REMINDER_TRIES,
    ReminderNotSent,
    reminder_send,
    reminders_scan,
)
from homework.tasks import REMINDER_RETRY_MAX_SECONDS
from practice import sms
from practice.models import PracticeSettings, User
from practice.selectors import forget_practice_settings, practice_settings
from tests.conftest import login
from tests.factories import AssignmentFactory, ClientFactory, ExerciseFactory
from tests.helpers_discreet import assert_discreet, readable_parts
from tests.helpers_reminders import reminded_client as reminded_on
from tests.helpers_sms import HANG, FakeProvider

pytestmark = pytest.mark.django_db

LONDON = zoneinfo.ZoneInfo("Europe/London")
DAY = dt.date(2026, 6, 10)
EVENING = dt.datetime(2026, 6, 10, 18, 30, tzinfo=LONDON)


def reminded_client(*, text: bool = False, **profile: object) -> Client:
    return reminded_on(day=DAY, text=text, **profile)


def reminders() -> list[OutboxMessage]:
    return list(OutboxMessage.objects.filter(kind=OutboxMessage.Kind.REMINDER))


def test_two_scans_write_one_reminder_per_client_and_day(cast):
    client = reminded_client()
    first = reminders_scan(now=EVENING)
    second = reminders_scan(now=EVENING + dt.timedelta(minutes=5))
    [row] = reminders()
    assert row.slot == f"reminder:{client.pk}:{DAY.isoformat()}" and row.channel == "email"
    assert row.reminder_kinds == ["today"] and row.recipient_id == client.portal_user_id
    # Both scans list it as ready: the send's lock makes it go once.
    assert first.ready == second.ready == [row.pk]
    assert reminder_send(message_id=row.pk, now=EVENING) == "sent"
    assert reminder_send(message_id=row.pk, now=EVENING) == "skipped"
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [f"safe-{client.pk}@example.test"]


def test_a_send_is_one_locking_read_and_one_write(cast, django_assert_num_queries):
    # Each round trip is most of a send's time (bench.reminders): the row and
    # the profile are locked in one read, the result written in one update,
    # and nothing else (no nested savepoint, no re-read) in its transaction.
    reminded_client()
    [ready] = reminders_scan(now=EVENING).ready
    practice_settings()  # cached, as on a worker after its first send
    # Four: the read and the write, inside the savepoint pair that the
    # test's own transaction turns the send's BEGIN and COMMIT into.
    with django_assert_num_queries(4):
        assert reminder_send(message_id=ready, now=EVENING) == "sent"


def test_no_profile_or_no_safe_channel_means_nothing_is_written(cast):
    ClientFactory.create()  # no profile at all
    turned_off = reminded_client()
    ContactProfile.objects.filter(client=turned_off).update(email_is_safe=False)
    assert reminders_scan(now=EVENING).due == 0
    assert reminders() == []


def _many_clients(count: int) -> None:
    therapist = User.objects.create(email=f"t{count}@example.test", role=User.Role.THERAPIST)
    users = User.objects.bulk_create(
        User(email=f"c{count}-{n}@example.test", role=User.Role.CLIENT) for n in range(count)
    )
    clients = Client.objects.bulk_create(
        Client(
            therapist=therapist, display_name=f"C{n}", portal_user=user, timezone="Europe/London"
        )
        for n, user in enumerate(users)
    )
    ContactProfile.objects.bulk_create(
        ContactProfile(
            client=c,
            email_is_safe=True,
            email=f"r{c.pk}@example.test",
            safe_hours=hours.any_time_every_day(),
        )
        for c in clients
    )
    exercise = ExerciseFactory.create()
    for schedule in ("daily", "once"):
        Assignment.objects.bulk_create(
            Assignment(
                client=c,
                exercise=exercise,
                created_by=therapist,
                schedule=schedule,
                starts_on=DAY - dt.timedelta(days=3),
                due_on=None if schedule == "daily" else DAY + dt.timedelta(days=1),
                ends_on=DAY + dt.timedelta(days=10) if schedule == "daily" else None,
            )
            for c in clients
        )


@pytest.mark.parametrize("count", [10, 1000])
def test_the_scan_takes_the_same_queries_for_ten_clients_and_a_thousand(cast, count):
    _many_clients(count)
    with CaptureQueriesContext(connection) as queries:
        scanned = reminders_scan(now=EVENING)
    assert scanned.due == count and len(scanned.ready) == count
    inserts = [q for q in queries if q["sql"].startswith("INSERT")]
    # Reads are fixed; the one insert is split only by SQLite's limit on
    # parameters per statement (PostgreSQL takes it whole).
    assert len(queries) - len(inserts) <= 7, [q["sql"][:80] for q in queries]
    if connection.vendor == "postgresql":
        assert len(inserts) == 1
    kinds = {tuple(row.reminder_kinds) for row in reminders()}
    assert kinds == {("today", "due-soon")}  # everything due, in one message


def test_a_client_who_turns_reminders_off_after_the_scan_is_sent_nothing(cast):
    client = reminded_client()
    [ready] = reminders_scan(now=EVENING).ready
    ContactProfile.objects.filter(client=client).update(email_is_safe=False)
    assert reminder_send(message_id=ready, now=EVENING) == "not-sent"
    row = OutboxMessage.objects.get(pk=ready)
    assert (row.state, row.reason) == ("not-sent", "turned-off")
    assert mail.outbox == []
    assert reminders_scan(now=EVENING).ready == []  # and no scan picks it up again


def test_hours_changed_after_the_scan_hold_it_to_the_next_safe_moment(cast):
    client = reminded_client()
    [ready] = reminders_scan(now=EVENING).ready
    evenings = [[["20:00", "22:00"]] for _day in range(7)]
    ContactProfile.objects.filter(client=client).update(safe_hours=evenings)
    assert reminder_send(message_id=ready, now=EVENING) == "held"
    row = OutboxMessage.objects.get(pk=ready)
    assert row.reason == "outside-safe-hours"
    assert row.send_after == dt.datetime(2026, 6, 10, 20, tzinfo=LONDON)
    assert reminders_scan(now=EVENING + dt.timedelta(minutes=5)).ready == []
    at_eight = dt.datetime(2026, 6, 10, 20, 1, tzinfo=LONDON)
    assert reminders_scan(now=at_eight).ready == [ready]
    assert reminder_send(message_id=ready, now=at_eight) == "sent"
    assert len(mail.outbox) == 1


@pytest.mark.parametrize("answer", [500, HANG], ids=["500", "timeout"])
def test_a_failing_text_provider_is_retried_then_given_up_and_nothing_is_lost(
    cast, settings, answer
):
    client = reminded_client(text=True)
    with FakeProvider() as provider:
        provider.answer(answer)
        settings.SMS_BACKEND = "practice.sms.twilio.TwilioBackend"
        settings.SMS_OPTIONS = {
            "account_sid": "AC1",
            "auth_token": "secret",
            "from_number": "+447700900999",
            "messaging_service_sid": "",
            "base_url": provider.url,
        }
        settings.SMS_CONNECT_TIMEOUT = settings.SMS_READ_TIMEOUT = 1
        [ready] = reminders_scan(now=EVENING).ready
        outcomes = []
        for _try in range(REMINDER_TRIES):
            try:
                outcomes.append(reminder_send(message_id=ready, now=EVENING))
            except ReminderNotSent:
                outcomes.append("failed")
        assert outcomes == ["failed"] * (REMINDER_TRIES - 1) + ["given-up"]
        assert len(provider.requests) == REMINDER_TRIES
        assert provider.requests[0].form["To"] == str(client.contact_profile.phone)
    row = OutboxMessage.objects.get(pk=ready)
    assert (row.state, row.attempts) == ("given-up", REMINDER_TRIES)
    assert row.last_error.startswith("SmsTransientError")
    assert reminders_scan(now=EVENING).ready == []


def test_a_retry_waits_less_than_the_brokers_visibility_timeout(settings):
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert visibility > REMINDER_RETRY_MAX_SECONDS


CANARIES = ("Zanzibar-Canary", "Quokka-Canary", "Ptarmigan-Canary", "Axolotl-Canary")


def test_every_reminder_is_discreet_whatever_the_clients_data(cast):
    """Every kind, by email and by text, for a client whose names, titles,
    instructions and entries are full of canaries: none reach a message."""
    for text in (False, True):
        client = reminded_client(text=text)
        Client.objects.filter(pk=client.pk).update(display_name=CANARIES[0])
        assert client.portal_user is not None
        User.objects.filter(pk=client.portal_user.pk).update(name=CANARIES[1])
        exercise = ExerciseFactory.create(title=CANARIES[2], instructions=CANARIES[3])
        Assignment.objects.filter(client=client).update(exercise=exercise, instructions=CANARIES[3])
        for due_on in (DAY, DAY - dt.timedelta(days=2)):
            AssignmentFactory.create(
                client=client, exercise=exercise, instructions=CANARIES[0],
                starts_on=DAY - dt.timedelta(days=5), due_on=due_on,
            )  # fmt: skip
    Entry.objects.update(response={"what_happened": CANARIES[0]})
    ready = reminders_scan(now=EVENING).ready
    assert len(ready) == 2
    for message_id in ready:
        assert reminder_send(message_id=message_id, now=EVENING) == "sent"
    assert {tuple(row.reminder_kinds) for row in reminders()} == {
        ("today", "due-soon", "past-its-day")
    }
    [email] = mail.outbox
    assert_discreet(*readable_parts(email), canaries=CANARIES)
    [text_message] = sms.outbox
    assert_discreet(text_message.body, canaries=CANARIES)


def test_the_command_runs_one_scan_here_and_says_what_it_did(cast, capsys, time_machine):
    time_machine.move_to(EVENING)
    reminded_client()
    held = reminded_client(safe_hours=[[["20:00", "22:00"]] for _day in range(7)])
    call_command("send_reminders")
    out = capsys.readouterr().out
    assert "2 due; 1 sent; 1 waiting for safe hours." in out
    assert held.display_name not in out and "@" not in out


def test_the_therapists_client_page_shows_held_and_closed_reminders_with_why(cast):
    held = reminded_client(safe_hours=[[["20:00", "22:00"]] for _day in range(7)])
    reminders_scan(now=EVENING)
    OutboxMessage.objects.create(
        kind=OutboxMessage.Kind.REMINDER,
        client=held,
        recipient_id=held.portal_user.pk,  # type: ignore[union-attr]
        slot=f"reminder:{held.pk}:2026-06-09",
        slot_on=DAY - dt.timedelta(days=1),
        channel="email",
        state=OutboxMessage.State.NOT_SENT,
        reason=OutboxMessage.Reason.TURNED_OFF,
    )
    page = login(held.therapist).get(f"/admin/clients/client/{held.pk}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "held until 10 Jun, 20:00" in text and "Waiting for the client&#x27;s safe hours" in text
    assert "not sent" in text and "turned this way of contact off" in text
    other = login(cast.theo).get(f"/admin/clients/client/{held.pk}/change/")
    assert other.status_code in (302, 404)


@pytest.mark.parametrize(
    ("reminders_subject", "subject"),
    [({}, "Tienes una novedad"), ({"es": "Algo nuevo"}, "Algo nuevo")],
    ids=["our default", "the practices own"],
)
def test_a_spanish_speaking_clients_reminder_is_spanish_and_discreet(
    cast, reminders_subject, subject
):
    PracticeSettings.objects.filter(pk=1).update(reminder_subject_by_language=reminders_subject)
    forget_practice_settings()
    for text in (False, True):
        client = reminded_client(text=text)
        Client.objects.filter(pk=client.pk).update(language="es")
    for message_id in reminders_scan(now=EVENING).ready:
        assert reminder_send(message_id=message_id, now=EVENING) == "sent"
    [email] = mail.outbox
    [text_message] = sms.outbox
    assert email.subject == subject and email.from_email.startswith("Notificaciones <")
    assert "Hola" in email.body and "Hello" not in email.body
    assert text_message.body.startswith("Notificaciones: Hoy tienes algo que mirar.")
    assert_discreet(*readable_parts(email), text_message.body)
