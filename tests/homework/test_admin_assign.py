"""Assigning from the admin: the form, its preview, and several clients at once."""

import datetime as dt
import html
import json
import re
from typing import Any

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse
from django.utils import timezone

from homework.models import Assignment
from tests.conftest import login, save_change_form
from tests.factories import AssignmentFactory, ClientFactory, ExerciseFactory, SessionFactory
from tests.helpers import assignment_form

ADD = "admin:homework_assignment_add"
PREVIEW = "admin:homework_assignment_preview"


def assigned_by_tara(cast, exercise, *, follow: bool = False, **fields: Any):
    """Tara's add form, posted: ``exercise`` for Alice, with ``fields`` changed."""
    return login(cast.tara).post(
        reverse(ADD), assignment_form(cast, cast.alice, exercise, **fields), follow=follow
    )


def assert_refused_on(response, exercise, field: str, errors: list[str]) -> None:
    """The form came back with ``errors`` beside ``field``, and nothing was assigned."""
    assert response.status_code == 200
    assert response.context["adminform"].form.errors[field] == errors
    assert not Assignment.objects.filter(exercise=exercise).exists()


def test_weekly_schedule_is_chosen_with_check_boxes(cast):
    exercise = ExerciseFactory.create()
    today = timezone.localdate()
    page = login(cast.tara).get(reverse(ADD))
    assert 'type="checkbox" name="weekdays" value="0"' in page.text
    response = assigned_by_tara(
        cast,
        exercise,
        schedule="weekly",
        weekdays=["0", "3"],
        ends_on=(today + dt.timedelta(days=28)).isoformat(),
    )
    assert response.status_code == 302
    assignment = Assignment.objects.get(exercise=exercise)
    # The due date typed before switching to "weekly" is hidden on the page, so dropped.
    assert (assignment.weekdays, assignment.due_on) == ([0, 3], None)


def _weekly_by_form(cast, exercise, starts):
    return assigned_by_tara(cast, exercise, schedule="weekly", starts_on=starts.isoformat())


def _weekly_for_several(cast, exercise, starts):
    data = action_post([cast.alice], exercise, schedule="weekly", starts_on=starts.isoformat())
    return login(cast.tara).post(reverse("admin:clients_client_changelist"), data)


def _weekly_by_api(cast, exercise, starts):
    body = {"exercise": exercise.pk, "starts_on": starts.isoformat(), "schedule": "weekly"}
    return login(cast.tara).post(
        f"/api/v1/clients/{cast.alice.pk}/assignments/",
        json.dumps(body),
        content_type="application/json",
    )


@pytest.mark.parametrize("assign", [_weekly_by_form, _weekly_for_several, _weekly_by_api])
def test_weekly_work_with_no_day_chosen_comes_on_its_start_dates_weekday(cast, assign):
    exercise = ExerciseFactory.create()
    starts = timezone.localdate() + dt.timedelta(days=2)
    response = assign(cast, exercise, starts)
    assert response.status_code in (201, 302)
    assignment = Assignment.objects.get(exercise=exercise)
    assert (assignment.schedule, assignment.weekdays) == ("weekly", [starts.weekday()])


def test_a_schedule_ending_before_it_starts_is_explained_on_its_field(cast):
    exercise = ExerciseFactory.create()
    today = timezone.localdate()
    response = assigned_by_tara(
        cast, exercise, schedule="daily", ends_on=(today - dt.timedelta(days=1)).isoformat()
    )
    assert_refused_on(response, exercise, "ends_on", ["A schedule cannot end before it starts."])


def test_unchanged_library_words_are_not_stored_as_personal(cast):
    exercise = ExerciseFactory.create(instructions="Write it down while it is fresh.")
    http = login(cast.tara)
    http.post(
        reverse(ADD),
        assignment_form(
            cast, cast.alice, exercise, instructions="Write it down while it is fresh.\n"
        ),
    )
    assert Assignment.objects.get(exercise=exercise).instructions == ""


def test_saving_goes_back_to_the_client_with_the_schedule_in_words(cast):
    exercise = ExerciseFactory.create(title="One small boundary")
    response = assigned_by_tara(cast, exercise, follow=True)
    assert response.redirect_chain[-1][0] == reverse(
        "admin:clients_client_change", args=[cast.alice.pk]
    )
    assert "“One small boundary” is assigned to Alice: Once, by" in response.text


def test_the_form_starts_today_and_is_due_by_the_next_session(cast):
    next_session = timezone.now() + dt.timedelta(days=3)
    SessionFactory.create(client=cast.alice, starts_at=next_session)
    page = login(cast.tara).get(f"{reverse(ADD)}?client={cast.alice.pk}")
    initial = page.context["adminform"].form.initial
    assert initial["starts_on"] == timezone.localdate()
    assert initial["due_on"] == timezone.localdate(next_session)


def test_due_by_the_next_session_is_the_sessions_day_on_the_clients_calendar(cast, monkeypatch):
    """A due date is read on the client's calendar (past due once their day
    is over): a session at 07:00 on 3 December in London is on the evening of
    2 December in Los Angeles, so work due "by the session" is due then,
    not the day after it."""
    cast.alice.timezone = "America/Los_Angeles"
    cast.alice.save(update_fields=["timezone"])
    monkeypatch.setattr(timezone, "now", lambda: dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC))
    SessionFactory.create(client=cast.alice, starts_at=dt.datetime(2026, 12, 3, 7, tzinfo=dt.UTC))
    page = login(cast.tara).get(f"{reverse(ADD)}?client={cast.alice.pk}")
    assert page.context["adminform"].form.initial["due_on"] == dt.date(2026, 12, 2)


def test_new_work_starts_on_the_clients_today(cast, monkeypatch):
    """At 20:00 in London it is already 09:00 tomorrow in Auckland: daily
    work starting on the practice's today would begin with a day gone by
    before it was set, counted as expected and never done."""
    cast.alice.timezone = "Pacific/Auckland"
    cast.alice.save(update_fields=["timezone"])
    monkeypatch.setattr(timezone, "now", lambda: dt.datetime(2026, 11, 30, 20, tzinfo=dt.UTC))
    page = login(cast.tara).get(f"{reverse(ADD)}?client={cast.alice.pk}")
    initial = page.context["adminform"].form.initial
    assert initial["starts_on"] == dt.date(2026, 12, 1)
    assert initial["due_on"] == dt.date(2026, 12, 8)


def offered(page_text: str) -> dict[str, list[str]]:
    """The library picker's groups, each with its items' words, as the add form draws them."""
    picker = re.search(r'<select name="exercise".*?</select>', page_text, re.S)
    assert picker is not None
    return {
        html.unescape(label): [html.unescape(o) for o in re.findall(r"<option[^>]*>([^<]*)<", body)]
        for label, body in re.findall(
            r'<optgroup label="([^"]*)">(.*?)</optgroup>', picker.group(0), re.S
        )
    }


def test_the_library_picker_groups_items_by_what_they_are_and_says_what_each_is(cast):
    ExerciseFactory.create(title="Harbour, Tara's", owner=cast.tara)
    ExerciseFactory.create(title="Harbour, Theo's", owner=cast.theo)
    ExerciseFactory.create(title="Harbour, retired", is_active=False)
    groups = offered(login(cast.tara).get(reverse(ADD)).text)
    assert list(groups) == [
        "Readings",
        "Worksheets",
        "Logs and trackers",
        "Standard measures",
        "Safety",
    ]
    measures = groups["Standard measures"]
    assert "PHQ-9 — Patient Health Questionnaire (depression), as published" in measures
    assert any(words.startswith("GAD-7 — ") for words in measures)
    assert not any(words.startswith(("PHQ-9", "GAD-7")) for words in groups["Worksheets"])
    assert (
        "Harbour, Tara's — A difficult moment, written down soon after it happens."
        in groups["Logs and trackers"]
    )
    everything = " ".join(words for items in groups.values() for words in items)
    assert "Theo's" not in everything and "retired" not in everything


# -- the preview ----------------------------------------------------------------------


def test_preview_shows_the_personal_words_the_schedule_and_the_form(cast):
    exercise = ExerciseFactory.create(title="Keep the full picture")
    today = timezone.localdate()
    response = login(cast.tara).post(
        reverse(PREVIEW),
        {
            "exercise": str(exercise.pk),
            "instructions": "Just one, after Friday's call.",
            "schedule": "weekly",
            "weekdays": ["4"],
            "starts_on": today.isoformat(),
            "ends_on": (today + dt.timedelta(days=14)).isoformat(),
        },
    )
    assert response.status_code == 200
    assert response["X-Frame-Options"] == "SAMEORIGIN"
    text = response.text
    assert "Just one, after Friday&#x27;s call." in text
    assert "Every Friday until" in text
    assert 'name="r-what_happened"' in text and "<fieldset disabled" in text
    assert 'id="quick-exit"' not in text  # a picture of the portal, not a way out of the admin


def test_a_refused_form_comes_back_with_its_preview_already_shown(cast):
    """Save refused (a date that is no date): the page came back with the
    therapist's words kept but the preview empty until something changed.
    It now shows, straight away, what the kept input would give the client."""
    exercise = ExerciseFactory.create(title="Keep the full picture")
    response = assigned_by_tara(
        cast, exercise, instructions="Just one, after Friday's call.", due_on="soon"
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["due_on"]
    frame = re.search(r'name="assign-preview"[^<]*?srcdoc="([^"]*)"', response.text)
    assert frame is not None
    shown = html.unescape(frame.group(1))
    assert "Just one, after Friday&#x27;s call." in shown
    assert 'name="r-what_happened"' in shown and "<fieldset disabled" in shown
    assert "Choose an exercise" not in shown
    assert not Assignment.objects.filter(exercise=exercise).exists()


def shown_preview(page_text):
    """What the preview frame beside the form shows as the page loads."""
    frame = re.search(r'name="assign-preview"[^<]*?srcdoc="([^"]*)"', page_text)
    assert frame is not None
    return html.unescape(frame.group(1))


def test_a_saved_assignment_opens_with_its_preview_shown(cast):
    """Its exercise is chosen: the frame said "Choose an exercise" until something changed."""
    exercise = ExerciseFactory.create(title="Keep the full picture")
    assignment = AssignmentFactory.create(
        client=cast.alice, exercise=exercise, instructions="Just one, after Friday's call."
    )
    page = login(cast.tara).get(reverse("admin:homework_assignment_change", args=[assignment.pk]))
    assert page.status_code == 200
    shown = shown_preview(page.text)
    assert "Choose an exercise" not in shown
    assert "Keep the full picture" in shown
    assert "Just one, after Friday&#x27;s call." in shown
    assert 'name="r-what_happened"' in shown and "<fieldset disabled" in shown


def test_a_new_assignment_with_nothing_chosen_asks_for_an_exercise(cast):
    page = login(cast.tara).get(reverse(ADD))
    assert "Choose an exercise" in shown_preview(page.text)


def test_a_refused_form_previews_only_an_exercise_from_the_therapists_library(cast):
    theirs = ExerciseFactory.create(title="Theo's private exercise", owner=cast.theo)
    response = assigned_by_tara(cast, theirs, due_on="soon")
    assert response.status_code == 200
    assert "Theo&#x27;s private exercise" not in html.unescape(response.text)


@pytest.mark.parametrize("named", ["theirs", "not a number"])
def test_preview_of_someone_elses_exercise_is_not_found(cast, named):
    theirs = ExerciseFactory.create(title="Theo's private exercise", owner=cast.theo)
    exercise = str(theirs.pk) if named == "theirs" else named
    response = login(cast.tara).post(reverse(PREVIEW), {"exercise": exercise})
    assert response.status_code == 404
    assert "Theo&#x27;s private exercise" not in response.text
    assert "not in your library" in response.text


def test_preview_only_takes_posts(cast):
    assert login(cast.tara).get(reverse(PREVIEW)).status_code == 405


# -- several clients at once -------------------------------------------------------------


def action_post(clients, exercise=None, **extra):
    data = {"action": "assign_exercise", ACTION_CHECKBOX_NAME: [str(c.pk) for c in clients]}
    if exercise is not None:
        today = timezone.localdate()
        data.update(
            apply="1",
            exercise=str(exercise.pk),
            instructions="",
            schedule="once",
            starts_on=today.isoformat(),
            due_on=(today + dt.timedelta(days=7)).isoformat(),
        )
    data.update(extra)
    return data


def test_assign_to_several_clients_through_an_intermediate_page(cast):
    other = ClientFactory.create(therapist=cast.tara, display_name="Casey")
    exercise = ExerciseFactory.create(title="Support map")
    http = login(cast.tara)
    url = reverse("admin:clients_client_changelist")
    page = http.post(url, action_post([cast.alice, other]))
    assert page.status_code == 200
    assert "Alice" in page.text and "Casey" in page.text
    done = http.post(url, action_post([cast.alice, other], exercise), follow=True)
    assert "“Support map” was assigned to 2 clients." in done.text
    assert {a.client for a in Assignment.objects.filter(exercise=exercise)} == {cast.alice, other}


def test_the_page_for_several_clients_picks_dates_and_promises_no_preview(cast):
    # The page had plain text boxes for its dates (no calendar, no "Today",
    # no hint of the format the single form shows) and told the therapist
    # "the preview shows the result" on a page with no preview.
    page = login(cast.tara).post(
        reverse("admin:clients_client_changelist"), action_post([cast.alice])
    )
    assert page.status_code == 200
    for name in ("starts_on", "due_on", "ends_on"):
        field = re.search(rf'<input[^>]*name="{name}"[^>]*>', page.text)
        assert field is not None and "vDateField" in field.group(0), name
    assert "preview" not in page.text.lower()


def test_assign_sent_twice_makes_one_assignment_and_both_say_assigned(cast):
    """A double click on Save, or the form sent again: the client would see
    the same exercise twice in their "To do"."""
    exercise = ExerciseFactory.create(title="One small boundary")
    http = login(cast.tara)
    form = assignment_form(cast, cast.alice, exercise)
    first = http.post(reverse(ADD), form)
    second = http.post(reverse(ADD), form, follow=True)
    assert first.status_code == 302
    assert "“One small boundary” is assigned to Alice" in second.text
    assert Assignment.objects.filter(exercise=exercise).count() == 1


def test_the_same_exercise_on_other_dates_is_new_work(cast):
    exercise = ExerciseFactory.create()
    http = login(cast.tara)
    http.post(reverse(ADD), assignment_form(cast, cast.alice, exercise))
    later = (timezone.localdate() + dt.timedelta(days=14)).isoformat()
    http.post(reverse(ADD), assignment_form(cast, cast.alice, exercise, due_on=later))
    assert Assignment.objects.filter(exercise=exercise).count() == 2


def test_several_clients_assigned_twice_get_it_once_each(cast):
    other = ClientFactory.create(therapist=cast.tara, display_name="Casey")
    exercise = ExerciseFactory.create(title="Support map")
    http = login(cast.tara)
    url = reverse("admin:clients_client_changelist")
    http.post(url, action_post([cast.alice, other], exercise))
    again = http.post(url, action_post([cast.alice, other], exercise), follow=True)
    assert "“Support map” was assigned to 2 clients." in again.text
    assert Assignment.objects.filter(exercise=exercise).count() == 2


def test_a_crafted_action_for_another_therapists_client_assigns_nothing(cast):
    exercise = ExerciseFactory.create()
    response = login(cast.tara).post(
        reverse("admin:clients_client_changelist"),
        action_post([cast.alice, cast.bob], exercise),
        follow=True,
    )
    assert "Some of the chosen clients are not yours" in response.text
    assert not Assignment.objects.filter(exercise=exercise).exists()


def test_several_clients_with_a_broken_schedule_see_why_and_nothing_is_saved(cast):
    exercise = ExerciseFactory.create()
    today = timezone.localdate()
    response = login(cast.tara).post(
        reverse("admin:clients_client_changelist"),
        action_post(
            [cast.alice],
            exercise,
            schedule="weekly",
            weekdays=[str((today.weekday() + 1) % 7)],
            ends_on=today.isoformat(),
        ),
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "None of these days falls between" in errors["weekdays"][0]
    assert not Assignment.objects.filter(exercise=exercise).exists()


def test_an_exercise_outside_your_library_is_refused_for_several_clients(cast):
    theirs = ExerciseFactory.create(owner=cast.theo)
    response = login(cast.tara).post(
        reverse("admin:clients_client_changelist"), action_post([cast.alice], theirs)
    )
    assert "Choose an exercise from your library." in response.context["form"].errors["exercise"]
    assert not Assignment.objects.filter(exercise=theirs).exists()


def test_an_archived_clients_assignment_can_still_be_closed(cast):
    from clients.services import client_archive

    client_archive(actor=cast.tara, client=cast.alice)
    url = reverse("admin:homework_assignment_change", args=[cast.alice_assignment.pk])
    data = assignment_form(cast, cast.alice, cast.alice_assignment.exercise, status="cancelled")
    data.update(
        starts_on=cast.alice_assignment.starts_on.isoformat(),
        due_on=cast.alice_assignment.due_on.isoformat(),
        client=str(cast.bob.pk),  # crafted: the client cannot change anyway
    )
    response = save_change_form(login(cast.tara), url, data)
    assert response.status_code == 302
    cast.alice_assignment.refresh_from_db()
    assert (cast.alice_assignment.status, cast.alice_assignment.client) == ("cancelled", cast.alice)


# -- retired exercises in the library picker ----------------------------------------------


def test_the_library_list_still_finds_retired_exercises(cast):
    ExerciseFactory.create(title="Quayside walk, retired", is_active=False)
    page = login(cast.tara).get(reverse("admin:homework_exercise_changelist"), {"q": "quayside"})
    assert [e.title for e in page.context["cl"].result_list] == ["Quayside walk, retired"]


def test_work_set_with_a_retired_exercise_keeps_it_on_offer_while_edited(cast):
    retired = ExerciseFactory.create(title="Quayside walk, retired", owner=cast.tara)
    ExerciseFactory.create(title="Quayside walk, also retired", is_active=False)
    assignment = AssignmentFactory.create(client=cast.alice, exercise=retired)
    retired.is_active = False
    retired.save()
    page = login(cast.tara).get(reverse("admin:homework_assignment_change", args=[assignment.pk]))
    items = [words for group in offered(page.text).values() for words in group]
    assert [w for w in items if w.startswith("Quayside")] == [
        "Quayside walk, retired — A difficult moment, written down soon after it happens."
    ]


def test_several_clients_each_start_on_their_own_today(cast, monkeypatch):
    """At 20:00 in London it is already 09:00 tomorrow in Auckland: left to
    the default, each client's work starts on their own today, not the
    practice's (a day already gone for the client in Auckland)."""
    cast.alice.timezone = "Pacific/Auckland"
    cast.alice.save(update_fields=["timezone"])
    casey = ClientFactory.create(therapist=cast.tara, display_name="Casey")
    monkeypatch.setattr(timezone, "now", lambda: dt.datetime(2026, 11, 30, 20, tzinfo=dt.UTC))
    exercise = ExerciseFactory.create(title="Urge log")
    http = login(cast.tara)
    url = reverse("admin:clients_client_changelist")
    page = http.post(url, action_post([cast.alice, casey]))
    assert not page.context["form"]["starts_on"].value()
    assert "each client’s own today" in page.text
    http.post(
        url,
        action_post(
            [cast.alice, casey],
            exercise,
            schedule="daily",
            starts_on="",
            due_on="",
            ends_on="2026-12-30",
        ),
    )
    starts = dict(Assignment.objects.filter(exercise=exercise).values_list("client", "starts_on"))
    assert starts == {cast.alice.pk: dt.date(2026, 12, 1), casey.pk: dt.date(2026, 11, 30)}


def test_several_clients_given_a_start_date_all_start_on_it(cast):
    cast.alice.timezone = "Pacific/Auckland"
    cast.alice.save(update_fields=["timezone"])
    casey = ClientFactory.create(therapist=cast.tara, display_name="Casey")
    exercise = ExerciseFactory.create()
    chosen = timezone.localdate() + dt.timedelta(days=3)
    login(cast.tara).post(
        reverse("admin:clients_client_changelist"),
        action_post([cast.alice, casey], exercise, starts_on=chosen.isoformat(), due_on=""),
    )
    starts = set(Assignment.objects.filter(exercise=exercise).values_list("starts_on", flat=True))
    assert starts == {chosen}


def test_a_due_date_before_one_clients_own_today_names_them_and_assigns_nobody(cast, monkeypatch):
    """At 20:00 in London it is already tomorrow in Auckland: work due today,
    starting on each client's own today, would be due before it starts for
    the client there. The therapist is told who, and what to change; the
    others, listed before them, are not given it either (all or nothing)."""
    casey = ClientFactory.create(therapist=cast.tara, display_name="Casey")
    wren = ClientFactory.create(
        therapist=cast.tara, display_name="Wren", timezone="Pacific/Auckland"
    )
    monkeypatch.setattr(timezone, "now", lambda: dt.datetime(2026, 11, 30, 20, tzinfo=dt.UTC))
    exercise = ExerciseFactory.create()
    response = login(cast.tara).post(
        reverse("admin:clients_client_changelist"),
        action_post([cast.alice, casey, wren], exercise, starts_on="", due_on="2026-11-30"),
    )
    assert response.status_code == 200
    errors = " ".join(response.context["form"].errors["due_on"])
    assert "Wren" in errors and "Alice" not in errors and "Casey" not in errors
    assert "on or after Tuesday 1 December" in errors
    assert "Nothing was assigned" in response.text
    assert not Assignment.objects.filter(exercise=exercise).exists()


def test_a_last_day_before_their_own_today_names_every_client_it_is_for(cast, monkeypatch):
    """Each name kept apart from the sentence (practice.bidi), so an Arabic
    name beside another does not swap their order."""
    cast.alice.timezone = "Pacific/Auckland"
    cast.alice.save(update_fields=["timezone"])
    layla = ClientFactory.create(
        therapist=cast.tara, display_name="ليلى", timezone="Pacific/Auckland"
    )
    casey = ClientFactory.create(therapist=cast.tara, display_name="Casey")
    monkeypatch.setattr(timezone, "now", lambda: dt.datetime(2026, 11, 30, 20, tzinfo=dt.UTC))
    exercise = ExerciseFactory.create()
    response = login(cast.tara).post(
        reverse("admin:clients_client_changelist"),
        action_post(
            [cast.alice, casey, layla],
            exercise,
            schedule="daily",
            starts_on="",
            due_on="",
            ends_on="2026-11-30",
        ),
    )
    errors = " ".join(response.context["form"].errors["ends_on"])
    assert "Alice and \u2068ليلى\u2069" in errors
    assert "Casey" not in errors
    assert not Assignment.objects.filter(exercise=exercise).exists()


def test_the_page_lets_the_therapist_leave_a_client_out(cast):
    """A refusal may say "or leave them out": each chosen client is a ticked
    box, named by its label, and unticking one assigns to the others only."""
    casey = ClientFactory.create(therapist=cast.tara, display_name="Casey")
    http = login(cast.tara)
    url = reverse("admin:clients_client_changelist")
    page = http.post(url, action_post([cast.alice, casey]))
    for client in (cast.alice, casey):
        box = re.search(
            rf'<input type="checkbox" name="{ACTION_CHECKBOX_NAME}" value="{client.pk}"'
            rf' id="(?P<id>[\w-]+)" checked>',
            page.text,
        )
        assert box, f"no ticked box for {client.display_name}"
        assert f'<label for="{box["id"]}">{client.display_name}</label>' in page.text
    exercise = ExerciseFactory.create()
    http.post(url, action_post([casey], exercise))
    assert list(Assignment.objects.filter(exercise=exercise).values_list("client", flat=True)) == [
        casey.pk
    ]


# -- how long instructions may be ------------------------------------------------------


def test_instructions_pages_long_are_refused_beside_the_box_and_nothing_saved(cast):
    """200,000 characters of instructions were saved without a word: no
    client reads that, and every page and summary that shows them carries it."""
    exercise = ExerciseFactory.create()
    response = assigned_by_tara(cast, exercise, instructions="x" * 200_000)
    assert_refused_on(
        response,
        exercise,
        "instructions",
        ["This can be up to 5,000 characters; it has 200,000. Please shorten it."],
    )


def test_instructions_of_the_longest_allowed_length_are_saved(cast):
    exercise = ExerciseFactory.create()
    response = assigned_by_tara(cast, exercise, instructions="x" * 5000)
    assert response.status_code == 302
    assert len(Assignment.objects.get(exercise=exercise).instructions) == 5000


def test_a_saved_assignment_cannot_be_given_pages_long_instructions(cast):
    assignment = AssignmentFactory.create(client=cast.alice, instructions="Just one.")
    response = login(cast.tara).post(
        reverse("admin:homework_assignment_change", args=[assignment.pk]),
        assignment_form(
            cast,
            cast.alice,
            assignment.exercise,
            instructions="x" * 5001,
            starts_on=assignment.starts_on.isoformat(),
            due_on=str(assignment.due_on),
        ),
    )
    assert response.status_code == 200
    assert "up to 5,000 characters" in response.text
    assert Assignment.objects.get(pk=assignment.pk).instructions == "Just one."
