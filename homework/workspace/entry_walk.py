"""Working through Since last session one entry at a time: the entry before and after the one open,
in the page's own order, read again as the page reads it (no list of ids rides in the URL)."""

import datetime as dt
from dataclasses import dataclass

from django.http import HttpRequest
from django.urls import reverse

from clients.selectors import session_window
from homework.models import Entry
from homework.selectors.period import period_for_window
from homework.summary.render import entries_in_page_order
from homework.summary.selectors import summary_data
from practice.models import User

# The query an entry's link carries from Since last session; nothing about the client or entry.
FROM_SINCE_LAST_SESSION = "since-last-session"


def from_since_last_session(request: HttpRequest) -> bool:
    return request.GET.get("from") == FROM_SINCE_LAST_SESSION


def walk_url(entry: Entry) -> str:
    url = reverse("admin:homework_entry_change", args=[entry.pk])
    return f"{url}?from={FROM_SINCE_LAST_SESSION}"


@dataclass(frozen=True)
class EntryWalk:
    previous: Entry | None
    next: Entry | None
    position: int  # 1-based; 0 when the entry is not on the page (any more)
    total: int
    close_url: str

    @property
    def previous_url(self) -> str:
        return walk_url(self.previous) if self.previous else ""

    @property
    def next_url(self) -> str:
        return walk_url(self.next) if self.next else ""


def entry_walk(*, user: User, entry: Entry, now: dt.datetime) -> EntryWalk:
    client = entry.assignment.client
    window = session_window(client=client, now=now)
    data = summary_data(
        user=user, client=client, period=period_for_window(window), full_detail=False, now=now
    )
    order = entries_in_page_order(data)
    close_url = reverse("admin:clients_client_since_last_session", args=[client.pk])
    at = next((i for i, each in enumerate(order) if each.pk == entry.pk), None)
    if at is None:
        return EntryWalk(None, None, 0, len(order), close_url)
    return EntryWalk(
        previous=order[at - 1] if at > 0 else None,
        next=order[at + 1] if at + 1 < len(order) else None,
        position=at + 1,
        total=len(order),
        close_url=f"{close_url}#entry-{entry.pk}",
    )
