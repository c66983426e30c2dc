"""Who looked: the client's own access log in the portal."""

import datetime as dt
import zoneinfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clients.models import AccessEvent
from clients.views.who_looked import WHO_LOOKED_PAGE_SIZE
from homework import services as homework_services
from tests.conftest import Cast, login
from tests.factories import SessionFactory
from tests.helpers_access_log import a_look

PAGE = "clients:who_looked"


def lines(response) -> list[tuple[str, str]]:
    return [(look.what, look.who) for look in response.context["looks"]]


def test_the_settings_page_leads_to_who_looked(cast):
    page = login(cast.alice.portal_user).get(reverse("clients:account")).content.decode()
    assert reverse(PAGE) in page
    assert "Your therapist and the practice manager can read what you share." in page


def test_the_client_sees_who_read_what_in_plain_words_newest_first(cast: Cast):
    SessionFactory.create(client=cast.alice, starts_at=timezone.now() - dt.timedelta(days=7))
    title = cast.alice_entry.assignment.exercise.title
    # Written as the therapist's and the manager's reads write them.
    homework_services.entry_record_view(actor=cast.tara, entry=cast.alice_entry)
    homework_services.entry_list_record_view(actor=cast.morgan, entries=[cast.alice_entry])
    homework_services.since_last_session_record_view(actor=cast.morgan, client=cast.alice)
    a_look(
        cast.alice,
        cast.tara,
        AccessEvent.Action.EXPORTED,
        what="Session summary 2026-01-05 to 2026-01-19",
    )
    response = login(cast.alice.portal_user).get(reverse(PAGE))
    assert response.status_code == 200
    assert lines(response) == [
        (
            "Downloaded a summary of what you sent from 5 January 2026 to 19 January 2026",
            "Tara, your therapist",
        ),
        ("Read what you sent since your last session", "Morgan, the practice manager"),
        ("Saw the first lines of your entries, in a list", "Morgan, the practice manager"),
        (f"Read your entry “{title}”", "Tara, your therapist"),
    ]


def test_a_printed_summary_is_named_with_its_dates(cast):
    printed = login(cast.tara).get(reverse("admin:clients_client_summary", args=[cast.alice.pk]))
    assert printed.status_code == 200
    (look,) = login(cast.alice.portal_user).get(reverse(PAGE)).context["looks"]
    assert look.what.startswith("Printed a summary of what you sent from ")
    assert look.who == "Tara, your therapist"


def test_a_therapist_who_is_not_theirs_is_named_as_a_therapist_at_the_practice(cast):
    cast.alice.therapist = cast.theo
    cast.alice.save(update_fields=["therapist"])
    a_look(cast.alice, cast.tara, what="Thought record (3)")
    response = login(cast.alice.portal_user).get(reverse(PAGE))
    assert lines(response) == [
        ("Read your entry “Thought record”", "Tara, a therapist at the practice")
    ]


def test_the_client_sees_only_their_own_records_looks(cast):
    a_look(cast.bob, cast.theo, what="Bob's own record (9)")
    a_look(cast.alice, cast.tara, what="Alice's record (8)")
    page = login(cast.alice.portal_user).get(reverse(PAGE))
    assert lines(page) == [("Read your entry “Alice's record”", "Tara, your therapist")]
    assert "Bob" not in page.content.decode()


def test_times_are_on_the_clients_clock(cast):
    cast.alice.timezone = "Pacific/Auckland"
    cast.alice.save(update_fields=["timezone"])
    at = dt.datetime(2026, 3, 1, 22, 30, tzinfo=dt.UTC)  # 11:30 the next morning in Auckland
    a_look(cast.alice, cast.tara, what="Thought record (1)", at=at)
    page = login(cast.alice.portal_user).get(reverse(PAGE)).content.decode()
    local = at.astimezone(zoneinfo.ZoneInfo("Pacific/Auckland"))
    assert local.strftime("%H:%M") == "11:30"
    assert "2 Mar 2026, 11:30" in page


def test_a_long_log_is_paged_and_every_look_reachable(cast):
    now = timezone.now()
    for minutes in range(WHO_LOOKED_PAGE_SIZE + 1):
        a_look(
            cast.alice,
            cast.tara,
            what=f"Look {minutes} (1)",
            at=now - dt.timedelta(minutes=minutes),
        )
    http = login(cast.alice.portal_user)
    first = http.get(reverse(PAGE))
    assert len(first.context["looks"]) == WHO_LOOKED_PAGE_SIZE
    assert first.context["looks"][0].what == "Read your entry “Look 0”"
    second = http.get(reverse(PAGE), {"page": 2})
    assert [look.what for look in second.context["looks"]] == [
        f"Read your entry “Look {WHO_LOOKED_PAGE_SIZE}”"
    ]
    assert http.get(reverse(PAGE), {"page": "not a page"}).status_code == 200


def test_nobody_has_looked_yet_is_said_calmly(cast):
    page = login(cast.alice.portal_user).get(reverse(PAGE)).content.decode()
    assert "Nobody at the practice has looked at your records yet." in page


def count_page_queries(http) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = http.get(reverse(PAGE))
    assert response.status_code == 200
    return len(captured.captured_queries)


@pytest.mark.parametrize("who", ["tara", "morgan"])
def test_the_page_costs_the_same_queries_for_one_look_and_for_fifty(cast, who):
    http = login(cast.alice.portal_user)
    a_look(cast.alice, getattr(cast, who))
    http.get(reverse(PAGE))  # warm: the session
    with_one = count_page_queries(http)
    for number in range(49):
        a_look(cast.alice, cast.tara if number % 2 else cast.morgan, what=f"Entry {number} (1)")
    assert count_page_queries(http) == with_one


@pytest.mark.parametrize("private", [False, True])
def test_an_entry_page_names_the_practice_manager_among_those_who_read(cast, private):
    """The manager can open a shared entry as the therapist can: a page
    naming the therapist alone would promise a privacy that is not kept."""
    from homework.models import Entry

    Entry.objects.filter(pk=cast.alice_entry.pk).update(private=private)
    page = login(cast.alice.portal_user).get(reverse("homework:entry", args=[cast.alice_entry.key]))
    text = page.content.decode()
    assert "Your therapist can read this" not in text
    if private:
        assert "Your therapist and the practice manager see that something is here" in text
    else:
        assert "Your therapist and the practice manager can read what you share." in text
        assert reverse(PAGE) in text
