"""A change of days counts from the day it is made: what the client was asked
before stays counted as it was asked (services.assignment_update).

The example the audit found: a weekly check-in every Tuesday since 10
November, all three sent; on Tuesday 1 December the therapist ticks Friday
too. Counted on the new days from the start, the admin said "3 of 6
check-ins", the current summary "0 of 1", and the summary printed for the
session on 26 November, "2 of 2" when it was given, then read "2 of 4":
Fridays the client was never asked to do counted as missed.
"""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from clients.models import Session
from homework import services
from homework.models import Assignment, Entry
from homework.selectors import completion, todo_for_client, with_progress
from homework.selectors.period import period_between_sessions
from homework.selectors.work_in_period import completion_for_period
from tests.conftest import login, save_change_form
from tests.factories import (
    EntryFactory,
    ExerciseFactory,
    SessionFactory,
    weekly_assignment,
)
from tests.helpers import form_on

pytestmark = pytest.mark.django_db

TUESDAY, FRIDAY = 1, 4


def nov(n: int) -> dt.date:
    return dt.date(2026, 11, n)


def dec(n: int) -> dt.date:
    return dt.date(2026, 12, n)


def noon(on: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(on, dt.time(12)))


@pytest.fixture
def check_ins(cast, monkeypatch) -> Assignment:
    """Tuesdays from 10 November to 20 December; the three sent so far, each on its day."""
    monkeypatch.setattr(timezone, "now", lambda: noon(dec(1)))
    Assignment.objects.filter(pk=cast.alice_assignment.pk).update(status="completed")
    assignment = weekly_assignment(
        cast.alice,
        exercise=ExerciseFactory.create(title="Weekly check-in"),
        instructions="A few lines, whatever the week was like.",
        weekdays=[TUESDAY],
        starts_on=nov(10),
        ends_on=dec(20),
    )
    for tuesday in (10, 17, 24):
        sent(assignment, slot=nov(tuesday))
    return assignment


def sent(assignment: Assignment, *, slot: dt.date, on: dt.date | None = None) -> Entry:
    return EntryFactory.create(
        assignment=assignment, occurrence_on=slot, submitted_at=noon(on or slot)
    )


def admin(assignment: Assignment, today: dt.date) -> str:
    """The admin's "so far", as the "Since last session" card says it."""
    annotated = with_progress(Assignment.objects.filter(pk=assignment.pk), today=today).get()
    return completion(annotated, today=today).count_in_words


def sessions(cast) -> tuple[Session, Session]:
    """Thursdays 12 and 26 November at ten."""
    return tuple(  # type: ignore[return-value]
        SessionFactory.create(
            client=cast.alice,
            starts_at=timezone.make_aware(dt.datetime.combine(nov(n), dt.time(10))),
        )
        for n in (12, 26)
    )


def summary(cast, *, target: Session | None, previous: Session, today: dt.date) -> dict[int, str]:
    """The summary's count for each recurring assignment it lists."""
    period = period_between_sessions(target=target, previous=previous, now=noon(today))
    found = completion_for_period(user=cast.tara, client=cast.alice, period=period, now=noon(today))
    return {item.assignment_id: item.count_in_words for item in found.recurring}


def test_new_days_count_from_the_day_they_are_set_and_the_past_stays_as_asked(cast, check_ins):
    first, second = sessions(cast)
    assert admin(check_ins, dec(1)) == "3 of 3 weeks"
    assert summary(cast, target=second, previous=first, today=dec(1)) == {
        check_ins.pk: "2 of 2 weeks"
    }

    carried_on = services.assignment_update(
        actor=cast.tara, assignment=check_ins, weekdays=[TUESDAY, FRIDAY]
    )

    ended = Assignment.objects.get(pk=check_ins.pk)
    assert carried_on.pk != ended.pk
    # What the client was asked until yesterday, closed as it was asked.
    assert (ended.weekdays, ended.starts_on, ended.ends_on, ended.status) == (
        [TUESDAY],
        nov(10),
        nov(30),
        Assignment.Status.COMPLETED,
    )
    assert ended.entries.count() == 3
    # The new days from today, to the same end, with the same words.
    carried_on.refresh_from_db()
    assert (carried_on.weekdays, carried_on.starts_on, carried_on.ends_on) == (
        [TUESDAY, FRIDAY],
        dec(1),
        dec(20),
    )
    assert (carried_on.client, carried_on.exercise, carried_on.instructions) == (
        cast.alice,
        check_ins.exercise,
        check_ins.instructions,
    )
    assert carried_on.status == Assignment.Status.ACTIVE

    assert admin(ended, dec(1)) == "3 of 3 weeks"
    assert admin(carried_on, dec(1)) == "first one due Tue 1 Dec"
    # The summary already given reads as it did; the current one has no
    # missed Friday, and nothing of the work that ended before it.
    assert summary(cast, target=second, previous=first, today=dec(1)) == {ended.pk: "2 of 2 weeks"}
    assert summary(cast, target=None, previous=second, today=dec(1)) == {
        carried_on.pk: "first one due Tue 1 Dec"
    }

    # The client's first week on the new days.
    sent(carried_on, slot=dec(1))
    sent(carried_on, slot=dec(4))
    assert admin(carried_on, dec(5)) == "2 of 2 check-ins"
    assert admin(ended, dec(5)) == "3 of 3 weeks"
    assert summary(cast, target=None, previous=second, today=dec(5)) == {
        carried_on.pk: "2 of 2 check-ins"
    }


def test_the_client_sees_one_card_for_the_new_days(cast, check_ins):
    carried_on = services.assignment_update(
        actor=cast.tara, assignment=check_ins, weekdays=[TUESDAY, FRIDAY]
    )
    todo = todo_for_client(user=cast.alice.portal_user).assignments
    assert [a.pk for a in todo] == [carried_on.pk]
    occurrence = todo[0].occurrence
    assert occurrence is not None
    assert (occurrence.on, occurrence.done) == (dec(1), False)


def test_a_slot_already_sent_today_stays_done_with_the_days_it_was_asked_on(cast, check_ins):
    """Sent this morning for today's Tuesday: today stays the old days', and
    the new ones count from tomorrow, rather than ask for today again."""
    sent(check_ins, slot=dec(1), on=dec(1))
    carried_on = services.assignment_update(
        actor=cast.tara, assignment=check_ins, weekdays=[TUESDAY, FRIDAY]
    )
    ended = Assignment.objects.get(pk=check_ins.pk)
    carried_on.refresh_from_db()
    assert (ended.ends_on, carried_on.starts_on) == (dec(1), dec(2))
    assert admin(ended, dec(1)) == "4 of 4 weeks"
    (card,) = todo_for_client(user=cast.alice.portal_user).assignments
    assert card.pk == carried_on.pk
    assert card.occurrence is not None
    assert (card.occurrence.on, card.occurrence.next_on) == (None, dec(4))


def test_a_draft_begun_under_the_old_days_is_kept_where_carry_on_reaches_it(cast, check_ins):
    draft = EntryFactory.create(
        assignment=check_ins, occurrence_on=nov(24), status=Entry.Status.DRAFT, submitted_at=None
    )
    services.assignment_update(actor=cast.tara, assignment=check_ins, weekdays=[TUESDAY, FRIDAY])
    draft.refresh_from_db()
    assert (draft.assignment_id, draft.occurrence_on) == (check_ins.pk, nov(24))
    page = login(cast.alice.portal_user).get(reverse("homework:dashboard"))
    assert "Started before it was closed" in page.text
    assert reverse("homework:do", args=[check_ins.pk]) in page.text


@pytest.mark.parametrize(
    "changes",
    [
        {"ends_on": dec(31)},
        {"instructions": "Only a line or two."},
        {"weekdays": [TUESDAY]},  # as it was
    ],
)
def test_a_change_that_leaves_the_days_asked_as_they_were_is_a_plain_edit(cast, check_ins, changes):
    saved = services.assignment_update(actor=cast.tara, assignment=check_ins, **changes)
    assert saved.pk == check_ins.pk
    assert Assignment.objects.filter(client=cast.alice, exercise=check_ins.exercise).count() == 1
    stored = Assignment.objects.get(pk=check_ins.pk)
    assert stored.status == Assignment.Status.ACTIVE
    for name, value in changes.items():
        assert getattr(stored, name) == value


def test_new_days_before_any_came_round_are_a_plain_edit(cast, monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: noon(dec(1)))
    assignment = weekly_assignment(
        cast.alice, weekdays=[FRIDAY], starts_on=nov(30), ends_on=dec(20)
    )
    saved = services.assignment_update(
        actor=cast.tara, assignment=assignment, weekdays=[TUESDAY, FRIDAY]
    )
    assert saved.pk == assignment.pk
    assert Assignment.objects.get(pk=assignment.pk).weekdays == [TUESDAY, FRIDAY]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        # New days that would end before they start: only the past would change.
        ({"weekdays": [TUESDAY, FRIDAY], "ends_on": nov(27)}, "ends_on"),
        # A start moved back over days already asked.
        ({"starts_on": nov(3)}, "starts_on"),
    ],
)
def test_a_change_that_could_only_rewrite_the_past_is_refused(cast, check_ins, changes, field):
    with pytest.raises(ValidationError) as refused:
        services.assignment_update(actor=cast.tara, assignment=check_ins, **changes)
    assert field in refused.value.message_dict
    stored = Assignment.objects.get(pk=check_ins.pk)
    assert (stored.weekdays, stored.starts_on, stored.ends_on) == ([TUESDAY], nov(10), dec(20))
    assert Assignment.objects.filter(exercise=check_ins.exercise).count() == 1


# -- in the admin ----------------------------------------------------------------------------


def test_the_therapist_ticks_friday_and_lands_on_the_new_days(cast, check_ins):
    http = login(cast.tara)
    url = reverse("admin:homework_assignment_change", args=[check_ins.pk])
    form = form_on(http.get(url), "assignment")
    response = http.post(url, {**form, "weekdays": [str(TUESDAY), str(FRIDAY)]})

    carried_on = Assignment.objects.exclude(pk=check_ins.pk).get(exercise=check_ins.exercise)
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:homework_assignment_change", args=[carried_on.pk])
    page = http.get(response["Location"])
    assert "The new days count from today; what came before stays as it was asked." in page.text
    assert (carried_on.weekdays, carried_on.starts_on) == ([TUESDAY, FRIDAY], dec(1))
    ended = Assignment.objects.get(pk=check_ins.pk)
    assert (ended.ends_on, ended.status) == (nov(30), Assignment.Status.COMPLETED)


def test_an_end_date_changed_in_the_admin_stays_one_assignment(cast, check_ins):
    http = login(cast.tara)
    url = reverse("admin:homework_assignment_change", args=[check_ins.pk])
    form = form_on(http.get(url), "assignment")
    response = http.post(url, {**form, "ends_on": dec(31).isoformat()})
    assert response.status_code == 302
    assert Assignment.objects.filter(exercise=check_ins.exercise).count() == 1
    assert Assignment.objects.get(pk=check_ins.pk).ends_on == dec(31)


def test_new_days_that_would_end_before_today_are_refused_on_the_form(cast, check_ins):
    url = reverse("admin:homework_assignment_change", args=[check_ins.pk])
    http = login(cast.tara)
    form = form_on(http.get(url), "assignment")
    response = save_change_form(
        http,
        url,
        {**form, "weekdays": [str(TUESDAY), str(FRIDAY)], "ends_on": nov(27).isoformat()},
    )
    assert response.status_code == 200
    assert "ends_on" in response.context["adminform"].form.errors
    assert Assignment.objects.filter(exercise=check_ins.exercise).count() == 1


def friday_ticked_in_the_admin(http, check_ins: Assignment) -> Assignment:
    """The therapist ticks Friday too on the check-ins' page; the new work it made."""
    url = reverse("admin:homework_assignment_change", args=[check_ins.pk])
    http.post(
        url, {**form_on(http.get(url), "assignment"), "weekdays": [str(TUESDAY), str(FRIDAY)]}
    )
    return Assignment.objects.exclude(pk=check_ins.pk).get(exercise=check_ins.exercise)


def test_a_plain_edit_of_carried_on_work_says_nothing_about_new_days(cast, check_ins):
    http = login(cast.tara)
    carried_on = friday_ticked_in_the_admin(http, check_ins)

    url = reverse("admin:homework_assignment_change", args=[carried_on.pk])
    form = form_on(http.get(url), "assignment")
    response = http.post(url, {**form, "instructions": "Two lines is plenty."}, follow=True)

    assert "The new days count" not in response.text
    assert Assignment.objects.get(pk=carried_on.pk).instructions == "Two lines is plenty."


def test_the_history_of_both_says_where_the_days_went(cast, check_ins):
    http = login(cast.tara)
    carried_on = friday_ticked_in_the_admin(http, check_ins)

    def history(assignment: Assignment) -> str:
        page = http.get(reverse("admin:homework_assignment_history", args=[assignment.pk]))
        return " ".join(page.text.split())

    ended_history, new_history = history(check_ins), history(carried_on)
    assert "Ended on Monday 30 November: the new days carry on as new work" in ended_history
    assert "Added: carries on from the work ended on Monday 30 November" in new_history
    assert "Changed" not in new_history
