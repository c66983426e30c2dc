"""A change form opened before someone else's save cannot silently put back
what it showed (DESIGN: "a stale tab cannot overwrite a newer save").

Each tab here is the data its Save button sends, read from the page as drawn.
"""

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from clients.models import Client
from homework.models import Assignment, Exercise
from practice.admin_access import OPENED_AS
from tests.conftest import Cast, login
from tests.factories import ExerciseFactory
from tests.helpers import form_on
from tests.helpers_workers import lock_assignment, row_locked, start, until_waiting

CHANGED_ELSEWHERE = (
    "This was changed elsewhere (another tab or person) since you opened it. "
    "Nothing was saved: reload to see the latest, then make your change again."
)


Case = tuple[str, str, str, Callable[[], str]]  # url, model name, a field, its stored value


def _assignment(cast: Cast) -> Case:
    pk = cast.alice_assignment.pk
    url = reverse("admin:homework_assignment_change", args=[pk])
    return url, "assignment", "instructions", lambda: Assignment.objects.get(pk=pk).instructions


def _exercise(cast: Cast) -> Case:
    pk = ExerciseFactory.create(owner=cast.tara, title="Evening check-in").pk
    url = reverse("admin:homework_exercise_change", args=[pk])
    return url, "exercise", "title", lambda: Exercise.objects.get(pk=pk).title


def _client(cast: Cast) -> Case:
    pk = cast.alice.pk
    url = reverse("admin:clients_client_change", args=[pk])
    return url, "client", "display_name", lambda: Client.objects.get(pk=pk).display_name


CASES = {"assignment": _assignment, "exercise": _exercise, "client": _client}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_form_opened_before_another_save_does_not_overwrite_it(cast, case):
    url, model_name, field, stored = CASES[case](cast)
    http = login(cast.tara)
    tab_b = form_on(http.get(url), model_name)  # opened first, left open
    tab_a = form_on(http.get(url), model_name)
    assert http.post(url, {**tab_a, field: "Saved in tab A"}).status_code == 302

    refused = http.post(url, {**tab_b, field: "Saved in tab B, later"})

    assert refused.status_code == 200
    assert CHANGED_ELSEWHERE in refused.text
    assert stored() == "Saved in tab A"
    # The page drawn again still holds tab B's old view: saving it again is refused too.
    again = form_on(refused, model_name)
    assert again[field] == "Saved in tab B, later"
    assert CHANGED_ELSEWHERE in http.post(url, again).text
    assert stored() == "Saved in tab A"
    # Reloaded, the change goes through.
    reloaded = form_on(http.get(url), model_name)
    assert http.post(url, {**reloaded, field: "Saved in tab B"}).status_code == 302
    assert stored() == "Saved in tab B"


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_form_saves_as_before_when_nothing_changed_elsewhere(cast, case):
    url, model_name, field, stored = CASES[case](cast)
    http = login(cast.tara)
    form = form_on(http.get(url), model_name)
    assert form[OPENED_AS]
    assert http.post(url, {**form, field: "Changed"}).status_code == 302
    assert stored() == "Changed"
    # Saving again from a fresh page, with nothing changed, is fine too.
    assert http.post(url, form_on(http.get(url), model_name)).status_code == 302


def test_a_form_refused_for_a_mistake_saves_once_corrected(cast):
    """The page drawn again after an ordinary refusal keeps its fingerprint,
    which still matches: correcting the mistake is enough."""
    url, model_name, field, stored = _exercise(cast)
    http = login(cast.tara)
    refused = http.post(url, {**form_on(http.get(url), model_name), field: ""})
    assert "This field is required." in refused.text
    assert CHANGED_ELSEWHERE not in refused.text
    corrected = {**form_on(refused, model_name), field: "Morning check-in"}
    assert http.post(url, corrected).status_code == 302
    assert stored() == "Morning check-in"


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_form_from_before_the_check_is_refused_without_an_error_page(cast, case):
    """A tab opened before this check came in has no fingerprint: it may be
    stale, and nothing says otherwise, so it is refused the same calm way."""
    url, model_name, field, stored = CASES[case](cast)
    http = login(cast.tara)
    form = form_on(http.get(url), model_name)
    before = stored()
    del form[OPENED_AS]
    refused = http.post(url, {**form, field: "From an old tab"})
    assert refused.status_code == 200
    assert CHANGED_ELSEWHERE in refused.text
    assert stored() == before


def test_a_change_to_what_the_form_does_not_save_does_not_refuse_it(cast):
    """Only what the form would write back counts: a column it does not hold
    (here when the work was set) changing meanwhile refuses nothing."""
    url = reverse("admin:homework_assignment_change", args=[cast.alice_assignment.pk])
    http = login(cast.tara)
    tab = form_on(http.get(url), "assignment")
    Assignment.objects.filter(pk=cast.alice_assignment.pk).update(
        created_at=timezone.now() - dt.timedelta(days=3)
    )
    assert http.post(url, {**tab, "instructions": "Changed"}).status_code == 302


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_saves_of_the_same_page_at_once_cannot_both_pass(cast):
    """Both read the assignment as the page showed it; the row lock makes the
    second wait for the first's save, then see it."""
    url = reverse("admin:homework_assignment_change", args=[cast.alice_assignment.pk])
    tab = form_on(login(cast.tara).get(url), "assignment")

    def save(words: str) -> Callable[[], Any]:
        return lambda: login(cast.tara).post(url, {**tab, "instructions": words})

    with row_locked(lock_assignment(cast.alice_assignment)):
        saves = [start(f"tab {name}", save(f"Saved in tab {name}")) for name in "AB"]
        until_waiting(len(saves))
    for each in saves:
        assert each.finish().error is None, each.error
    codes = {each.name: each.result.status_code for each in saves}
    assert sorted(codes.values()) == [200, 302]
    saved = next(name for name, code in codes.items() if code == 302)
    assert Assignment.objects.get(pk=cast.alice_assignment.pk).instructions == f"Saved in {saved}"
