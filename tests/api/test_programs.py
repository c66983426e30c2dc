"""Programs through the API: the staff's library and a client's programs, each change through the
admin's service, and the client's own "step N of M"."""

import datetime as dt
import json
from typing import Any

import pytest

from clients.models import AccessEvent
from homework.models import Assignment, ClientProgram, Program, Release
from homework.selectors import client_today
from homework.services import programs
from tests.conftest import Cast, login
from tests.helpers_programs import build

pytestmark = pytest.mark.django_db

SHAPE = {"code", "detail", "errors"}
TWO_STEPS = ((Release.RIGHT_AWAY, None), (Release.AFTER_PREVIOUS, None))


def _post(http, url, body=None, **headers):
    return http.post(url, json.dumps(body or {}), content_type="application/json", headers=headers)


def _named(body: dict[str, Any], names: dict[str, Any]) -> dict[str, Any]:
    """The body with each placeholder string put for what it names."""
    return {
        field: names.get(value, value) if isinstance(value, str) else value
        for field, value in body.items()
    }


def _assign_url(cast: Cast) -> str:
    return f"/api/v1/clients/{cast.alice.pk}/programs/"


def _on(cast: Cast, program: Program) -> ClientProgram:
    return programs.client_program_create(
        actor=cast.tara, client=cast.alice, program=program, starts_on=client_today(cast.alice)
    )


def test_a_therapist_reads_the_practices_programs_and_their_own_not_anothers(cast: Cast):
    Program.objects.all().delete()  # the library's ready-made ones
    shared = build(cast.morgan, *TWO_STEPS)
    Program.objects.filter(pk=shared.pk).update(owner=None)
    mine = build(cast.tara, *TWO_STEPS)
    theirs = build(cast.theo, (Release.RIGHT_AWAY, None))
    http = login(cast.tara)
    rows = http.get("/api/v1/programs/").json()["results"]
    assert {row["id"] for row in rows} == {shared.pk, mine.pk}
    one = http.get(f"/api/v1/programs/{mine.pk}/").json()
    assert [(s["position"], s["release"]) for s in one["steps"]] == [
        (1, "right_away"),
        (2, "after_previous"),
    ]
    assert http.get(f"/api/v1/programs/{theirs.pk}/").status_code == 404


@pytest.mark.clock
def test_assigning_releases_the_first_step_and_a_replay_writes_nothing_twice(cast: Cast):
    program = build(cast.tara, *TWO_STEPS)
    http = login(cast.tara)
    body = {"program": program.pk, "starts_on": client_today(cast.alice).isoformat()}
    made = _post(http, _assign_url(cast), body, **{"Idempotency-Key": "p1"})
    again = _post(http, _assign_url(cast), body, **{"Idempotency-Key": "p1"})
    assert made.status_code == 201 and again.json() == made.json()
    assert again["Idempotent-Replayed"] == "true"
    answer = made.json()
    assert (answer["step"], answer["step_count"], answer["status"]) == (1, 2, "active")
    assert [step["released"] for step in answer["steps"]] == [True, False]
    released = Assignment.objects.get(pk=answer["steps"][0]["assignment"])
    assert released.client == cast.alice
    assert ClientProgram.objects.count() == 1
    listed = http.get(_assign_url(cast)).json()["results"]
    assert [row["id"] for row in listed] == [answer["id"]]


@pytest.mark.clock
def test_the_same_program_twice_is_a_400_that_says_so(cast: Cast):
    program = build(cast.tara, *TWO_STEPS)
    _on(cast, program)
    body = {"program": program.pk, "starts_on": client_today(cast.alice).isoformat()}
    refused = _post(login(cast.tara), _assign_url(cast), body, **{"Idempotency-Key": "p2"})
    assert refused.status_code == 400 and set(refused.json()) == SHAPE
    assert "already on this program" in refused.json()["errors"]["program"][0]
    assert ClientProgram.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "program"),
        ({"program": "the first", "starts_on": "today"}, "program"),
        ({"program": [1], "starts_on": 20}, "starts_on"),
        ({"program": 999_999, "starts_on": "today"}, "program"),
        ({"program": "theirs", "starts_on": "today"}, "program"),
        ({"program": "archived", "starts_on": "today"}, "program"),
        ({"program": "mine", "starts_on": "today", "status": "paused"}, "status"),
    ],
    ids=[
        "missing",
        "wrong type",
        "not a date",
        "unknown program",
        "another therapist's program",
        "a program out of the library",
        "unknown field",
    ],
)
def test_a_bad_assignment_of_a_program_is_named_and_changes_nothing(cast: Cast, body, field):
    _refused_assignment(cast, body, field)


# Only the start date's reach depends on the day, so only it runs at each --clock moment.
@pytest.mark.clock
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"program": "mine", "starts_on": "in 400 days"}, "starts_on"),
        ({"program": "mine", "starts_on": "40 days ago"}, "starts_on"),
    ],
    ids=["too far ahead", "too long ago"],
)
def test_a_start_date_out_of_reach_is_named_and_changes_nothing(cast: Cast, body, field):
    _refused_assignment(cast, body, field)


def _refused_assignment(cast: Cast, body: dict[str, Any], field: str) -> None:
    today = client_today(cast.alice)
    names = {
        "mine": build(cast.tara, *TWO_STEPS).pk,
        "theirs": build(cast.theo, *TWO_STEPS).pk,
        "archived": Program.objects.create(title="Old", owner=cast.tara, is_active=False).pk,
        "today": today.isoformat(),
        "in 400 days": (today + dt.timedelta(days=400)).isoformat(),
        "40 days ago": (today - dt.timedelta(days=40)).isoformat(),
    }
    sent = _named(body, names)
    response = _post(login(cast.tara), _assign_url(cast), sent)
    assert response.status_code == 400 and set(response.json()) == SHAPE
    assert field in response.json()["errors"]
    assert not ClientProgram.objects.exists()
    assert Assignment.objects.filter(client=cast.alice).count() == 1  # the cast's own


def test_another_therapists_client_is_a_404_for_every_route(cast: Cast):
    client_program = _on(cast, build(cast.tara, *TWO_STEPS))
    mine = build(cast.theo, *TWO_STEPS)
    http = login(cast.theo)
    body = {"program": mine.pk, "starts_on": client_today(cast.alice).isoformat()}
    assert _post(http, _assign_url(cast), body).status_code == 404
    assert http.get(_assign_url(cast)).status_code == 404
    for action in ("pause", "resume", "stop"):
        url = f"/api/v1/client-programs/{client_program.pk}/{action}/"
        assert _post(http, url).status_code == 404
    step = client_program.steps.get(position=1)
    skip = f"/api/v1/client-programs/{client_program.pk}/skip/"
    assert _post(http, skip, {"step": step.pk}).status_code == 404
    assert ClientProgram.objects.get().status == ClientProgram.Status.ACTIVE
    assert ClientProgram.objects.count() == 1
    assert not AccessEvent.objects.filter(actor=cast.theo).exists()


def test_pause_resume_skip_and_stop_each_answer_where_the_program_stands(cast: Cast):
    client_program = _on(cast, build(cast.tara, *TWO_STEPS))
    http = login(cast.tara)
    url = f"/api/v1/client-programs/{client_program.pk}/"
    paused = _post(http, f"{url}pause/", **{"Idempotency-Key": "pause-1"})
    assert paused.status_code == 200 and paused.json()["status"] == "paused"
    replayed = _post(http, f"{url}pause/", **{"Idempotency-Key": "pause-1"})
    assert replayed.json() == paused.json()
    twice = _post(http, f"{url}pause/")
    assert (
        twice.status_code == 400
        and "Only a running program" in twice.json()["errors"]["__all__"][0]
    )
    assert _post(http, f"{url}resume/").json()["status"] == "active"
    first = paused.json()["steps"][0]["id"]
    skipped = _post(http, f"{url}skip/", {"step": first}).json()
    assert [step["skipped"] for step in skipped["steps"]] == [True, False]
    assert [step["released"] for step in skipped["steps"]] == [True, True]
    assert (skipped["step"], skipped["finished_count"]) == (2, 1)
    assert _post(http, f"{url}stop/").json()["status"] == "stopped"
    assert _post(http, f"{url}stop/").status_code == 400


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "step"),
        ({"step": "first"}, "step"),
        ({"step": "elsewhere"}, "step"),
        ({"step": "first step", "reason": "not safe"}, "reason"),
    ],
    ids=["missing", "wrong type", "another program's step", "unknown field"],
)
def test_a_bad_skip_is_named_and_skips_nothing(cast: Cast, body, field):
    client_program = _on(cast, build(cast.tara, *TWO_STEPS))
    elsewhere = _on(cast, build(cast.tara, *TWO_STEPS))
    ids = {
        "first step": client_program.steps.get(position=1).pk,
        "elsewhere": elsewhere.steps.get(position=1).pk,
    }
    sent = _named(body, ids)
    url = f"/api/v1/client-programs/{client_program.pk}/skip/"
    response = _post(login(cast.tara), url, sent)
    assert response.status_code == 400 and field in response.json()["errors"]
    assert not client_program.steps.filter(skipped_at__isnull=False).exists()
    assert not elsewhere.steps.filter(skipped_at__isnull=False).exists()


def test_an_action_takes_no_fields(cast: Cast):
    client_program = _on(cast, build(cast.tara, *TWO_STEPS))
    url = f"/api/v1/client-programs/{client_program.pk}/pause/"
    response = _post(login(cast.tara), url, {"reason": "not safe"})
    assert response.status_code == 400 and list(response.json()["errors"]) == ["reason"]
    assert ClientProgram.objects.get().status == ClientProgram.Status.ACTIVE


def test_the_client_sees_only_step_n_of_m_and_whether_it_is_paused(cast: Cast):
    client_program = _on(cast, build(cast.tara, *TWO_STEPS))
    programs.client_program_pause(actor=cast.tara, client_program_id=client_program.pk)
    http = login(cast.alice.portal_user)
    rows = http.get("/api/v1/me/programs/").json()["results"]
    assert rows == [{"id": client_program.pk, "step": 1, "step_count": 2, "paused": True}]
    assert login(cast.bob.portal_user).get("/api/v1/me/programs/").json()["count"] == 0


def _many_programs(cast: Cast, count: int) -> None:
    for _ in range(count):
        _on(cast, build(cast.tara, *TWO_STEPS))


@pytest.mark.parametrize(
    ("who", "url", "queries"),
    # Session, user and its second step (staff) or its client; the client (staff_client); count,
    # page, steps.
    [
        ("tara", "/api/v1/programs/?page_size=100", 6),
        ("tara", "/api/v1/clients/{alice}/programs/?page_size=100", 7),
        ("alice", "/api/v1/me/programs/?page_size=100", 6),
    ],
    ids=["the library", "a client's programs", "the client's own"],
)
def test_program_lists_take_the_same_queries_at_1_and_50_rows(
    cast: Cast, django_assert_num_queries, who, url, queries
):
    http = login(cast.tara if who == "tara" else cast.alice.portal_user)
    url = url.format(alice=cast.alice.pk)
    Program.objects.all().delete()  # the library's ready-made ones
    _many_programs(cast, 1)
    http.get(url)  # the session's first read loads what every request then has
    with django_assert_num_queries(queries) as one:
        assert http.get(url).json()["count"] == 1
    _many_programs(cast, 49)
    with django_assert_num_queries(len(one.captured_queries)):
        assert http.get(url).json()["count"] == 50
