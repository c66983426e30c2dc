"""What came back, one row a client: the admin home's "new" list, counted in SQL so it costs the
same at one client as at a caseload."""

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Max, Q, QuerySet

from clients.models import Client
from homework.kinds import get_kind
from homework.models import Alert, Entry, readable_by_staff_q

# One screen's worth at a full caseload; "See each entry" lists the rest.
HOME_CLIENTS_SHOWN = 30


@dataclass(frozen=True)
class KindCount:
    label: str
    count: int


@dataclass
class ClientNews:
    """A private entry's kind and flags are the client's, so it is only counted."""

    client: Client
    open_alerts: int = 0
    felt_unsafe: int = 0
    to_review: int = 0
    discuss: int = 0
    not_read: int = 0
    kept_private: int = 0
    latest: dt.datetime | None = None
    kinds: list[KindCount] = field(default_factory=list)

    @property
    def shared(self) -> int:
        return sum(kind.count for kind in self.kinds)

    @property
    def order(self) -> tuple[int, int, int, float]:
        """Alerts, then flags, then wanting to talk, then the newest."""
        latest = -self.latest.timestamp() if self.latest else 0.0
        return (-self.open_alerts, -(self.felt_unsafe + self.to_review), -self.discuss, latest)


def new_by_client(
    new: QuerySet[Entry], open_alerts: QuerySet[Alert], *, shown: int = HOME_CLIENTS_SHOWN
) -> tuple[list[ClientNews], int, int]:
    """Each client with something new, flags first; how many clients, and entries, in all.

    Three queries whatever the number of clients or entries: the counts, the alerts, the clients.
    """
    readable = readable_by_staff_q()
    counts = (
        new.order_by()
        .values_list("assignment__client_id", "assignment__exercise__kind")
        .annotate(
            n_shared=Count("pk", filter=readable),
            n_private=Count("pk", filter=~readable),
            n_unsafe=Count("pk", filter=readable & Q(felt_unsafe=True)),
            n_review=Count("pk", filter=readable & Q(needs_review=True, felt_unsafe=False)),
            n_discuss=Count("pk", filter=readable & Q(discuss_in_session=True)),
            n_not_read=Count("pk", filter=readable & Q(seen_at__isnull=True)),
            latest=Max("submitted_at"),
        )
    )
    rows: dict[int, list[tuple[str, int, int, int, int, int, int, dt.datetime | None]]]
    rows = defaultdict(list)
    for client_id, *row in counts:
        rows[client_id].append(tuple(row))
    alerts: dict[int, int] = dict(
        open_alerts.order_by()
        .filter(client_id__in=rows)
        .values_list("client_id")
        .annotate(count=Count("pk"))
    )
    clients = Client.objects.filter(pk__in=rows).select_related("therapist").in_bulk()
    news = []
    for client_id, kinds in rows.items():
        item = ClientNews(client=clients[client_id], open_alerts=alerts.get(client_id, 0))
        for kind, shared, private, unsafe, review, discuss, not_read, latest in kinds:
            item.felt_unsafe += unsafe
            item.to_review += review
            item.discuss += discuss
            item.not_read += not_read
            item.kept_private += private
            if latest is not None and (item.latest is None or latest > item.latest):
                item.latest = latest
            if shared:
                found = get_kind(kind)
                item.kinds.append(KindCount(str(found.short_label or found.label), shared))
        item.kinds.sort(key=lambda each: (-each.count, each.label))
        news.append(item)
    news.sort(key=lambda item: item.order)
    return news[:shown], len(news), sum(item.shared + item.kept_private for item in news)
