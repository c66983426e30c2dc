"""Sent log entries count for the day what they record happened.

Until now an entry of recurring work was filed under the slot of the day
it was begun (Entry.occurrence_on), so four urges of four days logged on
one evening counted as one day done, beside an urge chart that drew four.
New ones are filed by the day they record when sent or changed
(homework.services.entries._slot_when_sent); this files the log entries
already sent by the same rule, so the counts of days already shown read as
the chart always did.

The rule is written out here rather than imported, as a migration has to
keep meaning what it meant when it ran: the kinds that are logs and the
answer that says when (homework.kinds: ``is_log``, ``happened_at``), and
the slot a day falls in (homework.schedules.slot_for_happened). An entry
whose day is not one of its schedule's, up to the client's today, stays
where it is: in the slot it was begun in. Drafts stay there until sent.

Nothing is lost going back: the slots are left as they are (an entry's
begun slot is not kept apart from it, and the counts read either way).
Works alike on SQLite and PostgreSQL: plain reads, then updates in batches.
"""

import datetime as dt
import zoneinfo
from collections.abc import Sequence
from typing import Any

from django.db import migrations
from django.utils import timezone

# The log kinds, and the answer of each that says when it happened.
WHEN_IT_HAPPENED = {"urge_log": "at", "written_record": "occurred_at"}
BATCH = 500


def _zone(name: str) -> dt.tzinfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return timezone.get_default_timezone()


def _happened_at(value: Any, *, zone: dt.tzinfo) -> dt.datetime | None:
    """A stored time (ISO 8601 text, with its offset) as a datetime; a time
    without one is read on the client's clock, as they typed it."""
    if not isinstance(value, str):
        return None
    try:
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=zone)


def _comes_round(schedule: str, weekdays: Sequence[int], day: dt.date) -> bool:
    return schedule == "daily" or day.weekday() in set(weekdays)


def _slot_for_happened(
    *,
    schedule: str,
    weekdays: Sequence[int],
    starts_on: dt.date,
    ends_on: dt.date,
    happened_on: dt.date,
    today: dt.date,
) -> dt.date | None:
    """The slot ``happened_on`` falls in, if it is one of the schedule's days
    up to ``today``: the latest day on or before it that the schedule comes
    round (a weekly slot is at most six days back)."""
    if not starts_on <= happened_on <= min(ends_on, today):
        return None
    for offset in range(7):
        candidate = happened_on - dt.timedelta(days=offset)
        if candidate < starts_on:
            return None
        if _comes_round(schedule, weekdays, candidate):
            return candidate
    return None


def file_log_entries_on_the_day_they_happened(apps: Any, schema_editor: Any) -> None:
    Entry = apps.get_model("homework", "Entry")
    rows = (
        Entry.objects.filter(
            status="submitted",
            assignment__schedule__in=["daily", "weekly"],
            assignment__ends_on__isnull=False,
            assignment__exercise__kind__in=list(WHEN_IT_HAPPENED),
        )
        .order_by("pk")
        .values_list(
            "pk",
            "occurrence_on",
            "response",
            "submitted_at",
            "assignment__exercise__kind",
            "assignment__schedule",
            "assignment__weekdays",
            "assignment__starts_on",
            "assignment__ends_on",
            "assignment__client__timezone",
        )
    )
    now = timezone.now()
    moved = []
    # Read first, written after: SQLite has no cursor that stays steady
    # while the table it reads is changed.
    for (
        pk,
        occurrence_on,
        response,
        submitted_at,
        kind,
        schedule,
        weekdays,
        starts_on,
        ends_on,
        zone_name,
    ) in rows:
        zone = _zone(zone_name)
        answer = response.get(WHEN_IT_HAPPENED[kind]) if isinstance(response, dict) else None
        happened = _happened_at(answer, zone=zone) or submitted_at
        if happened is None:
            continue
        slot = _slot_for_happened(
            schedule=schedule,
            weekdays=weekdays if isinstance(weekdays, list) else [],
            starts_on=starts_on,
            ends_on=ends_on,
            happened_on=timezone.localdate(happened, zone),
            today=timezone.localdate(now, zone),
        )
        if slot is not None and slot != occurrence_on:
            moved.append(Entry(pk=pk, occurrence_on=slot))
    Entry.objects.bulk_update(moved, ["occurrence_on"], batch_size=BATCH)


class Migration(migrations.Migration):
    dependencies = [("homework", "0013_check_in_words_without_a_total")]

    operations = [
        migrations.RunPython(file_log_entries_on_the_day_they_happened, migrations.RunPython.noop)
    ]
