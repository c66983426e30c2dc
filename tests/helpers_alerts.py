"""Raising alerts as a client does, and acknowledging them as staff do, for the alert tests."""

import uuid

from django.test import TestCase
from django.urls import reverse

from homework.models import Alert, Entry
from tests.conftest import login
from tests.factories import AssignmentFactory
from tests.helpers import do_url, posted
from tests.homework.test_measures import answers, measure

ITEM_9_WORDS = "Thoughts that you would be better off dead"


def send_felt_unsafe(cast, **fields: str) -> Entry:
    """alice sends a written record through the portal with "I felt unsafe" ticked."""
    key = uuid.uuid4()
    with TestCase.captureOnCommitCallbacks(execute=True):
        page = login(cast.alice.portal_user).post(
            do_url(cast.alice_assignment), {**posted(key), "felt_unsafe": "on", **fields}
        )
    assert page.status_code == 302, page.content
    return Entry.objects.get(key=key)


def send_phq9(cast, item_9: int) -> Entry:
    assignment = AssignmentFactory.create(client=cast.alice, exercise=measure("PHQ-9"))
    key = uuid.uuid4()
    scored = {f"r-{k}": v for k, v in answers("PHQ-9", [0] * 8 + [item_9]).items()}
    with TestCase.captureOnCommitCallbacks(execute=True):
        page = login(cast.alice.portal_user).post(
            reverse("homework:do", args=[assignment.pk]),
            {"key": str(key), "version": "0", **scored},
        )
    assert page.status_code == 302, page.content
    return Entry.objects.get(key=key)


def acknowledge(http, alert: Alert, note: str, *, next_url: str = ""):
    return http.post(
        reverse("admin:alert_acknowledge", args=[alert.pk]),
        {"note": note, **({"next": next_url} if next_url else {})},
    )
