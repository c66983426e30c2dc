"""A client's programs on their page in the workspace: the panel, assigning one, and the Pause,
Resume, Stop and Skip buttons, each through its service; bad or replayed posts change nothing."""

import datetime as dt

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clients.services import client_archive
from homework.models import Assignment, ClientProgram, Release
from homework.selectors import client_today
from homework.services import programs
from practice.dates import calendar_day
from tests.conftest import Cast, login
from tests.helpers_entries import submit_written_record
from tests.helpers_program_pages import on_program, step_title, step_work
from tests.helpers_programs import build

pytestmark = pytest.mark.django_db


def page_url(cast: Cast) -> str:
    return reverse("admin:clients_client_change", args=[cast.alice.pk])


def action_url(cast: Cast, client_program: ClientProgram, action: str) -> str:
    return reverse(
        f"admin:clients_client_program_{action}", args=[cast.alice.pk, client_program.pk]
    )


def assign_url(cast: Cast) -> str:
    return reverse("admin:clients_client_assign_program", args=[cast.alice.pk])


def panel(http, cast: Cast) -> str:
    page = http.get(page_url(cast))
    assert page.status_code == 200
    html: str = page.content.decode()
    return html[html.index('id="programs"') : html.index('class="ws-edit-heading"')]


def said(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def state_of(client_program: ClientProgram) -> tuple[str, list[tuple[object, object, object]]]:
    client_program.refresh_from_db()
    steps = client_program.steps.order_by("position")
    return client_program.status, [
        (step.assignment_id, step.done_on, step.skipped_at) for step in steps
    ]


# -- the panel


def test_the_panel_shows_each_step_and_what_became_of_it(cast: Cast) -> None:
    today = client_today(cast.alice)
    client_program = on_program(
        cast,
        rules=(
            (Release.RIGHT_AWAY, None),
            (Release.AFTER_PREVIOUS, None),
            (Release.AFTER_PREVIOUS, None),
            (Release.ON_DAY, 20),
            (Release.AFTER_PREVIOUS_DAYS, 2),
        ),
    )
    submit_written_record(step_work(client_program, 1))
    programs.client_program_skip_step(
        actor=cast.tara,
        client_program_id=client_program.pk,
        step_id=client_program.steps.get(position=3).pk,
    )
    html = panel(login(cast.tara), cast)
    assert "Understanding the pull" in html
    assert "Step 2 of 5" in html
    assert "running" in html
    done = calendar_day(today, "D j M")
    assert f"done on {done}" in html
    assert "sent, not yet done" in html  # step 2
    assert f"skipped on {done}" in html  # step 3
    day_20 = calendar_day(today + dt.timedelta(days=19), "D j M")
    assert f"waiting: comes on {day_20}" in html  # step 4, on its day
    assert "waiting: comes once step 4 is done" in html  # step 5
    for position in range(1, 6):
        assert step_title(client_program, position) in html
    # Skip only where a step is not yet finished: steps 2, 4 and 5.
    assert html.count('name="step"') == 3
    assert 'aria-label="Skip step 1"' not in html
    assert "Pause" in html and "Resume" not in html
    assert "This cannot be undone" in html


def test_a_paused_program_offers_resume_and_promises_no_day(cast: Cast) -> None:
    client_program = on_program(cast)
    programs.client_program_pause(actor=cast.tara, client_program_id=client_program.pk)
    html = panel(login(cast.tara), cast)
    assert "paused" in html
    assert "Resume" in html and ">Pause<" not in html
    assert "nothing comes while the program is paused" in html


def test_ended_programs_come_after_the_running_ones_in_a_line(cast: Cast) -> None:
    ended = on_program(cast, title="Old path")
    programs.client_program_stop(actor=cast.tara, client_program_id=ended.pk)
    on_program(cast, title="New path")
    html = panel(login(cast.tara), cast)
    assert html.index("New path") < html.index("Ended") < html.index("Old path")
    assert "stopped · 0 of 3 steps done or skipped" in " ".join(html.split())
    assert "Skip step" not in html[html.index("Ended") :]  # briefly: no steps


def test_a_client_with_no_program_is_offered_one(cast: Cast) -> None:
    build(cast.tara, (Release.RIGHT_AWAY, None))
    html = panel(login(cast.tara), cast)
    assert "No program is running." in html
    assert "Assign a program" in html
    assert f'value="{client_today(cast.alice):%Y-%m-%d}"' in html


def test_an_archived_clients_page_lists_programs_but_offers_none(cast: Cast) -> None:
    on_program(cast)
    client_archive(actor=cast.tara, client=cast.alice)
    html = panel(login(cast.tara), cast)
    assert "Understanding the pull" in html
    assert "Assign a program" not in html


# -- the buttons


@pytest.mark.parametrize(
    ("action", "status", "words"),
    [
        ("pause", "paused", "no step comes until you resume it"),
        ("stop", "stopped", "Work already given stays with the client."),
    ],
)
def test_a_button_changes_the_program_and_says_so(
    cast: Cast, action: str, status: str, words: str
) -> None:
    client_program = on_program(cast)
    response = login(cast.tara).post(action_url(cast, client_program, action))
    assert response.status_code == 302
    assert response["Location"] == page_url(cast) + "#programs"
    assert any(words in message for message in said(response))
    client_program.refresh_from_db()
    assert client_program.status == status


def test_resume_sends_the_steps_now_due(cast: Cast) -> None:
    client_program = on_program(cast)
    programs.client_program_pause(actor=cast.tara, client_program_id=client_program.pk)
    submit_written_record(step_work(client_program, 1))
    assert not client_program.steps.get(position=2).is_released
    response = login(cast.tara).post(action_url(cast, client_program, "resume"))
    assert any("Resumed" in message for message in said(response))
    assert client_program.steps.get(position=2).is_released


@pytest.mark.parametrize(
    ("before", "action", "refusal"),
    [
        (["pause"], "pause", "Only a running program can be paused."),
        ([], "resume", "Only a paused program can be resumed."),
        (["stop"], "stop", "This program has already ended."),
        (["stop"], "resume", "Only a paused program can be resumed."),
        (["stop"], "skip", "This program has already ended."),
    ],
)
def test_a_replayed_or_stale_button_is_refused_with_the_services_words(
    cast: Cast, before: list[str], action: str, refusal: str
) -> None:
    client_program = on_program(cast)
    http = login(cast.tara)
    step = {"step": str(client_program.steps.get(position=2).pk)}
    for earlier in before:
        http.post(action_url(cast, client_program, earlier))
    then = state_of(client_program)
    response = http.post(action_url(cast, client_program, action), step)
    assert response.status_code == 302
    assert said(response)[-1] == refusal  # after the first press's own word
    assert state_of(client_program) == then


def test_skip_skips_that_step_and_sends_the_next(cast: Cast) -> None:
    client_program = on_program(cast)
    first = client_program.steps.get(position=1)
    response = login(cast.tara).post(
        action_url(cast, client_program, "skip"), {"step": str(first.pk)}
    )
    assert any(m.startswith("Skipped step 1 of “") for m in said(response))
    first.refresh_from_db()
    assert first.skipped_at is not None
    assert first.assignment is not None
    assert first.assignment.status == Assignment.Status.CANCELLED
    assert client_program.steps.get(position=2).is_released


@pytest.mark.parametrize("step", ["", "abc", "9" * 30, "-1", "0", None, "other", "done"])
def test_skip_with_a_bad_or_finished_step_changes_nothing(cast: Cast, step: str | None) -> None:
    client_program = on_program(cast)
    other = on_program(cast, client=cast.bob, title="Bob's path")
    if step == "other":
        step = str(other.steps.get(position=2).pk)
    elif step == "done":
        done = client_program.steps.get(position=1)
        programs.client_program_skip_step(
            actor=cast.tara, client_program_id=client_program.pk, step_id=done.pk
        )
        step = str(done.pk)
    before = state_of(client_program)
    data = {} if step is None else {"step": step}
    response = login(cast.tara).post(action_url(cast, client_program, "skip"), data)
    assert response.status_code == 302
    messages = said(response)
    assert len(messages) == 1 and messages[0] in (
        "Choose a step to skip. Nothing was changed.",
        "You cannot change this client's program.",
        "This step is already done or skipped.",
    )
    assert state_of(client_program) == before
    assert state_of(other)[1][1][2] is None


@pytest.mark.parametrize("action", ["pause", "resume", "stop", "skip"])
def test_another_therapists_client_or_program_is_not_found(cast: Cast, action: str) -> None:
    alices = on_program(cast)
    bobs = on_program(cast, client=cast.bob, title="Bob's path")
    before = (state_of(alices), state_of(bobs))
    theo = login(cast.theo)
    assert theo.post(action_url(cast, alices, action)).status_code == 404
    # Bob's program under Alice's address, by the therapist of either.
    assert login(cast.tara).post(action_url(cast, bobs, action)).status_code == 404
    assert theo.post(action_url(cast, bobs, action)).status_code == 404
    huge = f"/admin/clients/client/{cast.alice.pk}/programs/{'9' * 30}/{action}/"
    assert login(cast.tara).post(huge).status_code == 404
    assert (state_of(alices), state_of(bobs)) == before


def test_a_button_takes_only_a_post(cast: Cast) -> None:
    client_program = on_program(cast)
    response = login(cast.tara).get(action_url(cast, client_program, "pause"))
    assert response.status_code == 405
    client_program.refresh_from_db()
    assert client_program.status == ClientProgram.Status.ACTIVE


# -- assigning


def test_assign_puts_the_client_on_the_program_and_sends_what_is_due(cast: Cast) -> None:
    program = build(cast.tara, (Release.RIGHT_AWAY, None), (Release.AFTER_PREVIOUS, None))
    today = client_today(cast.alice)
    response = login(cast.tara).post(
        assign_url(cast), {"program": str(program.pk), "starts_on": f"{today:%Y-%m-%d}"}
    )
    assert response.status_code == 302
    assert response["Location"] == page_url(cast) + "#programs"
    made = ClientProgram.objects.get(client=cast.alice, program=program)
    assert made.starts_on == today and made.created_by == cast.tara
    assert made.steps.get(position=1).is_released
    assert any("is on the program" in message for message in said(response))


def test_the_assign_page_opens_with_the_clients_today(cast: Cast) -> None:
    page = login(cast.tara).get(assign_url(cast))
    assert page.status_code == 200
    assert f'value="{client_today(cast.alice):%Y-%m-%d}"' in page.content.decode()


def errors_of(response) -> dict[str, list[str]]:
    assert response.status_code == 400
    return {name: list(errors) for name, errors in response.context["form"].errors.items()}


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({}, "program", "Choose a program."),
        ({"program": "abc"}, "program", "Choose one of the programs listed."),
        ({"program": "9" * 30}, "program", "Choose one of the programs listed."),
        ({"program": "theos"}, "program", "Choose one of the programs listed."),
        ({"program": "inactive"}, "program", "Choose one of the programs listed."),
        ({"starts_on": ""}, "starts_on", "Choose the day the program starts."),
        ({"starts_on": "31/31/2026"}, "starts_on", "Enter a date such as 2026-12-31."),
        ({"starts_on": "9" * 5000}, "starts_on", "Enter a date such as 2026-12-31."),
        ({"starts_on": "far"}, "starts_on", "Choose a start from a month ago to a year ahead."),
        ({"program": "running"}, "program", "is already on this program"),
        ({"program": "empty"}, "program", "This program has no steps yet: add one first."),
    ],
)
def test_assign_refusals_are_named_by_their_field_and_change_nothing(
    cast: Cast, data: dict[str, str], field: str, words: str
) -> None:
    mine = build(cast.tara, (Release.RIGHT_AWAY, None))
    running = on_program(cast, title="Running path").program
    programs_by_name = {
        "theos": build(cast.theo, (Release.RIGHT_AWAY, None)),
        "inactive": build(cast.tara, (Release.RIGHT_AWAY, None)),
        "running": running,
        "empty": type(mine).objects.create(title="Nothing yet", owner=cast.tara),
    }
    programs_by_name["inactive"].is_active = False
    programs_by_name["inactive"].save(update_fields=["is_active"])
    today = client_today(cast.alice)
    sent = {"program": str(mine.pk), "starts_on": f"{today:%Y-%m-%d}", **data}
    if sent["program"] in programs_by_name:
        sent["program"] = str(programs_by_name[sent["program"]].pk)
    if sent["starts_on"] == "far":
        sent["starts_on"] = f"{today + dt.timedelta(days=400):%Y-%m-%d}"
    sent = {name: value for name, value in sent.items() if name in data or value}
    if field == "program" and not data:
        sent.pop("program")
    before = ClientProgram.objects.count(), Assignment.objects.count()
    errors = errors_of(login(cast.tara).post(assign_url(cast), sent))
    assert any(words in error for error in errors[field]), errors
    assert (ClientProgram.objects.count(), Assignment.objects.count()) == before


def test_assigning_to_an_archived_client_is_refused_as_a_whole(cast: Cast) -> None:
    program = build(cast.tara, (Release.RIGHT_AWAY, None))
    client_archive(actor=cast.tara, client=cast.alice)
    response = login(cast.tara).post(
        assign_url(cast),
        {"program": str(program.pk), "starts_on": f"{client_today(cast.alice):%Y-%m-%d}"},
    )
    errors = errors_of(response)
    assert "is archived: restore them first" in errors["__all__"][0]
    assert not ClientProgram.objects.filter(client=cast.alice).exists()


def test_assigning_to_another_therapists_client_is_not_found(cast: Cast) -> None:
    program = build(cast.theo, (Release.RIGHT_AWAY, None))
    response = login(cast.theo).post(
        assign_url(cast),
        {"program": str(program.pk), "starts_on": f"{client_today(cast.alice):%Y-%m-%d}"},
    )
    assert response.status_code == 404
    assert login(cast.theo).get(assign_url(cast)).status_code == 404
    assert not ClientProgram.objects.exists()


# -- queries

# The client's page before the panel (its alerts, the alerts of the last weeks' summary, and the
# measures' totals over time and in that summary, among them), and the three the panel adds: the
# client's programs, their steps (with_steps), and the programs the form offers.
CLIENT_PAGE_QUERIES = 26 + 3


def count_page_queries(cast: Cast) -> int:
    http = login(cast.tara)
    http.get(page_url(cast))
    with CaptureQueriesContext(connection) as captured:
        assert http.get(page_url(cast)).status_code == 200
    return len(captured.captured_queries)


def test_the_client_page_costs_the_same_with_one_program_or_many(cast: Cast) -> None:
    on_program(cast, title="Path 0")
    assert count_page_queries(cast) == CLIENT_PAGE_QUERIES
    for n in range(1, 8):
        ended = on_program(cast, title=f"Path {n}")
        if n % 2:
            programs.client_program_stop(actor=cast.tara, client_program_id=ended.pk)
    assert count_page_queries(cast) == CLIENT_PAGE_QUERIES


def test_a_buttons_word_is_shown_in_the_panel_where_the_page_opens(cast: Cast) -> None:
    client_program = on_program(cast)
    http = login(cast.tara)
    http.post(action_url(cast, client_program, "pause"))
    html = http.get(page_url(cast)).content.decode()
    words = "no step comes until you resume it"
    top = html[: html.index('id="programs"')]
    assert words not in top
    assert words in html[html.index('id="programs"') :]
