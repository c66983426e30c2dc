"""The contact profile says what it will do: two rows for the week (weekdays,
the weekend) with the days one by one as the exception, a sentence at the
top built from the profile, a reminder time outside the safe hours named to
the client and to the therapist assigning recurring work, and bad rows
refused with a clear message and nothing changed."""

import datetime as dt

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from clients.models import ContactChange, ContactProfile
from clients.services import contact_profile_update
from tests.conftest import login
from tests.factories import ExerciseFactory
from tests.helpers import CONTACT_CHOICES, assignment_form, contact_form_data, contact_rows_data

CONTACT = "/account/contact/"
NINE_TO_FIVE = [["09:00", "17:00"]]


def test_the_two_rows_set_the_whole_week(cast):
    response = login(cast.alice.portal_user).post(CONTACT, contact_rows_data())
    assert response.status_code == 302
    week = ContactProfile.objects.get(client=cast.alice).safe_hours
    assert week == [NINE_TO_FIVE] * 5 + [[], []]


def test_days_one_by_one_win_over_the_rows_when_chosen(cast):
    data = {**contact_rows_data(), **contact_form_data(wed_when="any")}
    assert login(cast.alice.portal_user).post(CONTACT, data).status_code == 302
    week = ContactProfile.objects.get(client=cast.alice).safe_hours
    assert week[2] == [["00:00", "24:00"]] and week[0] == NINE_TO_FIVE


def test_a_week_set_alike_opens_as_the_two_rows_and_any_other_day_by_day(cast):
    http = login(cast.alice.portal_user)
    http.post(CONTACT, contact_rows_data())
    form = http.get(CONTACT).context["form"]
    assert form.initial["one_by_one"] is False
    assert form.initial["weekdays_when"] == "between" and form.initial["weekend_when"] == "never"
    http.post(CONTACT, contact_form_data(wed_when="any"))
    assert http.get(CONTACT).context["form"].initial["one_by_one"] is True


def test_the_page_opens_with_no_row_chosen_for_the_client(cast):
    page = login(cast.alice.portal_user).get(CONTACT)
    form = page.context["form"]
    assert not any(name.endswith("_when") for name in form.initial)
    assert "checked" not in "".join(str(row["when"]) for row in form.rows())


def test_the_sentence_at_the_top_says_what_may_be_sent_where_and_when(cast):
    http = login(cast.alice.portal_user)
    assert "right now we send you nothing at all" in http.get(CONTACT).text
    http.post(CONTACT, contact_rows_data())
    page = http.get(CONTACT).text
    assert (
        "Right now we may send you at most one message a day, by email to "
        "alice.reminders@example.test, on weekdays, 09:00–17:00; at the weekend, not at all "
        "(Europe/London time)."
    ) in page


def test_a_reminder_time_outside_the_safe_hours_is_named_to_the_client(cast):
    http = login(cast.alice.portal_user)
    http.post(CONTACT, contact_rows_data())
    page = http.get(CONTACT).text
    assert "Your daily reminder at 18:00 is outside your safe times on weekdays" in (page)
    http.post(CONTACT, contact_rows_data(recurring_reminder_at="12:30"))
    assert "outside your safe times" not in http.get(CONTACT).text


@pytest.mark.parametrize(
    ("overrides", "field", "says"),
    [
        (
            {"weekdays_from": "17:00", "weekdays_until": "09:00"},
            "weekdays_until",
            "This ends before it starts.",
        ),
        (
            {"weekdays_from": "09:00", "weekdays_until": "09:00"},
            "weekdays_until",
            "From and until are the same time",
        ),
        ({"weekdays_from": ""}, "weekdays_from", "Type when safe time starts"),
        ({"weekdays_until": ""}, "weekdays_until", "Type when safe time ends"),
        ({"weekend_when": ""}, "weekend_when", "Choose when a message may reach you"),
        ({"weekdays_from": "25:00"}, "weekdays_from", "Type a time of day"),
    ],
)
def test_a_malformed_row_is_refused_clearly_and_changes_nothing(cast, overrides, field, says):
    contact_profile_update(actor=cast.alice.portal_user, client=cast.alice, **CONTACT_CHOICES)
    before = ContactProfile.objects.get(client=cast.alice)
    changes = ContactChange.objects.count()
    response = login(cast.alice.portal_user).post(CONTACT, contact_rows_data(**overrides))
    assert response.status_code == 400
    assert says in " ".join(response.context["form"].errors[field])
    after = ContactProfile.objects.get(client=cast.alice)
    assert after.safe_hours == before.safe_hours and after.changed_at == before.changed_at
    assert ContactChange.objects.count() == changes


def test_a_bad_day_hidden_behind_the_rows_does_not_block_the_rows(cast):
    data = contact_rows_data(mon_when="between", mon_from="nonsense")
    assert login(cast.alice.portal_user).post(CONTACT, data).status_code == 302


@pytest.mark.parametrize(("reminder_at", "warned"), [("18:00", True), ("10:00", False)])
def test_the_therapist_is_told_only_when_recurring_work_is_reminded_outside_safe_hours(
    cast, reminder_at, warned
):
    login(cast.alice.portal_user).post(
        CONTACT, contact_rows_data(recurring_reminder_at=reminder_at)
    )
    exercise = ExerciseFactory.create()
    ends = (timezone.localdate() + dt.timedelta(days=28)).isoformat()
    response = login(cast.tara).post(
        reverse("admin:homework_assignment_add"),
        assignment_form(cast, cast.alice, exercise, schedule="daily", due_on="", ends_on=ends),
    )
    assert response.status_code == 302
    said = [str(m) for m in get_messages(response.wsgi_request)]
    if warned:
        assert any(
            "Their daily reminder time, 18:00, is outside the safe hours they chose" in m
            and "09:00–17:00" in m
            for m in said
        ), said
    else:
        assert not any("outside the safe hours" in m for m in said), said


def test_saving_unchanged_is_the_clients_confirmation_and_is_logged_as_such(cast):
    http = login(cast.alice.portal_user)
    http.post(CONTACT, contact_rows_data())
    ContactProfile.objects.filter(client=cast.alice).update(
        checked_on=timezone.localdate() - dt.timedelta(weeks=20)
    )
    assert http.post(CONTACT, contact_rows_data()).status_code == 302
    profile = ContactProfile.objects.get(client=cast.alice)
    assert profile.checked_on == timezone.localdate()
    assert profile.checked_by == ContactProfile.CheckedBy.CLIENT
    latest = ContactChange.objects.filter(client=cast.alice).first()
    assert latest is not None and latest.parts == [] and latest.checked
    page = http.get(CONTACT).text
    assert "You</bdi> confirmed them as they are" in page


@pytest.mark.parametrize(
    ("week", "at", "outside"),
    [
        ([NINE_TO_FIVE] * 5 + [[], []], dt.time(18, 0), [0, 1, 2, 3, 4]),
        ([NINE_TO_FIVE] * 5 + [[], []], dt.time(9, 0), []),
        ([NINE_TO_FIVE] * 5 + [[], []], dt.time(17, 0), [0, 1, 2, 3, 4]),  # until is not in
        ([[["00:00", "24:00"]]] * 5 + [NINE_TO_FIVE] * 2, dt.time(20, 0), [5, 6]),
        ([], dt.time(18, 0), []),  # no hours chosen: nothing is sent at all
    ],
)
def test_the_days_a_reminder_time_falls_outside_the_safe_hours(week, at, outside):
    from clients.contact import hours

    assert hours.days_outside(week, at=at) == outside


def test_assigning_to_several_clients_names_each_whose_reminder_waits(cast):
    from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME

    from clients.models import Client
    from tests.factories import ClientFactory

    login(cast.alice.portal_user).post(CONTACT, contact_rows_data())
    casey: Client = ClientFactory.create(therapist=cast.tara, display_name="Casey")
    exercise = ExerciseFactory.create()
    today = timezone.localdate()
    done = login(cast.tara).post(
        reverse("admin:clients_client_changelist"),
        {
            "action": "assign_exercise",
            ACTION_CHECKBOX_NAME: [str(cast.alice.pk), str(casey.pk)],
            "apply": "1",
            "exercise": str(exercise.pk),
            "instructions": "",
            "schedule": "daily",
            "starts_on": today.isoformat(),
            "ends_on": (today + dt.timedelta(days=28)).isoformat(),
        },
        follow=True,
    )
    said = [str(m) for m in done.context["messages"]]
    waits = [m for m in said if "outside the safe hours" in m]
    assert len(waits) == 1 and "Alice" in waits[0] and "18:00" in waits[0], said
