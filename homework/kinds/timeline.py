"""The cycle on one timeline, gathered from whatever kinds contribute to it. Pure: the entries come
already read, so it costs no query."""

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING

from homework.kinds.charts.timeline import Timeline, timeline
from homework.kinds.charts.timeline_points import TimelinePoint
from homework.kinds.registry import get_kind

if TYPE_CHECKING:
    from homework.models import Entry

# A timeline of one kind says no more than that kind's own picture.
KINDS_FOR_A_TIMELINE = 2


def timeline_of(
    entries: Iterable["Entry"],
    *,
    since: dt.date,
    until: dt.date,
    zone: dt.tzinfo,
    for_client: bool,
) -> Timeline | None:
    """None with fewer than two kinds in it. Drafts are never on it; private entries only on the
    client's own (``for_client``)."""
    points: list[TimelinePoint] = []
    kinds: set[str] = set()
    for entry in entries:
        if not (entry.is_submitted if for_client else entry.readable_by_staff):
            continue
        slug = entry.assignment.exercise.kind
        own = [
            point
            for point in get_kind(slug).timeline_points(entry, zone=zone)
            if since <= point.on <= until
        ]
        if own:
            kinds.add(slug)
            points.extend(own)
    if len(kinds) < KINDS_FOR_A_TIMELINE:
        return None
    return timeline(points, since=since, until=until, for_client=for_client, kinds=len(kinds))
