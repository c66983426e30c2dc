"""The therapist's side for every kind: assign it, read what came back."""

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from homework.kinds import all_kinds, get_kind
from homework.models import Assignment
from tests.conftest import login
from tests.factories import RESPONSES, AssignmentFactory, EntryFactory, ExerciseFactory, options_for
from tests.helpers import assignment_form

TODAY = timezone.localdate()
SCHEDULES: dict[str, dict[str, Any]] = {
    "once": {"schedule": "once", "due_on": (TODAY + dt.timedelta(days=7)).isoformat()},
    "daily": {
        "schedule": "daily",
        "due_on": "",
        "ends_on": (TODAY + dt.timedelta(days=29)).isoformat(),
    },
    "weekly": {
        "schedule": "weekly",
        "due_on": "",
        "weekdays": ["0", "3"],
        "ends_on": (TODAY + dt.timedelta(days=42)).isoformat(),
    },
}


def exercise_for(slug):
    return ExerciseFactory.create(kind=slug, title=f"The {slug} one", options=options_for(slug))


@pytest.mark.parametrize("slug", [kind.slug for kind in all_kinds()])
@pytest.mark.parametrize("schedule", list(SCHEDULES))
def test_every_kind_can_be_assigned_in_the_admin_on_every_schedule(cast, slug, schedule):
    exercise = exercise_for(slug)
    # Only a kind that counts days without contact takes the date (others refuse it).
    no_contact_since = (
        TODAY.isoformat() if "no_contact_since" in get_kind(slug).assignment_fields else ""
    )
    form = assignment_form(
        cast, cast.alice, exercise, no_contact_since=no_contact_since, **SCHEDULES[schedule]
    )
    response = login(cast.tara).post(reverse("admin:homework_assignment_add"), form)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assignment = Assignment.objects.get(exercise=exercise)
    assert assignment.schedule == schedule


def sent(cast, slug, **changes):
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise_for(slug))
    kind = get_kind(slug)
    response = kind.validate(
        RESPONSES[slug](**changes), exercise=assignment.exercise, tz="Europe/London"
    )
    return EntryFactory.create(
        assignment=assignment,
        response=response,
        score=kind.score(response, exercise=assignment.exercise),
    )


def test_the_entry_list_shows_a_line_for_each_kind_but_never_the_safety_plan_itself(cast):
    for slug in RESPONSES:
        sent(cast, slug)
    listing = login(cast.tara).get(reverse("admin:homework_entry_changelist")).text
    assert "pull 7/10 · A message or call from them" in listing
    assert "2 steps: 1 held, 1 planned" in listing
    assert "closest: 1 person, close: 1 person, around me: 1 place" in listing
    assert "Safety plan: 6 of 6 parts filled in" in listing
    assert "Steadiness: 4" in listing
    assert "pineapple" not in listing and "Jo&#x27;s flat" not in listing


@pytest.mark.parametrize(
    ("by", "line"),
    [
        ("me", "pull 7/10 · A message or call from them · contact: the client reached out"),
        ("them", "pull 7/10 · A message or call from them · contact: the other person reached out"),
    ],
)
def test_an_urges_contact_is_said_in_the_therapists_words(cast, by, line):
    """The list read "contact: i reached out": the client's own label, lower-cased.
    In the therapist's list "I" would be the therapist: it says who, as the summary does."""
    entry = sent(cast, "urge_log", contact_happened=True, contact_initiated_by=by)
    assert get_kind("urge_log").excerpt(entry) == line
    listing = login(cast.tara).get(reverse("admin:homework_entry_changelist")).text
    assert line in listing
    assert "i reached out" not in listing


def test_the_safety_plan_is_shown_when_the_therapist_opens_it(cast):
    entry = sent(cast, "safety_plan")
    page = login(cast.tara).get(reverse("admin:homework_entry_change", args=[entry.pk])).text
    assert "pineapple" in page


def test_another_therapist_cannot_open_any_kind_of_entry(cast):
    for slug in RESPONSES:
        entry = sent(cast, slug)
        response = login(cast.theo).get(reverse("admin:homework_entry_change", args=[entry.pk]))
        assert response.status_code == 302


def test_entry_list_queries_hold_at_one_and_fifty_of_every_kind(cast):
    http = login(cast.tara)
    url = reverse("admin:homework_entry_changelist")

    def count() -> int:
        http.get(url)
        with CaptureQueriesContext(connection) as queries:
            assert http.get(url).status_code == 200
        return len(queries)

    for slug in RESPONSES:
        sent(cast, slug)
    few = count()
    for _ in range(8):
        for slug in RESPONSES:
            sent(cast, slug)
    assert count() == few
