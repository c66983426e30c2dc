"""Before each session, end to end: sessions booked, moved and cancelled move the windows not yet
answered; To do, completion, past due, the client's pages and the summary read them; bad input is
refused by name in the admin and the API, and pages cost the same however many there are."""

import datetime as dt
import json
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clients.models import Client, Session
from clients.services.sessions import session_cancel, session_reschedule, session_schedule
from homework import schedules
from homework.models import Assignment
from homework.schedules import Progress
from homework.selectors import (
    client_today,
    completion,
    overdue_exactly,
    todo_for_client,
    with_progress,
)
from homework.selectors.period import period_for_dates
from homework.selectors.work_in_period import completion_for_period
from practice.dates import calendar_day
from tests.conftest import login, save_change_form
from tests.factories import (
    RESPONSES,
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    options_for,
)
from tests.helpers import assignment_form

pytestmark = pytest.mark.django_db

ADD = "admin:homework_assignment_add"


def before_session(client: Client, *, days_before: int = 3, title: str = "Before we meet"):
    return AssignmentFactory.create(
        client=client,
        exercise=ExerciseFactory.create(
            title=title, kind="worksheet", options=options_for("worksheet")
        ),
        schedule="before_session",
        days_before=days_before,
        due_on=None,
        starts_on=client_today(client) - dt.timedelta(days=7),
    )


def at(client: Client, day: dt.date, hour: int = 10, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=ZoneInfo(client.timezone))


def fresh(assignment: Assignment) -> Assignment:
    """Read again, as a page does: windows are read once per request."""
    today = client_today(assignment.client)
    return with_progress(Assignment.objects.filter(pk=assignment.pk), today=today).get()


def state(assignment: Assignment) -> Progress:
    today = client_today(assignment.client)
    return completion(fresh(assignment), today=today).state


def answer(assignment: Assignment, on: dt.date):
    return EntryFactory.create(
        assignment=assignment, occurrence_on=on, response=RESPONSES["worksheet"]()
    )


def todo_row(cast, assignment: Assignment) -> Assignment | None:
    rows = todo_for_client(user=cast.alice.portal_user).assignments
    return next((row for row in rows if row.pk == assignment.pk), None)


@pytest.mark.clock
@pytest.mark.parametrize("zone", ["Pacific/Auckland", "America/New_York"])
def test_the_window_opens_days_before_the_session_on_the_clients_calendar(cast, zone):
    Client.objects.filter(pk=cast.alice.pk).update(timezone=zone)
    cast.alice.refresh_from_db()
    work = before_session(cast.alice, days_before=3)
    today = client_today(cast.alice)
    # 23:30 their time: already the next day in UTC (or the day before, east of it).
    Session.objects.create(
        client=cast.alice, starts_at=at(cast.alice, today + dt.timedelta(3), 23, 30)
    )
    row = todo_row(cast, work)
    assert row is not None and row.occurrence is not None
    assert (row.occurrence.on, row.occurrence.done) == (today, False)
    assert state(work) == Progress.OPEN
    page = login(cast.alice.portal_user).get(reverse("homework:dashboard"))
    # The card names the session it is for, not the day its window opened.
    session_day = calendar_day(today + dt.timedelta(3), "l j F")
    assert "Before we meet" in page.text
    assert f"Before your session on {session_day}" in page.text


@pytest.mark.clock
def test_a_session_further_off_is_not_open_yet(cast):
    work = before_session(cast.alice, days_before=2)
    today = client_today(cast.alice)
    Session.objects.create(client=cast.alice, starts_at=at(cast.alice, today + dt.timedelta(5)))
    row = todo_row(cast, work)
    assert row is not None and row.occurrence is not None
    assert (row.occurrence.on, row.occurrence.next_on) == (None, today + dt.timedelta(3))
    progress = completion(fresh(work), today=today)
    assert (progress.state, progress.due_so_far) == (Progress.OPEN, 0)
    assert progress.coming is not None and progress.coming.on == today + dt.timedelta(3)
    opens, session_day = (calendar_day(today + dt.timedelta(n), "D j M") for n in (3, 5))
    assert progress.count_in_words == f"first one due {opens}, for the session on {session_day}"


@pytest.mark.clock
def test_sessions_booked_moved_and_cancelled_move_only_what_is_not_answered(cast):
    work = before_session(cast.alice, days_before=3)
    today = client_today(cast.alice)
    first = session_schedule(
        actor=cast.tara, client=cast.alice, starts_at=at(cast.alice, today + dt.timedelta(2))
    )
    assert list(schedules.slots(fresh(work))) == [today - dt.timedelta(1)]
    answer(work, today - dt.timedelta(1))
    # Moved two days on after the answer: still answered, not asked again.
    session_reschedule(
        actor=cast.tara, session=first, starts_at=at(cast.alice, today + dt.timedelta(4))
    )
    assert schedules.session_windows(fresh(work)) == (
        (today - dt.timedelta(1), today + dt.timedelta(4)),
    )
    assert todo_row(cast, work) is None  # done, and nothing more booked: not asked again
    # A new booking opens its own window; not answered, it moves with its session.
    later = session_schedule(
        actor=cast.tara, client=cast.alice, starts_at=at(cast.alice, today + dt.timedelta(12))
    )
    assert list(schedules.slots(fresh(work))) == [today - dt.timedelta(1), today + dt.timedelta(9)]
    session_reschedule(
        actor=cast.tara, session=later, starts_at=at(cast.alice, today + dt.timedelta(15))
    )
    assert list(schedules.slots(fresh(work))) == [today - dt.timedelta(1), today + dt.timedelta(12)]
    session_cancel(actor=cast.tara, session=later)
    assert list(schedules.slots(fresh(work))) == [today - dt.timedelta(1)]
    # Cancelled after it was answered: the answer stays, done on its day.
    session_cancel(actor=cast.tara, session=Session.objects.get(pk=first.pk))
    assert list(schedules.slots(fresh(work))) == [today - dt.timedelta(1)]
    progress = completion(fresh(work), today=today)
    assert (progress.done, progress.due_so_far) == (1, 1)


@pytest.mark.clock
def test_nothing_sent_before_a_session_is_past_due_until_the_next_window(cast):
    work = before_session(cast.alice, days_before=3)
    today = client_today(cast.alice)
    Session.objects.create(client=cast.alice, starts_at=at(cast.alice, today - dt.timedelta(1)))
    assert state(work) == Progress.OVERDUE
    mine = Assignment.objects.filter(client=cast.alice)
    assert list(overdue_exactly(mine, now=timezone.now())) == [work]
    home = login(cast.tara).get(reverse("admin:index"))
    assert "nothing sent before the last session" in home.text
    client_page = login(cast.tara).get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
    assert client_page.status_code == 200 and "3 days before each session" in client_page.text
    # The client is told it is not done, never that a session passed them by.
    card = login(cast.alice.portal_user).get(reverse("homework:dashboard")).text
    assert "Not done yet — that's OK." in card and "Before your session" not in card
    # Sent late, for that session: no longer past due.
    answer(work, today - dt.timedelta(4))
    assert state(work) == Progress.OPEN
    assert list(overdue_exactly(mine, now=timezone.now())) == []


@pytest.mark.clock
def test_a_new_window_opening_is_open_again_not_past_due(cast):
    work = before_session(cast.alice, days_before=3)
    today = client_today(cast.alice)
    Session.objects.create(client=cast.alice, starts_at=at(cast.alice, today - dt.timedelta(2)))
    Session.objects.create(client=cast.alice, starts_at=at(cast.alice, today + dt.timedelta(1)))
    progress = completion(fresh(work), today=today)
    assert progress.state == Progress.OPEN
    assert (progress.done, progress.due_so_far) == (0, 1)  # the missed one counted, not hidden


@pytest.mark.clock
def test_the_summary_counts_each_window_once(cast):
    work = before_session(cast.alice, days_before=3)
    today = client_today(cast.alice)
    Session.objects.create(client=cast.alice, starts_at=at(cast.alice, today - dt.timedelta(1)))
    answer(work, today - dt.timedelta(4))
    answer(work, today - dt.timedelta(4))  # twice for one session: one check-in
    period = period_for_dates(since=today - dt.timedelta(6), until=today, session=None)
    done = completion_for_period(
        user=cast.tara, client=cast.alice, period=period, now=timezone.now()
    )
    [item] = [item for item in done.items if item.recurring]
    assert (item.done, item.expected) == (1, 1)
    page = login(cast.tara).get(
        reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])
    )
    assert page.status_code == 200 and "1 of 1 check-in" in page.text


# -- refused, by name, with nothing changed ---------------------------------------------


BAD_DAYS = [
    ("0", "Choose a number of days from 1 to 31 before each session."),
    ("-2", "Choose a number of days from 1 to 31 before each session."),
    ("32", "Choose a number of days from 1 to 31 before each session."),
    ("", "Say how many days before each session it opens: a number from 1 to 31."),
]


@pytest.mark.parametrize(("days", "message"), BAD_DAYS)
def test_the_admin_refuses_a_bad_number_of_days_by_name(cast, days, message):
    exercise = ExerciseFactory.create()
    form = assignment_form(
        cast, cast.alice, exercise, schedule="before_session", days_before=days, due_on=""
    )
    response = login(cast.tara).post(reverse(ADD), form)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["days_before"] == [message]
    assert not Assignment.objects.filter(exercise=exercise).exists()


def test_the_admin_refuses_what_is_not_a_number_and_days_on_another_schedule(cast):
    exercise = ExerciseFactory.create()
    http = login(cast.tara)
    for overrides in (
        {"schedule": "before_session", "days_before": "three", "due_on": ""},
        {"schedule": "daily", "days_before": "3", "due_on": ""},
    ):
        response = http.post(reverse(ADD), assignment_form(cast, cast.alice, exercise, **overrides))
        assert response.status_code == 200
        assert "days_before" in response.context["adminform"].form.errors
    response = http.post(
        reverse(ADD),
        assignment_form(
            cast, cast.bob, exercise, schedule="before_session", days_before="3", due_on=""
        ),
    )
    assert "client" in response.context["adminform"].form.errors
    assert not Assignment.objects.filter(exercise=exercise).exists()


def test_the_admin_assigns_before_each_session(cast):
    exercise = ExerciseFactory.create()
    form = assignment_form(
        cast, cast.alice, exercise, schedule="before_session", days_before="2", due_on=""
    )
    assert login(cast.tara).post(reverse(ADD), form).status_code == 302
    made = Assignment.objects.get(exercise=exercise)
    assert (made.schedule, made.days_before, made.due_on, made.weekdays) == (
        "before_session",
        2,
        None,
        [],
    )


def _post(http, url, body):
    return http.post(url, json.dumps(body), content_type="application/json")


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"schedule": "before_session", "days_before": 0}, "days_before"),
        ({"schedule": "before_session", "days_before": -1}, "days_before"),
        ({"schedule": "before_session", "days_before": 32}, "days_before"),
        ({"schedule": "before_session", "days_before": "soon"}, "days_before"),
        ({"schedule": "before_session", "days_before": 2.5}, "days_before"),
        ({"schedule": "before_session"}, "days_before"),
        ({"schedule": "weekly", "weekdays": [0], "days_before": 3}, "days_before"),
        ({"schedule": "before_session", "days_before": 3, "due_on": "2099-01-01"}, "due_on"),
    ],
)
def test_the_api_refuses_a_bad_number_of_days_by_name(cast, extra, field):
    url = f"/api/v1/clients/{cast.alice.pk}/assignments/"
    body = {
        "exercise": cast.alice_assignment.exercise_id,
        "starts_on": timezone.localdate().isoformat(),
        **extra,
    }
    before = Assignment.objects.count()
    refused = _post(login(cast.tara), url, body)
    assert refused.status_code == 400
    assert list(refused.json()["errors"]) == [field], refused.json()
    assert Assignment.objects.count() == before


def test_the_api_assigns_before_each_session_only_to_ones_own(cast):
    body = {
        "exercise": cast.alice_assignment.exercise_id,
        "starts_on": timezone.localdate().isoformat(),
        "schedule": "before_session",
        "days_before": 3,
    }
    http = login(cast.tara)
    made = _post(http, f"/api/v1/clients/{cast.alice.pk}/assignments/", body)
    assert made.status_code == 201
    assert (made.json()["schedule"], made.json()["days_before"]) == ("before_session", 3)
    before = Assignment.objects.count()
    assert _post(http, f"/api/v1/clients/{cast.bob.pk}/assignments/", body).status_code == 404
    assert Assignment.objects.count() == before


# -- pages cost the same at one as at many -----------------------------------------------


def _queries(http, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert http.get(url).status_code == 200
    return len(captured)


@pytest.mark.parametrize(
    "page",
    [
        lambda cast: (cast.alice.portal_user, reverse("homework:dashboard")),
        lambda cast: (cast.tara, reverse("admin:clients_client_change", args=[cast.alice.pk])),
        lambda cast: (
            cast.tara,
            reverse("admin:clients_client_since_last_session", args=[cast.alice.pk]),
        ),
        lambda cast: (cast.tara, reverse("admin:index")),
        lambda cast: (cast.tara, reverse("admin:clients_client_changelist")),
        lambda cast: (cast.tara, reverse("admin:homework_assignment_changelist") + "?due=past"),
        lambda cast: (
            cast.tara,
            "/api/v1/assignments/" if False else f"/api/v1/clients/{cast.alice.pk}/assignments/",
        ),
    ],
    ids=["to-do", "client-page", "since-last-session", "home", "clients", "past-due", "api"],
)
def test_pages_cost_the_same_at_one_before_session_assignment_and_six(cast, page):
    today = client_today(cast.alice)
    for n in (-1, 2, 9):
        Session.objects.create(client=cast.alice, starts_at=at(cast.alice, today + dt.timedelta(n)))
    user, url = page(cast)
    http = login(user)
    before_session(cast.alice, title="Work 0")
    _queries(http, url)  # the session's first request does its own bookkeeping
    one = _queries(http, url)
    for n in range(1, 6):
        work = before_session(cast.alice, days_before=n + 1, title=f"Work {n}")
        answer(work, today - dt.timedelta(n))
    assert _queries(http, url) == one


@pytest.mark.clock
def test_the_therapist_changes_the_days_before_and_a_bad_change_changes_nothing(cast):
    work = before_session(cast.alice, days_before=3)
    url = reverse("admin:homework_assignment_change", args=[work.pk])
    base = assignment_form(
        cast,
        cast.alice,
        work.exercise,
        schedule="before_session",
        starts_on=work.starts_on.isoformat(),
        due_on="",
        instructions="",
    )
    http = login(cast.tara)
    refused = save_change_form(http, url, {**base, "days_before": "40"})
    assert refused.context["adminform"].form.errors["days_before"] == [
        "Choose a number of days from 1 to 31 before each session."
    ]
    work.refresh_from_db()
    assert work.days_before == 3
    assert save_change_form(http, url, {**base, "days_before": "5"}).status_code == 302
    work.refresh_from_db()
    assert work.days_before == 5
    # Someone else's client's work is not theirs to open, nor to change.
    theirs = before_session(cast.bob)
    other = reverse("admin:homework_assignment_change", args=[theirs.pk])
    assert http.post(other, {**base, "days_before": "7"}).status_code in (302, 404)
    theirs.refresh_from_db()
    assert theirs.days_before == 3
