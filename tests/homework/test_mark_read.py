"""Entries are read only when the therapist says so: opening a page never
changes what the client may do; the "Mark as read" buttons (on Since last
session and on an entry) and the API's route do, for exactly what was shown."""

import datetime as dt
import re

import pytest
from django.contrib.messages import get_messages
from django.test import Client as HttpClient
from django.urls import reverse
from django.utils import timezone

from clients.models import AccessEvent
from homework.models import Entry
from tests.conftest import Cast, login
from tests.factories import EntryFactory, SessionFactory
from tests.helpers import force_verified_login


def since_url(client) -> str:
    return reverse("admin:clients_client_since_last_session", args=[client.pk])


def entry_url(entry) -> str:
    return reverse("admin:homework_entry_change", args=[entry.pk])


def mark_url(client) -> str:
    return reverse("admin:clients_client_mark_read", args=[client.pk])


def unread(*entries: Entry) -> bool:
    return all(Entry.objects.get(pk=entry.pk).seen_at is None for entry in entries)


def shown(page) -> list[str]:
    """What the page's "Mark as read" button posts."""
    return re.findall(r'name="entry" value="([^"]+)"', page.content.decode())


def said(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


@pytest.fixture
def window(cast: Cast) -> Cast:
    SessionFactory.create(client=cast.alice, starts_at=timezone.now() - dt.timedelta(days=7))
    return cast


@pytest.mark.parametrize(
    "headers",
    [{}, {"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "cross-site"}],
    ids=["typed", "clicked", "from elsewhere"],
)
def test_opening_since_last_session_reads_nothing_however_it_was_reached(window, headers):
    cast = window
    http = HttpClient(headers=headers)
    force_verified_login(http, cast.tara)
    page = http.get(since_url(cast.alice))
    assert page.status_code == 200
    assert cast.alice_entry.response["what_happened"] in page.text
    assert unread(cast.alice_entry)
    assert AccessEvent.objects.filter(client=cast.alice, what="Since last session").count() == 1
    assert shown(page) == [f"{cast.alice_entry.key}:{cast.alice_entry.version}"]
    text = " ".join(page.text.split())
    assert "Once you mark it, Alice sees that you have read it and can no longer change it" in text
    assert "Mark this entry as read" in text


def test_the_button_posts_with_the_security_token_and_says_what_it_did(window):
    cast = window
    http = HttpClient(enforce_csrf_checks=True)
    force_verified_login(http, cast.tara)
    page = http.get(since_url(cast.alice))
    form = {"entry": shown(page), "next": since_url(cast.alice)}
    assert http.post(mark_url(cast.alice), form).status_code == 403  # no token: another site's
    assert unread(cast.alice_entry)
    posted = http.post(
        mark_url(cast.alice), {**form, "csrfmiddlewaretoken": str(page.context["csrf_token"])}
    )
    assert posted.status_code == 302 and posted["Location"] == since_url(cast.alice)
    assert not unread(cast.alice_entry)
    assert said(posted) == ["Marked 1 entry as read. Alice can no longer change it."]
    assert shown(http.get(since_url(cast.alice))) == []  # nothing left to mark


def test_the_same_press_sent_twice_reads_nothing_twice(window):
    cast = window
    http = login(cast.tara)
    form = {"entry": shown(http.get(since_url(cast.alice)))}
    http.post(mark_url(cast.alice), form)
    first = Entry.objects.get(pk=cast.alice_entry.pk).seen_at
    again = http.post(mark_url(cast.alice), form)
    assert said(again)[-1] == "These entries were already marked as read."
    assert Entry.objects.get(pk=cast.alice_entry.pk).seen_at == first


def test_an_entry_that_arrived_after_the_page_was_drawn_stays_unread(window):
    cast = window
    http = login(cast.tara)
    form = {"entry": shown(http.get(since_url(cast.alice)))}
    later = EntryFactory.create(assignment=cast.alice_assignment)
    http.post(mark_url(cast.alice), form)
    assert not unread(cast.alice_entry)
    assert unread(later)
    assert shown(http.get(since_url(cast.alice))) == [f"{later.key}:{later.version}"]


def test_an_entry_the_client_changed_after_the_page_was_drawn_is_not_read_unseen(window):
    cast = window
    http = login(cast.tara)
    form = {"entry": shown(http.get(since_url(cast.alice)))}
    Entry.objects.filter(pk=cast.alice_entry.pk).update(version=cast.alice_entry.version + 1)
    refused = http.post(mark_url(cast.alice), form)
    assert said(refused) == [
        "1 entry changed after your page was opened. Nothing was marked as read: "
        "look at it again first."
    ]
    assert unread(cast.alice_entry)


def test_opening_an_entry_reads_nothing_and_its_button_reads_it(cast: Cast):
    http = login(cast.tara)
    page = http.get(entry_url(cast.alice_entry))
    assert unread(cast.alice_entry)
    assert "Once you mark it, Alice sees that you have read it" in " ".join(page.text.split())
    posted = http.post(
        mark_url(cast.alice), {"entry": shown(page), "next": entry_url(cast.alice_entry)}
    )
    assert posted["Location"] == entry_url(cast.alice_entry)
    assert not unread(cast.alice_entry)
    assert "Mark this entry as read" not in http.get(entry_url(cast.alice_entry)).text


def test_a_manager_is_offered_no_button_and_cannot_mark(window):
    cast = window
    http = login(cast.morgan)
    assert shown(http.get(since_url(cast.alice))) == []
    assert shown(http.get(entry_url(cast.alice_entry))) == []
    refused = http.post(
        mark_url(cast.alice), {"entry": f"{cast.alice_entry.key}:{cast.alice_entry.version}"}
    )
    assert said(refused) == ["Only the client's own therapist can mark their entries as read."]
    assert unread(cast.alice_entry)


def test_another_therapists_client_is_not_found_and_nothing_is_read(cast: Cast):
    refused = login(cast.theo).post(
        mark_url(cast.alice), {"entry": f"{cast.alice_entry.key}:{cast.alice_entry.version}"}
    )
    assert refused.status_code == 302 and refused["Location"] == reverse("admin:index")
    assert unread(cast.alice_entry)


def posted_for(cast: Cast, case: str) -> list[str]:
    alice = f"{cast.alice_entry.key}:{cast.alice_entry.version}"
    if case == "another client's entry":
        return [alice, f"{cast.bob_entry.key}:{cast.bob_entry.version}"]
    if case == "a private entry":
        private = EntryFactory.create(assignment=cast.alice_assignment, private=True)
        return [alice, f"{private.key}:{private.version}"]
    if case == "nothing":
        return []
    return [alice, case]  # a hand-made value


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("another client's entry", "Some of these entries are not this client's."),
        ("a private entry", "One of these entries is private: only the client can read it."),
        ("nothing", "No entries were chosen, so nothing was marked as read."),
        ("12", "This request was not understood."),
        ("not-a-key:1", "This request was not understood."),
        (f"{'0' * 8}-0000-0000-0000-{'0' * 12}:x", "This request was not understood."),
    ],
)
def test_a_mark_as_read_that_cannot_be_done_says_why_and_changes_nothing(cast, case, message):
    refused = login(cast.tara).post(mark_url(cast.alice), {"entry": posted_for(cast, case)})
    assert refused.status_code == 302
    assert len(said(refused)) == 1 and said(refused)[0].startswith(message)
    assert "othing was marked as read" in said(refused)[0]
    assert not Entry.objects.filter(seen_at__isnull=False).exists()


def test_a_button_sends_back_only_to_the_admins_own_pages(cast: Cast):
    posted = login(cast.tara).post(
        mark_url(cast.alice),
        {
            "entry": f"{cast.alice_entry.key}:{cast.alice_entry.version}",
            "next": "https://x.example/",
        },
    )
    assert posted["Location"] == since_url(cast.alice)


@pytest.mark.parametrize("method", ["get", "put"])
def test_marking_is_a_post_and_since_last_session_is_a_get(cast: Cast, method):
    http = login(cast.tara)
    assert getattr(http, method)(mark_url(cast.alice)).status_code == 405
    assert http.post(since_url(cast.alice)).status_code == 405
    assert unread(cast.alice_entry)


# -- the API: listing is a look, marking is its own route ----------------------------------


def api_url(client) -> str:
    return reverse("api:client-entries-read", args=[client.pk])


def send(http, client, entries):
    return http.post(api_url(client), {"entries": entries}, content_type="application/json")


def as_sent(entry: Entry) -> dict[str, object]:
    return {"id": str(entry.key), "version": entry.version}


def test_the_api_lists_without_reading_and_marks_what_was_read(cast: Cast):
    http = login(cast.tara)
    rows = http.get(reverse("api:client-entries", args=[cast.alice.pk])).json()["results"]
    assert unread(cast.alice_entry)
    marked = send(http, cast.alice, [{"id": row["id"], "version": row["version"]} for row in rows])
    assert marked.status_code == 200 and marked.json() == {"read": [str(cast.alice_entry.key)]}
    assert not unread(cast.alice_entry)
    again = send(http, cast.alice, [as_sent(cast.alice_entry)])
    assert again.status_code == 200 and again.json() == {"read": []}


def test_the_apis_summary_reads_nothing(window):
    cast = window
    http = login(cast.tara)
    summary = http.get(reverse("api:client-summary", args=[cast.alice.pk]), {"full_detail": "1"})
    assert summary.status_code == 200
    assert unread(cast.alice_entry)


@pytest.mark.parametrize(
    ("case", "status"),
    [
        ("another client's entry", 400),
        ("a private entry", 400),
        ("changed since", 400),
        ("nothing", 400),
        ("twice in one request", 400),
        ("an unknown field", 400),
        ("the manager", 403),
        ("another therapist", 404),
    ],
)
def test_the_apis_refusals_change_nothing(cast: Cast, case, status):
    user, entries = cast.tara, [as_sent(cast.alice_entry)]
    if case == "another client's entry":
        entries.append(as_sent(cast.bob_entry))
    elif case == "a private entry":
        entries.append(as_sent(EntryFactory.create(assignment=cast.alice_assignment, private=True)))
    elif case == "changed since":
        entries = [{**as_sent(cast.alice_entry), "version": cast.alice_entry.version + 1}]
    elif case == "nothing":
        entries = []
    elif case == "twice in one request":
        entries.append(as_sent(cast.alice_entry))
    elif case == "an unknown field":
        entries = [{**as_sent(cast.alice_entry), "seen_at": "2026-01-01T00:00Z"}]
    elif case == "the manager":
        user = cast.morgan
    elif case == "another therapist":
        user = cast.theo
    response = send(login(user), cast.alice, entries)
    assert response.status_code == status, response.content
    assert not Entry.objects.filter(seen_at__isnull=False).exists()


def test_the_client_keeps_their_rights_until_the_button_is_pressed(window):
    from homework.services import EntryLocked, entry_set_private

    cast = window
    http = login(cast.tara)
    http.get(entry_url(cast.alice_entry))
    page = http.get(since_url(cast.alice))
    client_user, key = cast.alice.portal_user, cast.alice_entry.key
    entry_set_private(user=client_user, key=key, private=True)  # still theirs to take back
    entry_set_private(user=client_user, key=key, private=False)
    # Shared again, so changed since the page: its button refuses; a fresh page's reads it.
    assert said(http.post(mark_url(cast.alice), {"entry": shown(page)}))[-1].startswith("1 entry")
    http.post(mark_url(cast.alice), {"entry": shown(http.get(since_url(cast.alice)))})
    with pytest.raises(EntryLocked):
        entry_set_private(user=client_user, key=key, private=True)
