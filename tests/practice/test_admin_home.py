"""The admin home: flags first, the next two days' sessions, what is new, what is overdue."""

import datetime as dt

import pytest
from django.test import Client as HttpClient
from django.urls import reverse
from django.utils import timezone

from practice.admin_site import PREVIOUS_SIGN_IN
from practice.models import User
from tests.conftest import login
from tests.factories import AssignmentFactory, EntryFactory, SessionFactory
from tests.helpers import admin_sign_in


def sign_in(email: str) -> HttpClient:
    http = HttpClient()
    response = admin_sign_in(http, User.objects.get(email=email))
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
    assert page.context["home"].new_count == 1


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


# -- "See all N" opens the list of those N ------------------------------------------------


def _see_all_link(page, section_id):
    """The href of the "See all" link in the home's section headed by ``section_id``."""
    text = page.text
    section = text[text.index(f'id="{section_id}"') :]
    section = section[: section.index("</section>")]
    start = section.index('<p class="ws-more"><a href="') + len('<p class="ws-more"><a href="')
    return section[start : section.index('"', start)].replace("&amp;", "&")


def _sidebar(page):
    """The parameters of the list's own filters (the sidebar)."""
    return {getattr(spec, "parameter_name", None) for spec in page.context["cl"].filter_specs}


def test_see_all_overdue_opens_exactly_the_overdue_work(cast):
    today = timezone.localdate()
    AssignmentFactory.create_batch(
        24,
        client=cast.alice,
        starts_on=today - dt.timedelta(days=10),
        due_on=today - dt.timedelta(days=2),
    )
    # Active but not overdue: due later, or overdue with something sent, or another's.
    AssignmentFactory.create_batch(5, client=cast.alice, due_on=today + dt.timedelta(days=3))
    sent = AssignmentFactory.create(
        client=cast.alice,
        starts_on=today - dt.timedelta(days=10),
        due_on=today - dt.timedelta(days=2),
    )
    EntryFactory.create(assignment=sent)
    AssignmentFactory.create(
        client=cast.bob,
        starts_on=today - dt.timedelta(days=10),
        due_on=today - dt.timedelta(days=2),
    )
    http = login(cast.tara)
    home = http.get(reverse("admin:index"))
    assert home.context["home"].overdue_count == 24
    listed = http.get(_see_all_link(home, "overdue-title"))
    assert listed.status_code == 200
    assert listed.context["cl"].result_count == 24
    assert {a.due_on for a in listed.context["cl"].result_list} == {today - dt.timedelta(days=2)}


def test_see_all_new_opens_exactly_the_new_entries(cast):
    now = timezone.now()
    cast.tara.last_login = now - dt.timedelta(days=2)
    cast.tara.save()
    EntryFactory.create_batch(
        22, assignment=cast.alice_assignment, submitted_at=now - dt.timedelta(hours=5)
    )
    EntryFactory.create_batch(
        6, assignment=cast.alice_assignment, submitted_at=now - dt.timedelta(days=3)
    )
    http = sign_in(cast.tara.email)
    home = http.get(reverse("admin:index"))
    new_count = home.context["home"].new_count
    assert new_count == 23  # and the cast's own entry, sent just now
    listed = http.get(_see_all_link(home, "new-title"))
    assert listed.status_code == 200
    assert listed.context["cl"].result_count == new_count


def test_the_entry_list_can_show_what_is_not_read_yet(cast):
    EntryFactory.create(assignment=cast.alice_assignment, seen_at=timezone.now())
    EntryFactory.create(assignment=cast.alice_assignment, private=True)
    http = login(cast.tara)
    listed = http.get(reverse("admin:homework_entry_changelist"), {"new": "unread"})
    assert listed.status_code == 200
    assert list(listed.context["cl"].result_list) == [cast.alice_entry]
    assert "new" in _sidebar(listed)


def test_the_assignment_list_offers_past_due_in_its_sidebar(cast):
    page = login(cast.tara).get(reverse("admin:homework_assignment_changelist"), {"due": "past"})
    assert page.status_code == 200
    assert "due" in _sidebar(page)


@pytest.mark.parametrize(
    ("url", "query"),
    [
        ("admin:homework_assignment_changelist", "due=someday"),
        ("admin:homework_entry_changelist", "new=yesterday"),
    ],
)
def test_a_hand_made_filter_value_shows_an_empty_list(cast, url, query):
    page = login(cast.morgan).get(reverse(url) + "?" + query)
    assert page.status_code == 200
    assert page.context["cl"].result_count == 0


def test_a_session_shows_the_clients_own_time_where_their_clock_differs(cast, monkeypatch):
    """16:00 in London is 08:00 in Los Angeles: the therapist checking the
    day's sessions sees what time it is for the client, and only where it
    differs (Bob, in London, keeps the one time)."""
    cast.alice.timezone = "America/Los_Angeles"
    cast.alice.save(update_fields=["timezone"])
    monkeypatch.setattr(timezone, "now", lambda: dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC))
    SessionFactory.create(client=cast.alice, starts_at=dt.datetime(2026, 11, 30, 16, tzinfo=dt.UTC))
    SessionFactory.create(client=cast.bob, starts_at=dt.datetime(2026, 11, 30, 17, tzinfo=dt.UTC))
    text = login(cast.morgan).get(reverse("admin:index")).text
    assert "Mon 08:00 (their time)" in text
    assert text.count("(their time)") == 1
