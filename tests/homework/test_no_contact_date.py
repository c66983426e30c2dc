"""'No contact since' is a day that has happened, on a kind that counts from it.

A date in the future had the summary say "No contact for 0 days (since 30
Nov)"; on a written record the date was stored though nothing reads it.
Which kinds take it is the kind's to say (homework.kinds), not a name
compared here.
"""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from homework import services
from homework.kinds import all_kinds
from homework.models import Assignment
from tests.conftest import login
from tests.factories import AssignmentFactory, ExerciseFactory
from tests.helpers import assignment_form

TRACKERS = [kind.slug for kind in all_kinds() if "no_contact_since" in kind.assignment_fields]
OTHERS = [kind.slug for kind in all_kinds() if "no_contact_since" not in kind.assignment_fields]


def test_some_kind_counts_days_without_contact_and_most_do_not():
    assert TRACKERS and OTHERS


def _add(cast, kind, no_contact_since):
    exercise = ExerciseFactory.create(kind=kind)
    response = login(cast.tara).post(
        reverse("admin:homework_assignment_add"),
        assignment_form(cast, cast.alice, exercise, no_contact_since=no_contact_since),
    )
    saved = Assignment.objects.filter(exercise=exercise).first()
    return response, saved


@pytest.mark.parametrize("kind", TRACKERS)
def test_a_no_contact_date_in_the_future_is_refused_on_its_field(cast, kind):
    tomorrow = timezone.localdate() + dt.timedelta(days=1)
    response, saved = _add(cast, kind, tomorrow.isoformat())
    assert saved is None
    assert "today or earlier" in response.context["adminform"].form.errors["no_contact_since"][0]


@pytest.mark.parametrize("kind", TRACKERS)
def test_a_no_contact_date_of_today_or_earlier_is_kept(cast, kind):
    for day in (timezone.localdate(), timezone.localdate() - dt.timedelta(days=40)):
        response, saved = _add(cast, kind, day.isoformat())
        assert response.status_code == 302
        assert saved.no_contact_since == day


@pytest.mark.parametrize("kind", OTHERS)
def test_a_no_contact_date_posted_for_another_kind_is_ignored_and_not_stored(cast, kind):
    """The form shows it only for a tracker; posted anyway (no JavaScript, or by hand), it is
    dropped rather than refused."""
    response, saved = _add(cast, kind, timezone.localdate().isoformat())
    assert response.status_code == 302
    assert saved is not None and saved.no_contact_since is None


@pytest.mark.parametrize(("kind", "shown"), [(TRACKERS[0], True), (OTHERS[0], False)])
def test_saved_work_offers_the_date_only_where_its_kind_counts_from_it(cast, kind, shown):
    work = AssignmentFactory.create(client=cast.alice, exercise__kind=kind)
    page = login(cast.tara).get(reverse("admin:homework_assignment_change", args=[work.pk]))
    assert ('name="no_contact_since"' in page.text) is shown


def test_the_service_refuses_it_too(cast):
    with pytest.raises(ValidationError) as refused:
        services.assignment_create(
            actor=cast.tara,
            client=cast.alice,
            exercise=ExerciseFactory.create(kind=OTHERS[0]),
            starts_on=timezone.localdate(),
            no_contact_since=timezone.localdate(),
        )
    assert "no_contact_since" in refused.value.message_dict


def test_a_stored_date_does_not_stop_old_work_being_cancelled(cast):
    old = AssignmentFactory.create(
        client=cast.alice,
        exercise=ExerciseFactory.create(kind=OTHERS[0]),
        no_contact_since=dt.date(2030, 1, 1),
    )
    services.assignment_update(actor=cast.tara, assignment=old, status=Assignment.Status.CANCELLED)
    old.refresh_from_db()
    assert old.status == Assignment.Status.CANCELLED


# 20:00 on 30 November in London: already 09:00 on 1 December in Auckland,
# and still noon on 30 November in Los Angeles.
LONDON_EVENING = dt.datetime(2026, 11, 30, 20, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize("kind", TRACKERS)
def test_the_clients_today_counts_where_their_day_is_ahead(cast, kind, monkeypatch):
    """A client in Auckland says in the morning that they stopped contact
    today: it is 1 December for them, and the therapist writes that down."""
    cast.alice.timezone = "Pacific/Auckland"
    cast.alice.save()
    monkeypatch.setattr(timezone, "now", lambda: LONDON_EVENING)
    response, saved = _add(cast, kind, "2026-12-01")
    assert response.status_code == 302
    assert saved.no_contact_since == dt.date(2026, 12, 1)


@pytest.mark.parametrize("kind", TRACKERS)
def test_a_day_not_yet_begun_for_the_client_is_refused_saying_why(cast, kind, monkeypatch):
    """In Los Angeles 1 December has not begun: counting from it would read
    "No contact for 0 days (since 1 Dec)", the slip this check is for."""
    cast.alice.timezone = "America/Los_Angeles"
    cast.alice.save()
    late = LONDON_EVENING + dt.timedelta(hours=5)  # 01:00 on 1 December in London
    monkeypatch.setattr(timezone, "now", lambda: late)
    response, saved = _add(cast, kind, "2026-12-01")
    assert saved is None
    error = response.context["adminform"].form.errors["no_contact_since"][0]
    assert "30 November" in error and "where the client is" in error
