"""Reading marks entries read only on the practice's own pages or a POST: a
link on another site shows the page in the therapist's name and changes
nothing (practice.requests.reading_marks_read)."""

import datetime as dt

import pytest
from django.test import Client as HttpClient
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from clients.models import AccessEvent
from homework.models import Entry
from practice.requests import is_same_origin
from tests.factories import SessionFactory
from tests.helpers import force_verified_login

# What a browser sends on a request no page of the practice's started.
FROM_ELSEWHERE = [
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    # A typed address, a bookmark, or a link opened from a mail app: told apart by nobody.
    {"Sec-Fetch-Site": "none"},
    {"Origin": "https://elsewhere.example"},
    {"Referer": "https://elsewhere.example/page"},
    {},  # no word of where from: an older browser behind a link with rel=noreferrer
]


def staff(user, headers):
    http = HttpClient(headers=headers)
    force_verified_login(http, user)
    return http


def since_url(client):
    return reverse("admin:clients_client_since_last_session", args=[client.pk])


def entry_url(entry):
    return reverse("admin:homework_entry_change", args=[entry.pk])


def summary_url(client):
    return reverse("admin:clients_client_summary", args=[client.pk])


def unread(entry: Entry) -> bool:
    return Entry.objects.get(pk=entry.pk).seen_at is None


def views_logged(client, what: str = "") -> int:
    return AccessEvent.objects.filter(client=client, what__contains=what).count()


@pytest.fixture
def window(cast):
    SessionFactory.create(client=cast.alice, starts_at=timezone.now() - dt.timedelta(days=7))
    assert unread(cast.alice_entry)
    return cast


@pytest.mark.parametrize("headers", FROM_ELSEWHERE)
def test_since_last_session_opened_from_elsewhere_reads_nothing(window, headers):
    cast = window
    page = staff(cast.tara, headers).get(since_url(cast.alice))
    assert page.status_code == 200
    assert cast.alice_entry.response["what_happened"] in page.text  # the page is shown
    assert unread(cast.alice_entry)
    assert views_logged(cast.alice, "Since last session") == 1  # the look was real
    assert "Nothing was counted as read" in page.text
    assert 'type="submit">Mark as read' in page.text


def test_since_last_session_mark_as_read_button_posts_with_the_token(window):
    cast = window
    http = HttpClient(enforce_csrf_checks=True, headers={"Sec-Fetch-Site": "cross-site"})
    force_verified_login(http, cast.tara)
    page = http.get(since_url(cast.alice))
    assert unread(cast.alice_entry)
    # Without the page's token (another site's form), refused, nothing read.
    assert http.post(since_url(cast.alice)).status_code == 403
    assert unread(cast.alice_entry)
    token = page.context["csrf_token"]
    posted = http.post(since_url(cast.alice), {"csrfmiddlewaretoken": str(token)})
    assert posted.status_code == 200
    assert not unread(cast.alice_entry)
    assert "Opening this page counted 1 new entry as read" in posted.text


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "same-origin"},
        {"Origin": "http://testserver"},
        {"Referer": "http://testserver/admin/"},
    ],
)
def test_since_last_session_from_the_practices_own_pages_reads_as_before(window, headers):
    cast = window
    page = staff(cast.tara, headers).get(since_url(cast.alice))
    assert not unread(cast.alice_entry)
    assert "Opening this page counted 1 new entry as read" in page.text


@pytest.mark.parametrize("headers", FROM_ELSEWHERE)
def test_an_entry_opened_from_elsewhere_stays_unread(cast, headers):
    page = staff(cast.tara, headers).get(entry_url(cast.alice_entry))
    assert page.status_code == 200
    assert unread(cast.alice_entry)
    assert views_logged(cast.alice, f"({cast.alice_entry.pk})") == 1
    assert "Not counted as read" in page.text
    assert f'<a href="{entry_url(cast.alice_entry)}">Mark as read</a>' in page.text


def test_an_entry_opened_from_the_practices_pages_is_read(cast):
    page = staff(cast.tara, {"Sec-Fetch-Site": "same-origin"}).get(entry_url(cast.alice_entry))
    assert not unread(cast.alice_entry)
    assert "Not counted as read" not in page.text


def test_a_comment_posted_on_an_entry_reads_it(cast):
    """A POST has passed the security-token check: it is the therapist's own act."""
    http = staff(cast.tara, {"Sec-Fetch-Site": "cross-site"})
    comment_url = reverse("admin:homework_entry_comment", args=[cast.alice_entry.pk])
    http.post(comment_url, {"text": "Thank you."})
    assert not unread(cast.alice_entry)


def test_a_managers_look_from_elsewhere_says_nothing_about_reading(cast):
    """A manager's look is never the therapist's read: nothing to offer."""
    page = staff(cast.morgan, {"Sec-Fetch-Site": "cross-site"}).get(entry_url(cast.alice_entry))
    assert "Not counted as read" not in page.text
    assert unread(cast.alice_entry)


@pytest.mark.parametrize("headers", FROM_ELSEWHERE)
def test_the_summary_printed_from_elsewhere_reads_nothing(window, headers):
    cast = window
    response = staff(cast.tara, headers).get(summary_url(cast.alice), {"full_detail": "1"})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert unread(cast.alice_entry)
    printed = AccessEvent.objects.filter(client=cast.alice, action=AccessEvent.Action.PRINTED)
    assert printed.count() == 1


def test_the_summary_printed_from_the_practices_pages_reads_what_it_prints(window):
    cast = window
    staff(cast.tara, {"Sec-Fetch-Site": "same-origin"}).get(
        summary_url(cast.alice), {"full_detail": "1"}
    )
    assert not unread(cast.alice_entry)


def test_the_apis_summary_on_a_session_cookie_from_elsewhere_reads_nothing(window):
    cast = window
    url = reverse("api:client-summary", args=[cast.alice.pk])
    staff(cast.tara, {"Sec-Fetch-Site": "cross-site"}).get(url, {"full_detail": "1"})
    assert unread(cast.alice_entry)
    staff(cast.tara, {"Sec-Fetch-Site": "same-origin"}).get(url, {"full_detail": "1"})
    assert not unread(cast.alice_entry)


@pytest.mark.parametrize(
    ("headers", "same"),
    [
        ({"Sec-Fetch-Site": "same-origin", "Origin": "https://elsewhere.example"}, True),
        ({"Sec-Fetch-Site": "cross-site", "Referer": "http://testserver/admin/"}, False),
        ({"Origin": "http://testserver"}, True),
        ({"Origin": "https://testserver"}, False),  # another scheme is another origin
        ({"Origin": "null"}, False),
        ({"Referer": "http://testserver.elsewhere.example/"}, False),
        ({"Referer": "not a url"}, False),
    ],
)
def test_same_origin_is_the_fetch_headers_word_then_origin_then_referer(headers, same):
    request = RequestFactory(headers=headers).get("/admin/")
    assert is_same_origin(request) is same
