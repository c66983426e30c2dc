"""A program on the client's To do: each released step's card says which step of which program it
is; a program paused, or between steps, says calmly when the next step comes, never why, and
nothing names a step still to come. A client reads only their own programs."""

import datetime as dt

import pytest
from django.urls import reverse

from homework.models import ClientProgram, Release
from homework.selectors import client_today
from homework.selectors.programs import programs_for_client
from homework.services import programs
from practice.dates import calendar_day
from tests.conftest import login
from tests.helpers_entries import submit_written_record
from tests.helpers_program_pages import on_program, step_title, step_work

from .test_todo import section

pytestmark = pytest.mark.django_db

NEUTRAL = "Your next step will come when you and your therapist are ready."


def todo_section(user) -> str:
    page = login(user).get(reverse("homework:dashboard"))
    assert page.status_code == 200
    return section(page.content.decode(), "todo-title")


def test_a_released_steps_card_says_which_step_of_which_program_and_nothing_of_those_to_come(
    cast,
):
    client_program = on_program(cast)
    todo = todo_section(cast.alice.portal_user)
    assert step_title(client_program, 1) in todo
    assert "Step 1 of 3 · Understanding the pull" in todo
    for position in (2, 3):
        assert step_title(client_program, position) not in todo
    assert NEUTRAL not in todo  # a step is on To do: its card is the program's line


def test_the_next_step_takes_the_card_over_once_the_one_before_is_sent(cast):
    client_program = on_program(cast)
    submit_written_record(step_work(client_program, 1))
    todo = todo_section(cast.alice.portal_user)
    assert "Step 2 of 3 ·" in todo
    assert step_title(client_program, 2) in todo
    assert step_title(client_program, 3) not in todo


def test_a_paused_program_says_only_that_the_next_step_comes_when_both_are_ready(cast):
    client_program = on_program(cast)
    programs.client_program_pause(actor=cast.tara, client_program_id=client_program.pk)
    todo = todo_section(cast.alice.portal_user)
    assert NEUTRAL in todo
    assert "Step 1 of 3" in todo
    # The reason is the therapist's: no word of it, nor that the program was paused.
    for word in ("paused", "pause", "safe", "crisis", "therapist paused"):
        assert word not in todo.lower().replace(NEUTRAL.lower(), "")


def test_a_step_waiting_on_a_day_says_the_day_and_not_what_comes(cast):
    today = client_today(cast.alice)
    client_program = on_program(
        cast, rules=((Release.RIGHT_AWAY, None), (Release.AFTER_PREVIOUS_DAYS, 3))
    )
    submit_written_record(step_work(client_program, 1))
    todo = todo_section(cast.alice.portal_user)
    day = calendar_day(today + dt.timedelta(days=3), "l j F")
    assert f"Your next step comes on {day}." in todo
    assert "Step 2 of 2" in todo
    assert step_title(client_program, 2) not in todo


def test_a_program_not_yet_begun_says_the_day_it_begins(cast):
    starts_on = client_today(cast.alice) + dt.timedelta(days=5)
    on_program(cast, starts_on=starts_on)
    (program,) = programs_for_client(user=cast.alice.portal_user)
    assert (program.step, program.next_on, program.open_steps) == (1, starts_on, {})


def test_a_stopped_program_says_nothing_and_its_released_work_stays_plain(cast):
    client_program = on_program(cast)
    programs.client_program_stop(actor=cast.tara, client_program_id=client_program.pk)
    todo = todo_section(cast.alice.portal_user)
    assert step_title(client_program, 1) in todo  # released work stays the client's, as it was
    assert "Understanding the pull" not in todo
    assert "Step 1" not in todo


def test_a_client_never_sees_another_clients_program(cast):
    on_program(cast, title="Alice's path")
    bobs = on_program(cast, client=cast.bob, title="Bob's path")
    ClientProgram.objects.filter(pk=bobs.pk).update(status=ClientProgram.Status.PAUSED)
    assert [p.title for p in programs_for_client(user=cast.alice.portal_user)] == ["Alice's path"]
    todo = todo_section(cast.alice.portal_user)
    assert "Bob" not in todo
    assert NEUTRAL not in todo
    # Staff have no portal programs, whoever's therapist they are.
    for user in (cast.tara, cast.theo, cast.morgan):
        assert programs_for_client(user=user) == []
