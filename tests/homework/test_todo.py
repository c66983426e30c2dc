"""What the portal's "To do" lists, and where work goes once it is done.

Recurring work offers the slot that is open (homework.schedules.slot_for);
after the schedule ends its last slot stays open for late work, and says it
is the last one.

The one rule (homework.schedules.one_off_standing): a one-off log something
was sent for stays to add another until its due date has passed (without
one, it stays open); other kinds are done once sent. Done work leaves "To
do" and is read where sent work is: "Done recently" (which offers a plan,
a map or a ladder an update) and the history. Work never sent stays, past due or not; and a draft always
keeps its "Carry on".
"""

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from homework import schedules
from homework.kinds import all_kinds
from homework.models import Assignment, Entry
from homework.selectors import Progress, client_today, completion, todo_for_client, with_progress
from practice.dates import calendar_day
from tests.conftest import login
from tests.factories import (
    RESPONSES,
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    daily_assignment,
    options_for,
    weekly_assignment,
)

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


def assert_left_to_do_for_where_sent_work_is_read(cast, assignment) -> None:
    """Done work is out of "To do", and in "Done recently" and the history."""
    page = home(cast)
    title = assignment.exercise.title
    assert title not in section(page, "todo-title")
    assert title in section(page, "done-title")
    history = login(cast.alice.portal_user).get(reverse("homework:history")).text
    assert title in history


@pytest.mark.parametrize("slug", ["written_record", "urge_log", "worksheet", "safety_plan"])
def test_done_one_off_work_leaves_to_do_once_its_due_date_has_passed(cast, slug):
    assignment = one_off(cast, slug, due_in_days=-1)
    send(assignment)
    assert_left_to_do_for_where_sent_work_is_read(cast, assignment)


@pytest.mark.parametrize(
    ("slug", "button"),
    [
        ("written_record", "Add another"),
        ("urge_log", "Add another"),
    ],
)
def test_a_sent_log_stays_to_add_another_until_its_due_date_has_passed(cast, slug, button):
    """Due today: the day is not over, so more may still come."""
    assignment = one_off(cast, slug, due_in_days=0)
    send(assignment)
    todo = section(home(cast), "todo-title")
    assert assignment.exercise.title in todo
    assert "1 sent" in todo and button in todo


def do_page(http, assignment):
    return http.get(reverse("homework:do", args=[assignment.pk]))


@pytest.mark.parametrize("slug", ["worksheet", "safety_plan", "reading"])
def test_sent_work_other_than_a_log_leaves_to_do_at_once(cast, slug):
    """Due in a week and sent today: To do shows only what is still open."""
    assignment = one_off(cast, slug, due_in_days=7)
    send(assignment)
    assert_left_to_do_for_where_sent_work_is_read(cast, assignment)


@pytest.mark.parametrize(("slug", "due_in_days"), [("worksheet", -1), ("worksheet", 3)])
def test_done_work_opened_again_by_its_address_shows_what_was_sent(cast, slug, due_in_days):
    """A bookmark or the back button must not offer a blank copy of work
    that is done: it reads as though what they sent was lost."""
    assignment = one_off(cast, slug, due_in_days=due_in_days)
    send(assignment, submitted_at=timezone.now() - dt.timedelta(days=3))
    newest = send(assignment)
    http = login(cast.alice.portal_user)
    again = do_page(http, assignment)
    assert again.status_code == 302
    assert again["Location"] == reverse("homework:entry", args=[newest.key])
    shown = http.get(again["Location"]).text
    assert "You have already done this one. Here is what you sent." in shown


def test_done_work_without_a_due_date_opened_again_shows_what_was_sent(cast):
    assignment = one_off(cast, "worksheet", due_in_days=0)
    Assignment.objects.filter(pk=assignment.pk).update(due_on=None)
    entry = send(assignment)
    again = do_page(login(cast.alice.portal_user), assignment)
    assert again.status_code == 302
    assert again["Location"] == reverse("homework:entry", args=[entry.key])


@pytest.mark.parametrize(("slug", "due_in_days"), [("safety_plan", -2), ("urge_log", -1)])
def test_a_plan_to_update_or_a_log_opened_by_its_address_gives_the_form(cast, slug, due_in_days):
    """A plan sent takes an update ("Done recently" offers it). A log past
    its date still takes a late entry: an urge written down is never turned away."""
    assignment = one_off(cast, slug, due_in_days=due_in_days)
    send(assignment)
    assert do_page(login(cast.alice.portal_user), assignment).status_code == 200


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
        (
            1,
            False,
            DUE - dt.timedelta(days=5),
            True,
        ),  # sent: done (a plan updates from Done recently)
        (1, True, DUE - dt.timedelta(days=5), False),  # a log: more may come
        (2, True, DUE, False),  # its due day is not over yet
        (1, True, DUE + dt.timedelta(days=1), True),  # its due date has passed
        (1, False, DUE + dt.timedelta(days=1), True),
    ],
)
def test_the_one_rule_for_when_one_off_work_is_done(sent, is_log, today, done):
    standing = schedules.one_off_standing(due_on=DUE, today=today, sent=sent, is_log=is_log)
    assert standing.done_for_client is done
    # The therapist's side of the same rule: done once sent, past due with nothing sent.
    assert standing.progress == (Progress.DONE if sent else Progress.OVERDUE)


def test_a_log_without_a_due_date_stays_open_and_a_worksheet_is_done_once_sent():
    today = dt.date(2026, 3, 20)
    log = schedules.one_off_standing(due_on=None, today=today, sent=3, is_log=True)
    worksheet = schedules.one_off_standing(due_on=None, today=today, sent=1, is_log=False)
    assert (log.done_for_client, worksheet.done_for_client) == (False, True)


# -- recurring work whose schedule has ended


def mondays_until(cast, *, last_monday: dt.date, slug: str = "worksheet"):
    exercise = ExerciseFactory.create(kind=slug, title=f"Mondays {slug}", options=options_for(slug))
    return weekly_assignment(
        cast.alice,
        exercise=exercise,
        weekdays=[0],
        starts_on=last_monday - dt.timedelta(days=21),
        ends_on=last_monday + dt.timedelta(days=1),
    )


def daily_work(
    cast,
    *,
    ends_in_days: int,
    slug: str = "worksheet",
    title: str | None = None,  # the factory's own, one of a kind
    began_days_ago: int = 3,
):
    """Alice's daily work of ``slug``, begun some days ago, its last day ``ends_in_days`` away."""
    today = client_today(cast.alice)
    named = {"title": title} if title else {}
    exercise = ExerciseFactory.create(kind=slug, options=options_for(slug), **named)
    return daily_assignment(
        cast.alice,
        exercise=exercise,
        starts_on=today - dt.timedelta(days=began_days_ago),
        ends_on=today + dt.timedelta(days=ends_in_days),
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


def test_recurring_work_leaves_to_do_once_its_last_slot_is_sent(cast):
    """As done one-off work does: nothing is left to offer (a slot sent for
    takes no more), and what was sent is read where sent work is."""
    last_monday = last_monday_before(client_today(cast.alice) - dt.timedelta(days=2))
    assignment = mondays_until(cast, last_monday=last_monday)
    send(assignment, occurrence_on=last_monday)
    assert_left_to_do_for_where_sent_work_is_read(cast, assignment)
    # The therapist's side is unchanged: the work is still theirs to close,
    # and reads as ended with one of its four Mondays sent.
    assignment.refresh_from_db()
    assert assignment.status == Assignment.Status.ACTIVE
    today = client_today(cast.alice)
    annotated = with_progress(Assignment.objects.filter(pk=assignment.pk), today=today).get()
    progress = completion(annotated, today=today)
    assert (progress.state, progress.done, progress.scheduled) == (Progress.ENDED, 1, 4)


def test_daily_work_leaves_to_do_once_its_last_day_is_sent_on_the_day(cast):
    today = client_today(cast.alice)
    assignment = daily_work(cast, ends_in_days=0)
    send(assignment, occurrence_on=today - dt.timedelta(days=1))
    assert assignment.exercise.title in section(home(cast), "todo-title")  # today's is open
    send(assignment, occurrence_on=today)
    assert assignment.exercise.title not in section(home(cast), "todo-title")


def test_recurring_work_with_more_to_come_stays_once_todays_is_sent(cast):
    today = client_today(cast.alice)
    assignment = daily_work(cast, ends_in_days=3)
    send(assignment, occurrence_on=today)
    todo = " ".join(section(home(cast), "todo-title").split())
    assert assignment.exercise.title in todo and "Done for now — thank you." in todo


def test_a_draft_of_recurring_work_whose_last_slot_is_sent_keeps_its_carry_on(cast):
    last_monday = last_monday_before(client_today(cast.alice) - dt.timedelta(days=2))
    assignment = mondays_until(cast, last_monday=last_monday)
    send(assignment, occurrence_on=last_monday)
    send(assignment, occurrence_on=last_monday, status=Entry.Status.DRAFT, submitted_at=None)
    todo = section(home(cast), "todo-title")
    assert assignment.exercise.title in todo and "Carry on" in todo


# -- a recurring log ("whenever it comes") whose schedule has ended


def daily_log(cast, *, ends_in_days: int):
    return daily_work(
        cast, ends_in_days=ends_in_days, slug="urge_log", title="Daily log", began_days_ago=20
    )


def card(todo: str, title: str) -> str:
    """One card of "To do", by its exercise's title, in plain words."""
    # Never across cards: their order differs between databases (due dates
    # left empty sort first on SQLite, last on PostgreSQL).
    start = '<li class="card">'
    within = rf"(?:(?!{re.escape(start)}).)*?"
    found = re.search(rf"{start}{within}{re.escape(title)}.*?</li>", todo, flags=re.DOTALL)
    assert found is not None, title
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(0)).split())


def test_a_log_still_running_says_until_when(cast):
    assignment = daily_log(cast, ends_in_days=3)
    day = calendar_day(assignment.ends_on, "l j F")
    assert f"Whenever it comes, until {day}" in card(section(home(cast), "todo-title"), "Daily log")


def test_an_ended_log_never_sent_for_reads_as_ended_not_until_a_past_date(cast):
    assignment = daily_log(cast, ends_in_days=-3)
    text = card(section(home(cast), "todo-title"), "Daily log")
    assert f"Ended on {calendar_day(assignment.ends_on, 'l j F')}" in text
    assert "until" not in text.lower()


def test_an_ended_log_with_something_sent_leaves_to_do(cast):
    """As a one-off log does once its due date has passed."""
    assignment = daily_log(cast, ends_in_days=-3)
    send(assignment, occurrence_on=assignment.ends_on - dt.timedelta(days=5))
    page = home(cast)
    assert "Daily log" not in section(page, "todo-title")
    assert "Daily log" in section(page, "done-title")


def test_a_log_sent_for_stays_open_while_its_schedule_runs(cast):
    assignment = daily_log(cast, ends_in_days=0)  # its last day is not over yet
    send(assignment, occurrence_on=assignment.ends_on)
    assert "Add another" in card(section(home(cast), "todo-title"), "Daily log")


def test_a_slot_with_more_to_come_is_not_called_the_last(cast):
    assignment = daily_work(cast, ends_in_days=3)
    todo = section(home(cast), "todo-title")
    assert assignment.exercise.title in todo
    assert "For today" in todo and "the last one" not in todo


# -- whose day: the client's own, one for the whole page


def test_to_do_is_read_on_the_clients_own_day_far_from_the_practice(cast, monkeypatch):
    """23:30 on Tuesday 10 March in London is 12:30 on Wednesday 11 in
    Auckland: work due on the 10th is past due there, and today's slot is
    Wednesday's."""
    cast.alice.timezone = "Pacific/Auckland"
    cast.alice.save()
    now = dt.datetime(2026, 3, 10, 23, 30, tzinfo=dt.UTC)
    monkeypatch.setattr(timezone, "now", lambda: now)
    wednesday = dt.date(2026, 3, 11)
    never_sent = AssignmentFactory.create(
        client=cast.alice,
        exercise=ExerciseFactory.create(kind="worksheet", title="Due on Tuesday"),
        starts_on=dt.date(2026, 3, 1),
        due_on=dt.date(2026, 3, 10),
    )
    daily_assignment(
        cast.alice,
        exercise=ExerciseFactory.create(kind="worksheet", title="Every day"),
        starts_on=dt.date(2026, 3, 1),
        ends_on=dt.date(2026, 3, 31),
    )
    todo = todo_for_client(user=cast.alice.portal_user)
    assert todo.today == wednesday
    assert [a.occurrence.on for a in todo.assignments if a.occurrence] == [wednesday]
    page = section(home(cast), "todo-title")
    assert "Not done yet" in card(page, never_sent.exercise.title)
    assert "For today" in card(page, "Every day")


def test_the_buttons_name_the_work_in_a_sentence_that_reads_naturally(cast):
    """A screen reader reads the button with its hidden words: "Add another
    Session notes" reads as if the title were part of the sentence."""
    assignment = one_off(cast, "written_record", due_in_days=2)
    assignment.exercise.title = "Session notes"
    assignment.exercise.save()
    send(assignment)
    text = card(section(home(cast), "todo-title"), "Session notes")
    assert "Add another Session notes" not in text
    assert "Add another for “Session notes”" in text


# -- what the button says once something was sent


@pytest.mark.parametrize(
    ("slug", "button"),
    [
        ("safety_plan", "Update my plan"),
        ("support_network", "Update my map"),
        ("boundary_steps", "Update my steps"),
    ],
)
def test_sent_work_kept_up_to_date_offers_an_update_from_done_recently(cast, slug, button):
    """The form opens the plan, map or ladder last sent, filled in: its
    newest entry in "Done recently" offers an update, an older one does not."""
    assignment = one_off(cast, slug, due_in_days=2)
    send(assignment, submitted_at=timezone.now() - dt.timedelta(days=2))
    newest = send(assignment)
    title = assignment.exercise.title
    done = section(home(cast), "done-title")
    update = reverse("homework:do", args=[assignment.pk])
    assert done.count(f'href="{update}"') == 1
    assert f'Add an update<span class="visually-hidden"> to “{title}”' in done
    assert done.index(reverse("homework:entry", args=[newest.key])) < done.index(update)
    assert "Add another" not in done and button not in done
    assert do_page(login(cast.alice.portal_user), assignment).status_code == 200


def test_done_recently_is_the_last_two_weeks_and_offers_no_update_for_other_kinds(cast):
    worksheet = one_off(cast, "worksheet", due_in_days=2)
    recent = send(worksheet)
    old = send(worksheet, submitted_at=timezone.now() - dt.timedelta(days=15))
    done = section(home(cast), "done-title")
    assert reverse("homework:entry", args=[recent.key]) in done
    assert reverse("homework:entry", args=[old.key]) not in done
    assert "Add an update" not in done


@pytest.mark.parametrize("slug", ["urge_log", "written_record"])
def test_sent_logs_still_offer_to_add_another(cast, slug):
    assignment = one_off(cast, slug, due_in_days=2)
    send(assignment)
    title = assignment.exercise.title
    text = card(section(home(cast), "todo-title"), title)
    assert f"Add another for “{title}”" in text
    assert "Update" not in text


def weekly_today(cast):
    """Alice's weekly check-in, on her today's weekday, with weeks to come."""
    today = client_today(cast.alice)
    exercise = ExerciseFactory.create(kind="worksheet", title="Weekly check-in")
    return weekly_assignment(
        cast.alice,
        exercise=exercise,
        weekdays=[today.weekday()],
        starts_on=today - dt.timedelta(days=21),
        ends_on=today + dt.timedelta(days=21),
    )


def test_a_slot_done_for_now_offers_what_was_sent_not_another(cast):
    """A slot sent for takes no more ("Add another" only led back to what
    was sent): the button says where it goes, and goes there."""
    assignment = weekly_today(cast)
    today = client_today(cast.alice)
    send(assignment, occurrence_on=today - dt.timedelta(days=7))
    sent = send(assignment, occurrence_on=today)
    todo = section(home(cast), "todo-title")
    text = card(todo, "Weekly check-in")
    assert "Add another" not in text
    assert "See what I sent for “Weekly check-in”" in text
    assert f'href="{reverse("homework:entry", args=[sent.key])}"' in todo
    next_on = calendar_day(today + dt.timedelta(days=7), "l j F")
    assert f"Done for now — thank you. Next on {next_on}." in text
    assert "2 sent" in text
    assert ". ·" not in text and not re.search(r"\.\s*·", text)


def test_a_new_slot_of_recurring_work_opens_as_the_first_one_did(cast):
    """This week's check-in is this week's, filled in as last week's was, not
    a second copy of something: the card says "Open", as it did the first
    time, beside "For today" and how many were sent."""
    assignment = weekly_today(cast)
    send(assignment, occurrence_on=client_today(cast.alice) - dt.timedelta(days=7))
    text = card(section(home(cast), "todo-title"), "Weekly check-in")
    assert "Open “Weekly check-in”" in text
    assert "Add another" not in text and "See what I sent" not in text
    assert "For today" in text and "1 sent" in text


def test_a_new_slot_of_a_recurring_map_still_offers_to_update_it(cast):
    """A map opens as the last one sent, filled in: each week updates it."""
    today = client_today(cast.alice)
    assignment = weekly_assignment(
        cast.alice,
        exercise=ExerciseFactory.create(
            kind="support_network", title="Weekly map", options=options_for("support_network")
        ),
        weekdays=[today.weekday()],
        starts_on=today - dt.timedelta(days=21),
        ends_on=today + dt.timedelta(days=21),
    )
    send(assignment, occurrence_on=today - dt.timedelta(days=7))
    text = card(section(home(cast), "todo-title"), "Weekly map")
    assert "Update my map for “Weekly map”" in text
    assert "Add another" not in text


def test_a_slot_done_for_now_reads_its_entry_without_a_query_per_card(
    cast, django_assert_num_queries
):
    """The entry to link to comes with the query that finds the slots done."""
    today = client_today(cast.alice)
    send(weekly_today(cast), occurrence_on=today)
    with CaptureQueriesContext(connection) as one:
        todo_for_client(user=cast.alice.portal_user)
    for _ in range(3):
        send(weekly_today(cast), occurrence_on=today)
    with django_assert_num_queries(len(one)):
        todo = todo_for_client(user=cast.alice.portal_user)
    assert len([a for a in todo.assignments if a.sent_for_slot]) == 4


def test_a_logs_slot_sent_for_still_offers_to_add_another(cast):
    """A log takes any number of entries: its slot is never done for now."""
    assignment = daily_log(cast, ends_in_days=3)
    send(assignment, occurrence_on=client_today(cast.alice))
    text = card(section(home(cast), "todo-title"), "Daily log")
    assert "Add another for “Daily log”" in text and "See what I sent" not in text


def test_the_kinds_updated_in_place_are_the_ones_that_start_from_the_last_sent(monkeypatch):
    """One rule, in the registry: a kind whose form starts from the entry
    last sent (``initial``) is updated, and its button says so (and says it
    declares so, for a new slot of recurring work); one that starts afresh
    takes another."""
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)  # a form's "now" is the same twice
    for kind in all_kinds():
        exercise = ExerciseFactory.build(kind=kind.slug, options=options_for(kind.slug))
        previous = Entry(response=RESPONSES[kind.slug](), schema_version=kind.schema_version)
        continues = kind.initial(exercise=exercise, previous=previous) != kind.initial(
            exercise=exercise
        )
        assert (str(kind.again_label) != "Add another") is continues, kind.slug
        assert kind.continues_last_sent is continues, kind.slug


def test_a_plan_sent_long_ago_can_still_be_updated_from_its_page(cast):
    """Past "Done recently", a plan, map or ladder still open offers its next
    version from the page of what was sent; other work does not."""
    plan = one_off(cast, "safety_plan", due_in_days=2)
    sent = send(plan, submitted_at=timezone.now() - dt.timedelta(days=40))
    worksheet = send(one_off(cast, "worksheet", due_in_days=2))
    portal = login(cast.alice.portal_user)
    page = portal.get(reverse("homework:entry", args=[sent.key])).content.decode()
    assert f'href="{reverse("homework:do", args=[plan.pk])}"' in page
    assert "Add an update" in page
    other = portal.get(reverse("homework:entry", args=[worksheet.key])).content.decode()
    assert "Add an update" not in other
