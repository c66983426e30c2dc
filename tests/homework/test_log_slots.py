"""A log's entry counts for the day what it records happened.

An urge log or a written record is often filled in later: four urges
logged on the evening of 1 December may have come on the 28th, 29th and
30th of November and that day. Each counts for its own day's slot on the
client's calendar (homework.schedules.slot_for_happened), so the count of
days in the summary, on "Since last session" and in the admin's "so far"
agrees with the urge chart drawn from the same entries. A time outside the
schedule (before it began, after it ended) leaves the entry where it was
begun; so does a draft, until it is sent. Other kinds are filed where they
were begun, as before.
"""

import datetime as dt
import importlib
import uuid
import zoneinfo
from typing import Any

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import timezone

from homework import services
from homework.kinds.values import SummaryScope
from homework.models import Assignment, Entry
from homework.selectors import completion, todo_for_client, with_progress
from homework.selectors.period import PeriodQuery
from homework.services import Flags
from homework.summary import render, selectors
from tests.conftest import login
from tests.factories import (
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    SessionFactory,
    options_for,
    urge_log,
    written_record,
)

pytestmark = pytest.mark.django_db

LONDON = zoneinfo.ZoneInfo("Europe/London")
# The evening the audit's client logged four urges at once: a Tuesday.
DEC_1 = dt.date(2026, 12, 1)
NOV_25 = dt.date(2026, 11, 25)  # the last session, and the day the log began
EVENING_OF_DEC_1 = dt.datetime(2026, 12, 1, 20, 0, tzinfo=LONDON)


def day(n: int, *, month: int = 11) -> dt.date:
    return dt.date(2026, month, n)


def at(on: dt.date, hour: int = 21) -> str:
    """A time on the client's clock as the form posts it."""
    return dt.datetime.combine(on, dt.time(hour)).strftime("%Y-%m-%dT%H:%M")


@pytest.fixture
def evening_of_dec_1(monkeypatch: pytest.MonkeyPatch) -> dt.datetime:
    monkeypatch.setattr(timezone, "now", lambda: EVENING_OF_DEC_1.astimezone(dt.UTC))
    return EVENING_OF_DEC_1


def daily_log(cast, *, starts_on: dt.date = NOV_25, kind: str = "urge_log", **fields) -> Assignment:
    # Nothing else of Alice's in the way of "To do" and the counts.
    Assignment.objects.filter(pk=cast.alice_assignment.pk).update(status="cancelled")
    return AssignmentFactory.create(
        client=cast.alice,
        exercise=ExerciseFactory.create(
            kind=kind, title="Urges, day by day", options=options_for(kind)
        ),
        schedule=fields.pop("schedule", "daily"),
        starts_on=starts_on,
        due_on=None,
        ends_on=fields.pop("ends_on", day(24, month=12)),
        no_contact_since=starts_on if kind == "urge_log" else None,
        **fields,
    )


def alice_sends(
    cast,
    assignment: Assignment,
    data: dict[str, Any],
    *,
    key: uuid.UUID | None = None,
    version: int = 0,
) -> Entry:
    return services.entry_submit(
        user=cast.alice.portal_user,
        assignment_id=assignment.pk,
        key=key or uuid.uuid4(),
        base_version=version,
        data=data,
        flags=Flags(),
    )


def log_urge(cast, assignment: Assignment, *, happened: str, intensity: int = 6) -> Entry:
    return alice_sends(cast, assignment, urge_log(at=happened, intensity=intensity))


def change_when(cast, entry: Entry, *, happened: str) -> Entry:
    return services.entry_edit(
        user=cast.alice.portal_user,
        key=entry.key,
        base_version=entry.version,
        data=urge_log(at=happened, intensity=entry.response["intensity"]),
        flags=Flags(),
    )


def so_far(assignment: Assignment, today: dt.date = DEC_1) -> str:
    """The admin's "so far" for the assignment."""
    annotated = with_progress(Assignment.objects.filter(pk=assignment.pk), today=today).get()
    return completion(annotated, today=today).count_in_words


def todays_slot(cast) -> tuple[dt.date | None, bool]:
    (assignment,) = todo_for_client(user=cast.alice.portal_user).assignments
    assert assignment.occurrence is not None
    return assignment.occurrence.on, assignment.occurrence.done


def test_four_urges_sent_on_one_evening_count_for_the_four_days_they_came(
    cast, evening_of_dec_1, monkeypatch
):
    """The audit's client: a daily urge log since Wednesday 25 November, the
    last session that morning; on 1 December four urges logged, for the
    28th, 29th and 30th and that day. The summary said "1 of 7 days" beside
    a chart with four days on it and "4 urges logged in this period"."""
    assignment = daily_log(cast)
    SessionFactory.create(client=cast.alice, starts_at=dt.datetime(2026, 11, 25, 10, tzinfo=LONDON))
    SessionFactory.create(client=cast.alice, starts_at=dt.datetime(2026, 12, 3, 10, tzinfo=LONDON))
    for on in (day(28), day(29), day(30), DEC_1):
        log_urge(cast, assignment, happened=at(on, hour=21 if on < DEC_1 else 19))
    filed = assignment.entries.order_by("occurrence_on").values_list("occurrence_on", flat=True)
    assert list(filed) == [day(28), day(29), day(30), DEC_1]

    # The therapist reads it a little later (a page counts what was sent before it was opened).
    later = EVENING_OF_DEC_1 + dt.timedelta(minutes=10)
    monkeypatch.setattr(timezone, "now", lambda: later.astimezone(dt.UTC))
    now = timezone.now()
    period = selectors.resolve_period(
        user=cast.tara, client=cast.alice, query=PeriodQuery(), now=now
    )
    data = selectors.summary_data(
        user=cast.tara, client=cast.alice, period=period, full_detail=False, now=now
    )
    (item,) = data.completion.recurring
    assert item.count_in_words == "4 of 7 days"
    (section,) = [s for s in data.sections if s.kind.slug == "urge_log"]
    (shown,) = section.kind.summary_context(
        section.entries, SummaryScope(earlier=section.earlier, as_of=period.as_of(now))
    )["sections"]
    plotted = [point["on"] for point in shown["curve"]["days"]]
    assert plotted == [day(28), day(29), day(30), DEC_1]
    html = render.summary_document(data).html
    assert "4 urges shared in this period" in html
    assert "4 of 7 days" in html

    assert so_far(assignment) == "4 of 7 days"
    since = login(cast.tara).get(
        reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])
    )
    assert "4 of 7 days" in since.text
    assert "1 of 7 days" not in since.text


def test_an_urge_logged_today_for_yesterday_leaves_todays_slot_open(cast, evening_of_dec_1):
    """A daily log takes today's urges too: yesterday's, written down this
    evening, is yesterday's, and today is still there to log."""
    assignment = daily_log(cast)
    entry = log_urge(cast, assignment, happened=at(day(30)))
    assert entry.occurrence_on == day(30)
    assert todays_slot(cast) == (DEC_1, False)
    assert so_far(assignment) == "1 of 6 days"  # today is open, not missed


def test_a_weekly_logs_entry_counts_for_the_week_it_happened_in(cast, evening_of_dec_1):
    """Weekly on Mondays: last Friday's urge, logged on Tuesday, is last week's."""
    assignment = daily_log(cast, starts_on=day(16), schedule="weekly", weekdays=[0])
    entry = log_urge(cast, assignment, happened=at(day(27)))
    assert entry.occurrence_on == day(23)  # the Monday that week began on
    assert todays_slot(cast) == (day(30), False)  # this week's is still to log


def test_changing_when_it_happened_after_sending_moves_it_to_that_day(cast, evening_of_dec_1):
    assignment = daily_log(cast)
    entry = log_urge(cast, assignment, happened=at(DEC_1, hour=9))
    assert entry.occurrence_on == DEC_1
    assert todays_slot(cast) == (DEC_1, True)

    # "It was Sunday night, not this morning."
    changed = change_when(cast, entry, happened=at(day(29)))
    assert changed.occurrence_on == day(29)
    assert Entry.objects.get(pk=entry.pk).occurrence_on == day(29)
    assert todays_slot(cast) == (DEC_1, False)
    assert so_far(assignment) == "1 of 6 days"


def test_a_time_before_the_schedule_began_keeps_the_slot_it_was_begun_in(cast, evening_of_dec_1):
    """Work on the log began on 28 November; an urge from the week before
    counts for the day it was logged, as it always did, and is not lost."""
    assignment = daily_log(cast, starts_on=day(28))
    entry = log_urge(cast, assignment, happened=at(day(20)))
    assert entry.occurrence_on == DEC_1
    assert so_far(assignment) == "1 of 4 days"


def test_an_edit_to_a_time_before_the_schedule_began_goes_back_to_the_slot_it_was_begun_in(
    cast, evening_of_dec_1
):
    assignment = daily_log(cast, starts_on=day(28))
    entry = log_urge(cast, assignment, happened=at(day(29)))
    assert entry.occurrence_on == day(29)
    changed = change_when(cast, entry, happened=at(day(20)))
    assert changed.occurrence_on == DEC_1


def test_a_time_after_the_schedule_ended_keeps_the_slot_it_was_begun_in(cast, evening_of_dec_1):
    """Ended on 29 November: the last slot stays open for late work, and an
    urge from after the end is filed there, as anything sent late is."""
    assignment = daily_log(cast, ends_on=day(29))
    entry = log_urge(cast, assignment, happened=at(day(30)))
    assert entry.occurrence_on == day(29)


def test_a_draft_keeps_the_slot_it_was_begun_in_until_it_is_sent(cast, evening_of_dec_1):
    assignment = daily_log(cast)
    key = uuid.uuid4()
    draft = services.entry_save_draft(
        user=cast.alice.portal_user,
        assignment_id=assignment.pk,
        key=key,
        base_version=0,
        data=urge_log(at=at(day(29))),
        flags=Flags(),
    )
    assert draft.occurrence_on == DEC_1
    sent = alice_sends(cast, assignment, urge_log(at=at(day(29))), key=key, version=draft.version)
    assert sent.occurrence_on == day(29)


def test_a_written_record_counts_for_the_day_it_happened_too(cast, evening_of_dec_1):
    assignment = daily_log(cast, kind="written_record")
    entry = alice_sends(cast, assignment, written_record(occurred_at=at(day(27))))
    assert entry.occurrence_on == day(27)


def test_a_worksheet_is_filed_where_it_was_begun_as_before(cast, evening_of_dec_1):
    from tests.factories import RESPONSES

    assignment = daily_log(cast, kind="worksheet")
    entry = alice_sends(cast, assignment, RESPONSES["worksheet"]())
    assert entry.occurrence_on == DEC_1


# -- entries sent before this rule: the data migration ------------------------------------------


def test_log_entries_already_sent_move_to_the_day_they_happened(cast, evening_of_dec_1):
    migration = importlib.import_module(
        "homework.migrations.0014_log_entries_on_the_day_they_happened"
    )
    assignment = daily_log(cast, starts_on=day(28))

    def sent_on_dec_1(happened: dt.datetime | None, **fields) -> Entry:
        response = urge_log()
        if happened is not None:
            response["at"] = happened.isoformat()
        else:
            del response["at"]
        fields.setdefault("submitted_at", EVENING_OF_DEC_1)
        return EntryFactory.create(
            assignment=assignment, response=response, occurrence_on=DEC_1, **fields
        )

    late_at_night = dt.datetime(2026, 11, 29, 23, 30, tzinfo=LONDON)
    moved = sent_on_dec_1(late_at_night)
    before_start = sent_on_dec_1(dt.datetime(2026, 11, 20, 21, tzinfo=LONDON))
    no_time = sent_on_dec_1(None)
    draft = sent_on_dec_1(
        dt.datetime(2026, 11, 30, 21, tzinfo=LONDON),
        status=Entry.Status.DRAFT,
        submitted_at=None,
    )
    one_off = EntryFactory.create(
        assignment=AssignmentFactory.create(
            client=cast.alice, exercise=ExerciseFactory.create(kind="urge_log")
        ),
        response=urge_log(at=late_at_night.isoformat()),
        occurrence_on=None,
    )

    migration.file_log_entries_on_the_day_they_happened(apps, None)

    def slot(entry: Entry) -> dt.date | None:
        return Entry.objects.values_list("occurrence_on", flat=True).get(pk=entry.pk)

    assert slot(moved) == day(29)
    assert slot(before_start) == DEC_1
    assert slot(no_time) == DEC_1
    assert slot(draft) == DEC_1
    assert slot(one_off) is None


def test_the_migration_reads_a_time_on_the_clients_own_calendar(cast, evening_of_dec_1):
    migration = importlib.import_module(
        "homework.migrations.0014_log_entries_on_the_day_they_happened"
    )
    cast.alice.timezone = "Asia/Tokyo"
    cast.alice.save(update_fields=["timezone"])
    assignment = daily_log(cast)
    # 23:30 in London on the 29th is 08:30 on the 30th in Tokyo.
    entry = EntryFactory.create(
        assignment=assignment,
        response=urge_log(at=dt.datetime(2026, 11, 29, 23, 30, tzinfo=LONDON).isoformat()),
        occurrence_on=DEC_1,
        submitted_at=EVENING_OF_DEC_1,
    )
    migration.file_log_entries_on_the_day_they_happened(apps, None)
    entry.refresh_from_db()
    assert entry.occurrence_on == day(30)
