"""An entry flagged "felt unsafe" (or with PHQ-9 item 9 above 0) reaches the
therapist in its own discreet email, at once; the client is told plainly
that no one reads entries as they arrive, with the crisis lines to call."""

import uuid

import pytest
from django.core import mail
from django.test import TestCase
from django.urls import reverse

from homework.models import Entry, OutboxMessage
from practice.models import PracticeSettings
from practice.selectors import forget_practice_settings
from tests.conftest import login
from tests.factories import AssignmentFactory
from tests.helpers import do_url, posted
from tests.helpers_discreet import assert_discreet, readable_parts
from tests.homework.test_measures import answers, measure

pytestmark = pytest.mark.django_db


def send(cast, **flags: str) -> Entry:
    key = uuid.uuid4()
    with TestCase.captureOnCommitCallbacks(execute=True):
        page = login(cast.alice.portal_user).post(
            do_url(cast.alice_assignment), {**posted(key), **flags}
        )
    assert page.status_code == 302
    return Entry.objects.get(key=key)


def test_felt_unsafe_sends_its_own_discreet_email_at_once_even_with_the_digest_off(cast):
    PracticeSettings.objects.filter(pk=1).update(weekly_digest=False)
    forget_practice_settings()
    entry = send(cast, felt_unsafe="on")
    [email] = mail.outbox
    assert email.to == ["tara@example.test"]
    assert "soon" in email.subject and "soon" in email.body
    assert_discreet(
        *readable_parts(email),
        canaries=("Alice", "alice@", cast.alice_assignment.exercise.title, "unsafe", "quiet"),
    )
    notice = OutboxMessage.objects.get(entry=entry)
    assert notice.kind == OutboxMessage.Kind.FLAG_NOTICE
    assert notice.state == OutboxMessage.State.SENT


def test_a_plain_entry_keeps_the_plain_email(cast):
    entry = send(cast)
    [email] = mail.outbox
    assert "soon" not in email.subject
    assert OutboxMessage.objects.get(entry=entry).kind == OutboxMessage.Kind.ENTRY_NOTICE


def test_phq9_item_9_above_0_is_treated_as_felt_unsafe(cast):
    assignment = AssignmentFactory.create(client=cast.alice, exercise=measure("PHQ-9"))
    key = uuid.uuid4()
    scored = {f"r-{k}": v for k, v in answers("PHQ-9", [0] * 8 + [1]).items()}
    http = login(cast.alice.portal_user)
    with TestCase.captureOnCommitCallbacks(execute=True):
        page = http.post(
            reverse("homework:do", args=[assignment.pk]),
            {"key": str(key), "version": "0", **scored},
        )
    [email] = mail.outbox
    assert "soon" in email.subject
    assert_discreet(*readable_parts(email), canaries=("Alice", "PHQ", "mood"))
    shown = http.get(page["Location"]).text
    assert "No one reads entries as they arrive" in shown


def test_the_flag_added_in_an_edit_replaces_a_plain_email_still_waiting(cast, queue_down):
    entry = send(cast)  # the queue is down: the plain notice waits
    assert OutboxMessage.objects.get(entry=entry).state == OutboxMessage.State.PENDING
    http = login(cast.alice.portal_user)
    entry.refresh_from_db()
    http.post(
        reverse("homework:entry_edit", args=[entry.key]),
        {**posted(entry.key, version=entry.version), "felt_unsafe": "on"},
    )
    states = dict(OutboxMessage.objects.filter(entry=entry).values_list("kind", "state"))
    assert states == {
        OutboxMessage.Kind.ENTRY_NOTICE: OutboxMessage.State.NOT_SENT,
        OutboxMessage.Kind.FLAG_NOTICE: OutboxMessage.State.PENDING,
    }


def test_the_client_is_told_no_one_watches_live_with_numbers_to_tap(cast):
    entry = send(cast, felt_unsafe="on")
    page = login(cast.alice.portal_user).get(reverse("homework:entry", args=[entry.key]))
    text = page.content.decode()
    assert "No one reads entries as they arrive" in text
    assert "Your therapist has been told" in text
    assert '<a href="tel:08082000247">0808 2000 247</a>' in text
    assert '<a href="tel:18007997233">1-800-799-7233</a>' in text
    plain = send(cast)
    assert (
        "No one reads"
        not in login(cast.alice.portal_user)
        .get(reverse("homework:entry", args=[plain.key]))
        .content.decode()
    )
