"""The admin home: flags first, the next two days' sessions, what is new, what is overdue."""

import datetime as dt

from django.test import Client as HttpClient
from django.urls import reverse
from django.utils import timezone

from practice.admin_site import PREVIOUS_SIGN_IN
from tests.conftest import login
from tests.factories import PASSWORD, AssignmentFactory, EntryFactory, SessionFactory


def sign_in(email: str) -> HttpClient:
    http = HttpClient()
    response = http.post(
        reverse("admin:login"), {"username": email, "password": PASSWORD, "next": "/admin/"}
    )
    assert response.status_code == 302
    return http


def test_home_shows_tomorrows_session_and_the_unsafe_flag_prominently(cast):
    tomorrow = timezone.localtime() + dt.timedelta(days=1)
    SessionFactory.create(client=cast.alice, starts_at=tomorrow)
    cast.alice_entry.felt_unsafe = True
    cast.alice_entry.save()
    page = login(cast.tara).get(reverse("admin:index"))
    text = page.text
    assert "A client felt unsafe in the last 14 days" in text
    assert text.index("felt unsafe in the last 14 days") < text.index("Tomorrow's sessions")
    assert reverse("admin:clients_client_since_last_session", args=[cast.alice.pk]) in text
    assert reverse("admin:homework_entry_change", args=[cast.alice_entry.pk]) in text


def test_home_never_shows_another_therapists_clients(cast):
    SessionFactory.create(client=cast.alice, starts_at=timezone.now() + dt.timedelta(hours=2))
    cast.alice_entry.felt_unsafe = True
    cast.alice_entry.save()
    page = login(cast.theo).get(reverse("admin:index"))
    assert "Alice" not in page.text
    assert "felt unsafe in the last 14 days" not in page.text


def test_a_manager_sees_the_practice_with_each_therapist(cast):
    SessionFactory.create(client=cast.bob, starts_at=timezone.now() + dt.timedelta(days=1))
    page = login(cast.morgan).get(reverse("admin:index"))
    assert "The practice today" in page.text
    assert "Bob" in page.text and "Theo" in page.text


def test_new_is_counted_from_the_previous_sign_in(cast):
    now = timezone.now()
    cast.tara.last_login = now - dt.timedelta(days=2)
    cast.tara.save()
    EntryFactory.create(
        assignment=cast.alice_assignment,
        submitted_at=now - dt.timedelta(days=3),
        response={**cast.alice_entry.response, "what_happened": "older"},
    )
    cast.alice_entry.submitted_at = cast.alice_entry.shared_at = now - dt.timedelta(days=1)
    cast.alice_entry.save()
    http = sign_in(cast.tara.email)
    assert http.session[PREVIOUS_SIGN_IN] == (now - dt.timedelta(days=2)).isoformat()
    page = http.get(reverse("admin:index"))
    assert "New since you last signed in" in page.text
    assert page.context["home"].new_entries == [cast.alice_entry]


def test_first_sign_in_shows_the_last_week(cast):
    page = sign_in(cast.tara.email).get(reverse("admin:index"))
    assert "New in the last 7 days" in page.text


def test_home_lists_overdue_work(cast):
    today = timezone.localdate()
    AssignmentFactory.create(
        client=cast.alice,
        starts_on=today - dt.timedelta(days=10),
        due_on=today - dt.timedelta(days=2),
        exercise__title="One small boundary",
    )
    page = login(cast.tara).get(reverse("admin:index"))
    assert "One small boundary" in page.text and "was due" in page.text
