"""The history shows one exercise at a time when the client asks: a choice
of their own exercises; anything else shows everything, calmly."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from homework.portal.looking_back import HISTORY_PAGE_SIZE
from tests.conftest import login
from tests.factories import AssignmentFactory, EntryFactory, ExerciseFactory

pytestmark = pytest.mark.django_db

URL = reverse("homework:history")


def second_exercise(cast, *, entries: int = 1):
    assignment = AssignmentFactory.create(
        client=cast.alice, exercise=ExerciseFactory.create(title="Letters I won't send")
    )
    for _ in range(entries):
        EntryFactory.create(assignment=assignment)
    return assignment


def test_choosing_an_exercise_shows_only_its_entries(cast):
    other = second_exercise(cast)
    http = login(cast.alice.portal_user)
    page = http.get(URL, {"exercise": other.exercise_id})
    assert [entry.assignment_id for entry in page.context["entries"]] == [other.pk]
    assert f'<option value="{other.exercise_id}" selected' in page.text
    everything = http.get(URL).context["entries"]
    assert {entry.assignment_id for entry in everything} == {cast.alice_assignment.pk, other.pk}


@pytest.mark.parametrize("value", ["abc", "", "99999999999999999999", "-1", "0"])
def test_garbage_shows_everything(cast, value):
    second_exercise(cast)
    page = login(cast.alice.portal_user).get(URL, {"exercise": value})
    assert page.status_code == 200 and page.context["chosen"] is None
    assert len(page.context["entries"]) == 2


def test_someone_elses_exercise_shows_nothing_of_theirs(cast):
    second_exercise(cast)
    page = login(cast.alice.portal_user).get(URL, {"exercise": cast.bob_assignment.exercise_id})
    assert page.status_code == 200 and page.context["chosen"] is None
    assert cast.bob_entry not in page.context["entries"]
    assert cast.bob_assignment.exercise.title not in page.text


def test_the_pager_keeps_the_choice(cast):
    other = second_exercise(cast, entries=HISTORY_PAGE_SIZE + 1)
    page = login(cast.alice.portal_user).get(URL, {"exercise": other.exercise_id})
    assert f'href="?exercise={other.exercise_id}&amp;page=2"' in page.text
    second = login(cast.alice.portal_user).get(URL, {"exercise": other.exercise_id, "page": 2})
    assert [entry.assignment_id for entry in second.context["entries"]] == [other.pk]


def queries_for(http, params) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert http.get(URL, params).status_code == 200
    return len(queries)


def test_the_history_costs_the_same_at_one_exercise_and_fifty(cast):
    http = login(cast.alice.portal_user)
    exercise_id = cast.alice_assignment.exercise_id
    queries_for(http, {})  # the session's first request does its own bookkeeping
    one = (queries_for(http, {}), queries_for(http, {"exercise": exercise_id}))
    for _ in range(49):
        second_exercise(cast, entries=2)
    fifty = (queries_for(http, {}), queries_for(http, {"exercise": exercise_id}))
    assert one == fifty
