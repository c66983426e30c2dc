"""An alert not acknowledged within the practice's limit goes to the managers once, discreetly,
through the outbox; the beat looks every five minutes (eager here: no Redis)."""

import datetime as dt

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.test import TestCase
from django.utils import timezone

from homework import tasks
from homework.models import Alert, OutboxMessage
from homework.services.alerts import alert_acknowledge
from homework.services.escalation import alerts_escalate
from practice.models import PracticeSettings
from practice.selectors import forget_practice_settings
from tests.conftest import login, save_change_form
from tests.factories import ManagerFactory
from tests.helpers import settings_form
from tests.helpers_alerts import send_felt_unsafe
from tests.helpers_discreet import assert_discreet, readable_parts

pytestmark = pytest.mark.django_db

SETTINGS = "/admin/practice/practicesettings/1/change/"


def escalate_at(moment: dt.datetime) -> int:
    with time_machine.travel(moment, tick=False), TestCase.captureOnCommitCallbacks(execute=True):
        return tasks.escalate_alerts.delay().get()


def escalations() -> list[OutboxMessage]:
    return list(OutboxMessage.objects.filter(kind=OutboxMessage.Kind.ESCALATION))


def test_an_alert_left_past_the_limit_goes_to_the_manager_once_naming_no_one(cast):
    entry = send_felt_unsafe(cast)
    alert = Alert.objects.get()
    mail.outbox.clear()
    escalate_at(alert.raised_at + dt.timedelta(hours=23, minutes=59))
    assert escalations() == [] and mail.outbox == []

    escalate_at(alert.raised_at + dt.timedelta(hours=24))
    [message] = escalations()
    assert (message.recipient, message.client, message.alert) == (cast.morgan, cast.alice, alert)
    assert message.state == OutboxMessage.State.SENT
    alert.refresh_from_db()
    assert alert.escalated_at == alert.raised_at + dt.timedelta(hours=24)
    [email] = mail.outbox
    assert email.to == ["morgan@example.test"]
    assert "soon" in email.subject and "24 hours" in email.body
    assert_discreet(
        *readable_parts(email),
        canaries=("Alice", "alice@", "Tara", entry.assignment.exercise.title, "unsafe"),
    )

    escalate_at(alert.raised_at + dt.timedelta(hours=30))
    assert len(escalations()) == 1 and len(mail.outbox) == 1


def test_every_active_manager_is_told_and_no_one_else(cast):
    second = ManagerFactory.create(email="mo@example.test")
    ManagerFactory.create(email="gone@example.test", is_active=False)
    send_felt_unsafe(cast)
    alert = Alert.objects.get()
    escalate_at(alert.raised_at + dt.timedelta(days=2))
    assert {m.recipient for m in escalations()} == {cast.morgan, second}


def test_an_alert_acknowledged_in_time_is_never_escalated(cast):
    send_felt_unsafe(cast)
    alert = Alert.objects.get()
    alert_acknowledge(alert=alert, by=cast.tara, note="called, safe tonight")
    mail.outbox.clear()
    escalate_at(alert.raised_at + dt.timedelta(days=3))
    assert escalations() == [] and mail.outbox == []


def test_acknowledged_after_escalating_but_before_the_email_went_it_is_not_sent(cast):
    send_felt_unsafe(cast)
    alert = Alert.objects.get()
    with time_machine.travel(alert.raised_at + dt.timedelta(days=1), tick=False):
        [message_id] = alerts_escalate(now=timezone.now())
    alert_acknowledge(alert=alert, by=cast.tara, note="called")
    mail.outbox.clear()
    assert tasks.send_alert_escalation.delay(message_id).get() == "skipped"
    assert OutboxMessage.objects.get(pk=message_id).state == OutboxMessage.State.NOT_SENT
    assert mail.outbox == []


def test_the_practice_sets_how_long_before_the_manager_is_told(cast):
    PracticeSettings.objects.filter(pk=1).update(alert_escalate_after_hours=2)
    forget_practice_settings()
    send_felt_unsafe(cast)
    alert = Alert.objects.get()
    escalate_at(alert.raised_at + dt.timedelta(hours=2))
    assert len(escalations()) == 1


def test_with_no_manager_the_alert_stays_open_for_the_first_one_added(cast):
    cast.morgan.is_active = False
    cast.morgan.save(update_fields=["is_active"])
    send_felt_unsafe(cast)
    alert = Alert.objects.get()
    escalate_at(alert.raised_at + dt.timedelta(days=1))
    alert.refresh_from_db()
    assert alert.escalated_at is None and escalations() == []


def test_the_beat_looks_for_alerts_every_five_minutes():
    entry = settings.CELERY_BEAT_SCHEDULE["escalate-alerts"]
    assert entry["task"] == "homework.tasks.escalate_alerts"
    assert entry["schedule"] == 300.0
    for task in (tasks.escalate_alerts, tasks.send_alert_escalation):
        assert task.soft_time_limit and task.time_limit
        assert task.soft_time_limit < task.time_limit


@pytest.mark.parametrize(
    ("hours", "said"),
    [
        ("0", "Choose between 1 and 168 hours (a week)."),
        ("169", "Choose between 1 and 168 hours (a week)."),
        ("-3", "Choose between 1 and 168 hours (a week)."),
        ("", "This field is required."),
        ("soon", "Enter a whole number."),
    ],
)
def test_the_manager_sets_the_limit_between_one_hour_and_a_week(cast, hours, said):
    page = save_change_form(
        login(cast.morgan), SETTINGS, settings_form(alert_escalate_after_hours=hours)
    )
    assert page.status_code == 200 and said in page.text
    assert PracticeSettings.objects.get(pk=1).alert_escalate_after_hours == 24


def test_the_manager_changes_the_limit(cast):
    page = save_change_form(
        login(cast.morgan), SETTINGS, settings_form(alert_escalate_after_hours="48")
    )
    assert page.status_code == 302
    assert PracticeSettings.objects.get(pk=1).alert_escalate_after_hours == 48
