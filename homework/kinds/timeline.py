"""The cycle on one timeline, gathered from whatever kinds contribute to it.

Each kind says what an entry puts on the timeline
(``ExerciseKind.timeline_points``); this gathers them for a reader and a
period, and ``charts.timeline`` draws them. Pure: the entries come already
read (the summary's, since-last-session's, the progress page's), so the
timeline costs no query, whatever the period's length.
"""

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING

from homework.kinds.charts.timeline import Timeline, timeline
from homework.kinds.charts.timeline_points import TimelinePoint
from homework.kinds.registry import get_kind

if TYPE_CHECKING:
    from homework.models import Entry

# A timeline of one kind says no more than that kind's own picture (the
# urge curve, the ladder): it is shown when at least this many contribute.
KINDS_FOR_A_TIMELINE = 2


def timeline_of(
    entries: Iterable["Entry"],
    *,
    since: dt.date,
    until: dt.date,
    zone: dt.tzinfo,
    for_client: bool,
) -> Timeline | None:
    """The timeline of ``entries`` from ``since`` to ``until`` on the client's
    calendar (``zone``), or None with fewer than two kinds in it.

    Drafts are never on it; private entries only on the client's own
    (``for_client``): they are the client's words, which staff never see.
    """
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
