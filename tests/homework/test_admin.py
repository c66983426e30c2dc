"""The therapist's side of the slice, through the real admin views."""

import datetime as dt
import re

from django.urls import reverse
from django.utils import timezone

from homework.models import Assignment, Entry
from tests.conftest import login, save_change_form
from tests.factories import ExerciseFactory
from tests.helpers import assignment_form


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


def test_each_value_in_the_list_of_entries_carries_its_columns_name(cast):
    """On a phone the columns stack and the headings are out of sight: each
    cell names its column (css/admin.css shows it beside the value)."""
    listing = login(cast.tara).get(reverse("admin:homework_entry_changelist"))
    row = re.search(r"<tbody>\s*<tr>(.*?)</tr>", listing.text, re.S)
    assert row is not None
    labels = re.findall(r'<t[dh] data-label="([^"]*)"', row.group(1))
    assert labels == ["Exercise", "Client", "Submitted", "Flags", "Excerpt", "Read", "Comments"]


def _first_rows_labels(text: str) -> list[str]:
    row = re.search(r"<tbody>\s*<tr>(.*?)</tr>", text, re.S)
    assert row is not None
    return re.findall(r'<t[dh] data-label="([^"]*)"', row.group(1))


def test_each_value_in_the_lists_of_clients_and_assignments_carries_its_columns_name(cast):
    """The lists of clients and assignments stack on a phone as the entries do."""
    http = login(cast.tara)
    clients = http.get(reverse("admin:clients_client_changelist"))
    # The tick box for the actions names nothing: it is a box, not a value.
    assert _first_rows_labels(clients.text) == [
        "",
        "Display name",
        "Next session",
        "Open work",
        "Last entry",
    ]
    assignments = http.get(reverse("admin:homework_assignment_changelist"))
    assert _first_rows_labels(assignments.text) == [
        "",  # the tick box for ending open-ended work
        "Exercise",
        "Client",
        "Starts on",
        "Schedule",
        "Status",
    ]
    for listing in (clients, assignments):
        assert '<table id="result_list" class="ws-stacked">' in listing.text


def test_a_list_that_does_not_stack_is_drawn_as_django_draws_it(cast):
    """Only the lists that ask for it stack on a phone; the others (here the
    exercises) keep Django's table at every width, with nothing added."""
    ExerciseFactory.create(title="Keep the full picture")
    listing = login(cast.tara).get(reverse("admin:homework_exercise_changelist"))
    assert '<table id="result_list">' in listing.text
    assert "Keep the full picture" in listing.text
    assert "data-label" not in listing.text
    assert "ws-stacked" not in listing.text


def _sort_control(text: str) -> str:
    control = re.search(r'<nav class="ws-sort".*?</nav>', text, re.S)
    assert control is not None, "no sort control"
    return re.sub(r"\s+", " ", control.group(0))


def test_a_stacked_list_offers_its_sorting_above_the_rows(cast):
    """On a phone the headings, and Django's sorting with them, are out of
    sight: the list offers the same sorting above its rows, from the links
    Django gives each heading (the current order said in words)."""
    http = login(cast.tara)
    control = _sort_control(http.get(reverse("admin:clients_client_changelist")).text)
    # Named by its visible title; the sortable columns only (not "Open work").
    assert 'aria-labelledby="ws-sort-title"' in control
    assert '<h2 id="ws-sort-title">Sort by</h2>' in control
    assert "Open work" not in control
    # By name, A to Z (the model's ordering): said, and a link to turn it round.
    assert "<strong>Display name</strong> <span>(sorted ascending)</span>" in control
    assert '<a href="?o=-1">Sort descending</a>' in control
    # Any other column first.
    assert '<a href="?o=2.1">Next session</a>' in control
    assert '<a href="?o=4.1">Last entry</a>' in control
    # Sorted the other way round, the words and the link follow.
    turned = _sort_control(http.get(reverse("admin:clients_client_changelist") + "?o=-1").text)
    assert "<strong>Display name</strong> <span>(sorted descending)</span>" in turned
    assert '<a href="?o=1">Sort ascending</a>' in turned
    # A list that does not stack keeps its headings at every width: nothing added.
    ExerciseFactory.create(title="Keep the full picture")
    exercises = http.get(reverse("admin:homework_exercise_changelist")).text
    assert "ws-sort" not in exercises and "Sort by" not in exercises


def test_a_column_name_is_escaped_where_it_names_a_cell():
    from practice.templatetags.admin_lists import cell_labels, labelled_cells

    cell = '<td class="field-x">1</td>'
    drawn = labelled_cells([cell], cell_labels([{"text": 'say "<b>hi</b>" & go'}]))
    assert drawn == '<td data-label="Say &quot;hi&quot; &amp; go" class="field-x">1</td>'


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


def change(cast, assignment, **overrides):
    form = assignment_form(cast, assignment.client, assignment.exercise)
    form["starts_on"] = assignment.starts_on.isoformat()
    form["due_on"] = assignment.due_on.isoformat() if assignment.due_on else ""
    form.update(overrides)
    return save_change_form(
        login(cast.tara), reverse("admin:homework_assignment_change", args=[assignment.pk]), form
    )


def test_work_with_entries_keeps_its_exercise_and_says_why(cast):
    """Entries are read by their exercise: swapping it (here for another kind)
    would leave them unreadable."""
    other = ExerciseFactory.create(kind="urge_log", title="No contact")
    response = change(cast, cast.alice_assignment, exercise=str(other.pk))
    assert response.status_code == 200
    assert "The client has already written for this exercise" in str(
        response.context["adminform"].form.errors["exercise"]
    )
    cast.alice_assignment.refresh_from_db()
    assert cast.alice_assignment.exercise != other
    fresh = Assignment.objects.create(
        client=cast.alice,
        exercise=cast.alice_assignment.exercise,
        starts_on=timezone.localdate(),
        due_on=timezone.localdate(),
        created_by=cast.tara,
    )
    assert change(cast, fresh, exercise=str(other.pk)).status_code == 302  # nothing written yet


def test_work_set_with_a_retired_exercise_can_still_be_cancelled(cast):
    exercise = cast.alice_assignment.exercise
    exercise.is_active = False
    exercise.save(update_fields=["is_active"])
    response = change(cast, cast.alice_assignment, status="cancelled")
    assert response.status_code == 302, response.context["adminform"].form.errors
    cast.alice_assignment.refresh_from_db()
    assert cast.alice_assignment.status == Assignment.Status.CANCELLED


def test_a_weekly_schedule_with_no_chosen_day_in_its_dates_is_explained(cast):
    monday = timezone.localdate() - dt.timedelta(days=timezone.localdate().weekday())
    response = login(cast.tara).post(
        reverse("admin:homework_assignment_add"),
        assignment_form(
            cast,
            cast.alice,
            ExerciseFactory.create(),
            schedule="weekly",
            starts_on=monday.isoformat(),
            due_on="",
            ends_on=(monday + dt.timedelta(days=1)).isoformat(),
            weekdays=["4"],  # Friday: not between Monday and Tuesday
        ),
    )
    assert response.status_code == 200
    assert "None of these days falls between the start and the end date." in response.text


def test_felt_unsafe_stands_out_on_the_entry_page_and_list_as_on_the_home_page(cast):
    """The admin home marks it in the flag colour; the entry itself said it
    in plain text, like any other row."""
    Entry.objects.filter(pk=cast.alice_entry.pk).update(felt_unsafe=True, discuss_in_session=True)
    http = login(cast.tara)
    unsafe = '<span class="ws-badge ws-badge--unsafe">felt unsafe</span>'
    talk = '<span class="ws-badge">wants to talk about this</span>'
    for url in (
        reverse("admin:homework_entry_change", args=[cast.alice_entry.pk]),
        reverse("admin:homework_entry_changelist"),
        reverse("admin:index"),
    ):
        page = http.get(url).text
        assert unsafe in page and talk in page, url
