"""The therapist's side of the slice, through the real admin views."""

import datetime as dt

from django.urls import reverse
from django.utils import timezone

from homework.models import Assignment
from tests.conftest import login
from tests.factories import ExerciseFactory


def assignment_form(cast, client, exercise, **overrides):
    today = timezone.localdate()
    return {
        "client": str(client.pk),
        "exercise": str(exercise.pk),
        "instructions": "Write one down this week, if something happens.",
        "starts_on": today.isoformat(),
        "due_on": (today + dt.timedelta(days=7)).isoformat(),
        "schedule": "once",
        "weekdays": [],  # check boxes: none ticked
        "ends_on": "",
        "no_contact_since": "",
        "status": "active",
        **overrides,
    }


def test_therapist_assigns_from_the_client_page(cast):
    http = login(cast.tara)
    client_page = http.get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
    add_url = reverse("admin:homework_assignment_add")
    assert f"{add_url}?client={cast.alice.pk}" in client_page.text
    prefilled = http.get(f"{add_url}?client={cast.alice.pk}")
    assert prefilled.status_code == 200
    exercise = ExerciseFactory.create(title="One small boundary")
    response = http.post(add_url, assignment_form(cast, cast.alice, exercise))
    assert response.status_code == 302, response.context["adminform"].form.errors
    assignment = Assignment.objects.get(exercise=exercise)
    assert (assignment.client, assignment.created_by) == (cast.alice, cast.tara)


def test_crafted_post_for_another_therapists_client_changes_nothing(cast):
    http = login(cast.tara)
    exercise = ExerciseFactory.create()
    response = http.post(
        reverse("admin:homework_assignment_add"), assignment_form(cast, cast.bob, exercise)
    )
    assert response.status_code == 200
    assert "client" in response.context["adminform"].form.errors
    assert not Assignment.objects.filter(exercise=exercise).exists()


def test_schedule_ending_before_it_starts_is_explained(cast):
    http = login(cast.tara)
    exercise = ExerciseFactory.create()
    today = timezone.localdate()
    response = http.post(
        reverse("admin:homework_assignment_add"),
        assignment_form(
            cast, cast.alice, exercise, due_on=(today - dt.timedelta(days=3)).isoformat()
        ),
    )
    assert response.status_code == 200
    assert "The due date cannot be before the start date." in response.text
    assert not Assignment.objects.filter(exercise=exercise).exists()


def test_therapist_reads_their_clients_entry(cast):
    http = login(cast.tara)
    listing = http.get(reverse("admin:homework_entry_changelist"))
    assert listing.status_code == 200
    assert "Alice" in listing.text and "Bob" not in listing.text
    detail = http.get(reverse("admin:homework_entry_change", args=[cast.alice_entry.pk]))
    assert cast.alice_entry.response["what_happened"] in detail.text


def test_therapist_cannot_see_another_therapists_client_or_entry(cast):
    http = login(cast.theo)
    assert "Alice" not in http.get(reverse("admin:clients_client_changelist")).text
    client_page = http.get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
    assert client_page.status_code == 302  # the admin's "no such object" redirect
    entry_page = http.get(reverse("admin:homework_entry_change", args=[cast.alice_entry.pk]))
    assert entry_page.status_code == 302
    assert cast.alice_entry.response["what_happened"] not in http.get(entry_page["Location"]).text


def test_private_entry_shows_only_that_it_exists(cast):
    cast.alice_entry.private = True
    cast.alice_entry.save()
    http = login(cast.tara)
    detail = http.get(reverse("admin:homework_entry_change", args=[cast.alice_entry.pk]))
    assert "kept this entry private" in detail.text
    assert cast.alice_entry.response["what_happened"] not in detail.text
    listing = http.get(reverse("admin:homework_entry_changelist"))
    assert cast.alice_entry.response["what_happened"][:40] not in listing.text


def test_staff_cannot_edit_a_clients_words(cast):
    http = login(cast.morgan)
    url = reverse("admin:homework_entry_change", args=[cast.alice_entry.pk])
    http.post(url, {"response": "{}"})
    cast.alice_entry.refresh_from_db()
    assert cast.alice_entry.response["what_happened"]


def test_manager_sees_every_client(cast):
    listing = login(cast.morgan).get(reverse("admin:clients_client_changelist"))
    assert "Alice" in listing.text and "Bob" in listing.text


def test_client_login_never_reaches_the_admin(cast):
    response = login(cast.alice.portal_user).get(reverse("admin:index"))
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]
