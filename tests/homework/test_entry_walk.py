"""Working through Since last session: each entry opened from it has the one before and after it
there, in the page's order, and Close back to it; plain links, so it works without JavaScript."""

import datetime as dt
import re

from django.urls import reverse
from django.utils import timezone

from tests.conftest import login
from tests.factories import EntryFactory, daily_urge_log

WALK = re.compile(r'href="(/admin/homework/entry/(\d+)/change/\?from=since-last-session)"')


def linked_in_order(html: str) -> list[str]:
    return list(dict.fromkeys(url for url, _ in WALK.findall(html)))


def link(html: str, rel: str) -> str | None:
    found = re.search(rf'<a href="([^"]+)" rel="{rel}"', html)
    return found.group(1).replace("&amp;", "&") if found else None


def test_previous_and_next_walk_the_page_in_its_order_and_stop_at_either_end(cast):
    now = timezone.now()
    EntryFactory.create(assignment=cast.alice_assignment, discuss_in_session=True)
    EntryFactory.create(assignment=cast.alice_assignment, felt_unsafe=True)
    daily_urge_log(
        cast.alice, start=timezone.localdate(now) - dt.timedelta(days=3), days=3, intensity=int
    )
    http = login(cast.tara)
    page = http.get(reverse("admin:clients_client_since_last_session", args=[cast.alice.pk]))
    order = linked_in_order(page.text)
    assert len(order) == 6

    walked: list[str] = []
    url: str | None = order[0]
    while url:
        entry = http.get(url).text
        walked.append(url)
        assert f"Since last session: entry {len(walked)} of 6" in entry
        # The comment box, then Close back to the entry's place on the page.
        assert entry.index('name="text"') < entry.index("ws-walk__close")
        assert 'class="closelink"' not in entry
        url = link(entry, "next")
    assert walked == order
    assert "The last entry on the page" in entry

    back: list[str] = []
    url = order[-1]
    while url:
        back.append(url)
        url = link(http.get(url).text, "prev")
    assert back == order[::-1]
    assert "The first entry on the page" in http.get(order[0]).text


def test_an_entry_the_page_no_longer_lists_opens_with_only_close(cast):
    old = EntryFactory.create(
        assignment=cast.alice_assignment, submitted_at=timezone.now() - dt.timedelta(days=200)
    )
    url = reverse("admin:homework_entry_change", args=[old.pk]) + "?from=since-last-session"
    page = login(cast.tara).get(url)
    assert page.status_code == 200
    assert "Since last session no longer lists this entry." in page.text
    assert link(page.text, "prev") is None and link(page.text, "next") is None
    since = reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])
    assert f'href="{since}" class="button ws-walk__close"' in page.text


def test_another_therapists_entry_is_not_found_from_the_walk_either(cast):
    url = reverse("admin:homework_entry_change", args=[cast.bob_entry.pk])
    page = login(cast.tara).get(url + "?from=since-last-session", follow=True)
    assert "Bob" not in page.text and "ws-walk" not in page.text


def test_a_comment_saved_on_the_walk_returns_to_it(cast):
    http = login(cast.tara)
    walk = reverse("admin:homework_entry_change", args=[cast.alice_entry.pk])
    walk += "?from=since-last-session"
    page = http.get(walk).text
    form = page[page.index('class="ws-comment-form"') :]
    found = re.search(r'name="next" value="([^"]+)"', form)
    assert found is not None
    back = found.group(1).replace("&amp;", "&")
    saved = http.post(
        reverse("admin:homework_entry_comment", args=[cast.alice_entry.pk]),
        {"text": "Thank you for writing this down.", "next": back},
    )
    assert saved.status_code == 302 and saved["Location"].startswith(walk)
