"""What the portal's "To do" lists, and where work goes once it is done.

Recurring work offers the slot that is open (homework.schedules.slot_for);
after the schedule ends its last slot stays open for late work, and says it
is the last one.

The one rule (homework.schedules.one_off_done): a one-off something was
sent for stays to add another until its due date has passed (a log takes
any number of entries; a plan or a map may be sent again as it changes).
Without a due date a log stays open and other kinds are done once sent.
Done work leaves "To do" and is read where sent work is: "Done recently"
and the history. Work never sent stays, past due or not; and a draft always
keeps its "Carry on".
"""

import datetime as dt
import re

import pytest
from django.urls import reverse

from homework import schedules
from homework.models import Entry
from homework.selectors import client_today
from practice.dates import calendar_day
from tests.conftest import login
from tests.factories import RESPONSES, AssignmentFactory, EntryFactory, ExerciseFactory, options_for

pytestmark = pytest.mark.django_db


def one_off(cast, slug: str, *, due_in_days: int):
    """A one-off of ``slug`` for Alice, due ``due_in_days`` from her today."""
    today = client_today(cast.alice)
    exercise = ExerciseFactory.create(
        kind=slug, title=f"One-off {slug} due in {due_in_days}", options=options_for(slug)
    )
    return AssignmentFactory.create(
        client=cast.alice,
        exercise=exercise,
        starts_on=today - dt.timedelta(days=10),
        due_on=today + dt.timedelta(days=due_in_days),
    )


def send(assignment, **details) -> Entry:
    slug = assignment.exercise.kind
    return EntryFactory.create(assignment=assignment, response=RESPONSES[slug](), **details)


def section(page_text: str, heading_id: str) -> str:
    """The text of one section of the home page, by its heading's id."""
    found = re.search(
        rf'<section aria-labelledby="{heading_id}".*?</section>', page_text, flags=re.DOTALL
    )
    assert found is not None, heading_id
    return found.group(0)


def home(cast) -> str:
    page = login(cast.alice.portal_user).get(reverse("homework:dashboard"))
    assert page.status_code == 200
    return str(page.text)


@pytest.mark.parametrize("slug", ["written_record", "urge_log", "worksheet", "safety_plan"])
def test_done_one_off_work_leaves_to_do_once_its_due_date_has_passed(cast, slug):
    assignment = one_off(cast, slug, due_in_days=-1)
    send(assignment)
    page = home(cast)
    title = assignment.exercise.title
    assert title not in section(page, "todo-title")
    assert title in section(page, "done-title")
    history = login(cast.alice.portal_user).get(reverse("homework:history")).text
    assert title in history


@pytest.mark.parametrize("slug", ["written_record", "urge_log", "worksheet", "safety_plan"])
def test_sent_work_stays_to_add_another_until_its_due_date_has_passed(cast, slug):
    """Due today: the day is not over, so more may still come."""
    assignment = one_off(cast, slug, due_in_days=0)
    send(assignment)
    todo = section(home(cast), "todo-title")
    assert assignment.exercise.title in todo
    assert "1 sent" in todo and "Add another" in todo


def test_a_private_entry_counts_as_done_too(cast):
    """Private is about who reads it, not whether it was done."""
    assignment = one_off(cast, "worksheet", due_in_days=-1)
    send(assignment, private=True)
    assert assignment.exercise.title not in section(home(cast), "todo-title")


@pytest.mark.parametrize("slug", ["written_record", "worksheet"])
def test_work_never_sent_stays_in_to_do_past_its_due_date(cast, slug):
    assignment = one_off(cast, slug, due_in_days=-3)
    todo = section(home(cast), "todo-title")
    assert assignment.exercise.title in todo
    assert "Not done yet — that's OK." in todo


@pytest.mark.parametrize(("slug", "due_in_days"), [("written_record", -2), ("worksheet", 3)])
def test_a_draft_of_done_work_stays_in_to_do_to_carry_on(cast, slug, due_in_days):
    assignment = one_off(cast, slug, due_in_days=due_in_days)
    send(assignment)
    send(assignment, status=Entry.Status.DRAFT, submitted_at=None)
    page = home(cast)
    todo = section(page, "todo-title")
    assert assignment.exercise.title in todo and "Carry on" in todo
    # Not among work the therapist closed: nobody closed it.
    assert "Started before it was closed" not in page


def test_only_sent_entries_make_work_done(cast):
    """A draft alone is work begun, not done."""
    assignment = one_off(cast, "worksheet", due_in_days=-2)
    send(assignment, status=Entry.Status.DRAFT, submitted_at=None)
    todo = section(home(cast), "todo-title")
    assert assignment.exercise.title in todo and "Carry on" in todo


DUE = dt.date(2026, 3, 20)


@pytest.mark.parametrize(
    ("sent", "is_log", "today", "done"),
    [
        (0, False, DUE + dt.timedelta(days=5), False),  # past due, not done
        (0, True, DUE + dt.timedelta(days=5), False),
        (1, False, DUE - dt.timedelta(days=5), False),  # a plan may be sent again
        (1, True, DUE - dt.timedelta(days=5), False),  # a log: more may come
        (2, True, DUE, False),  # its due day is not over yet
        (1, True, DUE + dt.timedelta(days=1), True),  # its due date has passed
        (1, False, DUE + dt.timedelta(days=1), True),
    ],
)
def test_the_one_rule_for_when_one_off_work_is_done(sent, is_log, today, done):
    assert schedules.one_off_done(due_on=DUE, today=today, sent=sent, is_log=is_log) is done


def test_a_log_without_a_due_date_stays_open_and_a_worksheet_is_done_once_sent():
    today = dt.date(2026, 3, 20)
    assert schedules.one_off_done(due_on=None, today=today, sent=3, is_log=True) is False
    assert schedules.one_off_done(due_on=None, today=today, sent=1, is_log=False) is True


# -- recurring work whose schedule has ended


def mondays_until(cast, *, last_monday: dt.date, slug: str = "worksheet"):
    exercise = ExerciseFactory.create(kind=slug, title=f"Mondays {slug}", options=options_for(slug))
    return AssignmentFactory.create(
        client=cast.alice,
        exercise=exercise,
        schedule="weekly",
        weekdays=[0],
        starts_on=last_monday - dt.timedelta(days=21),
        due_on=None,
        ends_on=last_monday + dt.timedelta(days=1),
    )


def last_monday_before(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=day.weekday() or 7)


def test_after_a_schedule_ends_its_last_slot_is_offered_as_the_last_one(cast):
    last_monday = last_monday_before(client_today(cast.alice) - dt.timedelta(days=2))
    assignment = mondays_until(cast, last_monday=last_monday)
    todo = section(home(cast), "todo-title")
    assert assignment.exercise.title in todo
    day = calendar_day(last_monday, "l j F")  # with its year, early in January
    assert f"For {day}, the last one" in " ".join(todo.split())


def test_the_last_slot_once_done_is_thanked_without_a_next_one(cast):
    last_monday = last_monday_before(client_today(cast.alice) - dt.timedelta(days=2))
    assignment = mondays_until(cast, last_monday=last_monday)
    send(assignment, occurrence_on=last_monday)
    todo = " ".join(section(home(cast), "todo-title").split())
    assert "Done — thank you. That was the last one." in todo
    assert "Done for now" not in todo and "Next on" not in todo


def test_a_slot_with_more_to_come_is_not_called_the_last(cast):
    today = client_today(cast.alice)
    assignment = AssignmentFactory.create(
        client=cast.alice,
        exercise=ExerciseFactory.create(kind="worksheet", options=options_for("worksheet")),
        schedule="daily",
        starts_on=today - dt.timedelta(days=3),
        due_on=None,
        ends_on=today + dt.timedelta(days=3),
    )
    todo = section(home(cast), "todo-title")
    assert assignment.exercise.title in todo
    assert "For today" in todo and "the last one" not in todo
