"""The program builder in the workspace: building, reordering, the rules' checks, who may edit
which program, the client's preview, and constant queries on its pages."""

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from homework.models import Program, ProgramStep, Release
from homework.services.programs import (
    ProgramDetails,
    StepData,
    program_copy,
    program_create,
    program_steps_save,
    program_update,
)
from homework.workspace.program_display import step_comes
from tests.conftest import login
from tests.factories import ExerciseFactory
from tests.helpers_programs import build

RIGHT_AWAY = (Release.RIGHT_AWAY, None)
AFTER = (Release.AFTER_PREVIOUS, None)


def change_url(program: Program) -> str:
    return reverse("admin:homework_program_change", args=[program.pk])


def rows_of(program: Program) -> list[dict[str, Any]]:
    return [
        {
            "exercise": step.exercise_id,
            "instructions": step.instructions,
            "release": step.release,
            "days": step.days,
            "required": step.required,
        }
        for step in program.steps.order_by("position")
    ]


def posted(program: Program, rows: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """The editor's form as a browser sends it: the program's fields, then one set per row."""
    data: dict[str, Any] = {
        "title": program.title,
        "language": program.language,
        "description": program.description,
        "revision": program.revision,
        "steps-TOTAL_FORMS": len(rows),
        "steps-INITIAL_FORMS": len(rows),
        "steps-MIN_NUM_FORMS": 0,
        "steps-MAX_NUM_FORMS": 60,
        **({"is_active": "on"} if program.is_active else {}),
    }
    for index, row in enumerate(rows):
        for name, value in row.items():
            if name == "required":
                if value:
                    data[f"steps-{index}-required"] = "on"
            else:
                data[f"steps-{index}-{name}"] = "" if value is None else value
    return {**data, **extra}


def shown_rows(response: Any) -> list[dict[str, Any]]:
    return [form.initial for form in response.context["formset"].forms]


def stored(program: Program) -> list[tuple[int, str, int | None, bool]]:
    return list(
        ProgramStep.objects.filter(program=program)
        .order_by("position")
        .values_list("exercise_id", "release", "days", "required")
    )


def shared_program(cast: Any) -> Program:
    program = Program.objects.create(title="The practice's path", owner=None)
    steps = [StepData(exercise=ExerciseFactory.create()) for _ in range(2)]
    return program_steps_save(actor=cast.morgan, program=program, steps=steps, revision=0)


def test_a_program_is_written_in_its_authors_language_and_a_copy_keeps_it(cast):
    cast.tara.language = "es"
    cast.tara.save(update_fields=["language"])
    http = login(cast.tara)
    assert (
        http.get(reverse("admin:homework_program_add"))
        .context["adminform"]
        .form["language"]
        .initial
        == "es"
    )
    http.post(
        reverse("admin:homework_program_add"),
        {"title": "Dos semanas", "language": "es", "description": "", "is_active": "on"},
    )
    program = Program.objects.get(title="Dos semanas")
    assert program.language == "es"
    assert program_copy(actor=cast.tara, program=program).language == "es"


def test_a_therapist_builds_a_program_from_the_add_page_to_its_steps(cast):
    http = login(cast.tara)
    response = http.post(
        reverse("admin:homework_program_add"),
        {
            "title": "Two weeks of noticing",
            "language": "en-gb",
            "description": "",
            "is_active": "on",
        },
    )
    program = Program.objects.get(title="Two weeks of noticing")
    assert program.owner == cast.tara
    assert response.status_code == 302 and response["Location"] == change_url(program)
    page = http.get(change_url(program))
    assert len(page.context["formset"].forms) == 1  # one blank step to start from
    first, second = ExerciseFactory.create(), ExerciseFactory.create(owner=cast.tara)
    rows = [
        {"exercise": first.pk, "release": Release.RIGHT_AWAY, "instructions": "Start small."},
        {"exercise": second.pk, "release": Release.AFTER_PREVIOUS_DAYS, "days": 3},
    ]
    response = http.post(change_url(program), posted(program, rows, save=""))
    assert response.status_code == 302, response.context and response.context["problems"]
    assert stored(program) == [
        (first.pk, Release.RIGHT_AWAY, None, False),
        (second.pk, Release.AFTER_PREVIOUS_DAYS, 3, False),
    ]
    program.refresh_from_db()
    assert program.revision == 1
    assert ProgramStep.objects.get(program=program, position=1).instructions == "Start small."


def test_moving_a_step_shows_the_new_order_and_saves_it_only_on_save(cast):
    program = build(cast.tara, RIGHT_AWAY, AFTER, AFTER)
    before = stored(program)
    http = login(cast.tara)
    response = http.post(change_url(program), posted(program, rows_of(program), **{"move-up": 2}))
    assert response.status_code == 200
    assert "Not saved yet" in response.content.decode()
    assert stored(program) == before
    order = [int(row["exercise"]) for row in shown_rows(response)]
    assert order == [before[0][0], before[2][0], before[1][0]]
    response = http.post(change_url(program), posted(program, shown_rows(response), save=""))
    assert response.status_code == 302
    assert [row[0] for row in stored(program)] == order


def test_moving_down_and_past_either_end_keeps_every_step(cast):
    program = build(cast.tara, RIGHT_AWAY, AFTER)
    http = login(cast.tara)
    ids = [row["exercise"] for row in rows_of(program)]
    down = http.post(change_url(program), posted(program, rows_of(program), **{"move-down": 0}))
    assert [int(row["exercise"]) for row in shown_rows(down)] == ids[::-1]
    for button, value in (("move-down", 1), ("move-up", 0), ("move-up", 9), ("remove", "x")):
        response = http.post(
            change_url(program), posted(program, rows_of(program), **{button: value})
        )
        assert [int(row["exercise"]) for row in shown_rows(response)] == ids, button


def test_removing_a_step_and_saving_leaves_the_others_in_order(cast):
    program = build(cast.tara, RIGHT_AWAY, AFTER, AFTER)
    before = stored(program)
    http = login(cast.tara)
    response = http.post(change_url(program), posted(program, rows_of(program), remove=1))
    assert len(shown_rows(response)) == 2
    assert stored(program) == before
    http.post(change_url(program), posted(program, shown_rows(response), save=""))
    assert [row[0] for row in stored(program)] == [before[0][0], before[2][0]]


def test_adding_a_step_shows_a_blank_one_and_saves_it_once_filled(cast):
    program = build(cast.tara, RIGHT_AWAY)
    http = login(cast.tara)
    response = http.post(change_url(program), posted(program, rows_of(program), **{"add-step": ""}))
    rows = shown_rows(response)
    assert len(rows) == 2 and rows[1]["exercise"] == ""
    # Saved blank, the new step is named as the one to fix, and nothing changes.
    refused = http.post(change_url(program), posted(program, rows, save=""))
    assert refused.status_code == 400
    assert refused.context["formset"].forms[1].errors
    assert len(stored(program)) == 1
    rows[1]["exercise"] = ExerciseFactory.create().pk
    assert http.post(change_url(program), posted(program, rows, save="")).status_code == 302
    assert len(stored(program)) == 2


def test_a_step_marked_required_is_saved_required(cast):
    program = build(cast.tara, RIGHT_AWAY, AFTER)
    rows = rows_of(program)
    rows[0]["required"] = True
    login(cast.tara).post(change_url(program), posted(program, rows, save=""))
    assert [row[3] for row in stored(program)] == [True, False]


@pytest.mark.parametrize(
    ("release", "days"),
    [
        (Release.AFTER_PREVIOUS_DAYS, ""),
        (Release.ON_DAY, ""),
        (Release.AFTER_PREVIOUS_DAYS, "-3"),
        (Release.ON_DAY, "0"),
        (Release.ON_DAY, "366"),
        (Release.AFTER_PREVIOUS_DAYS, "99999999999999999999"),
        (Release.AFTER_PREVIOUS_DAYS, "three"),
        (Release.AFTER_PREVIOUS, "4"),
    ],
)
def test_days_that_do_not_fit_the_rule_are_named_on_their_step_and_change_nothing(
    cast, release, days
):
    program = build(cast.tara, RIGHT_AWAY, AFTER)
    before, revision = stored(program), program.revision
    rows = rows_of(program)
    rows[1].update(release=release, days=days)
    response = login(cast.tara).post(change_url(program), posted(program, rows, save=""))
    assert response.status_code == 400
    forms = response.context["formset"].forms
    assert forms[1].errors and not forms[0].errors
    assert 'class="errorlist' in response.content.decode()
    program.refresh_from_db()
    assert stored(program) == before and program.revision == revision


def test_a_stale_editor_is_told_and_changes_nothing(cast):
    program = build(cast.tara, RIGHT_AWAY, AFTER)
    opened = posted(program, rows_of(program), save="", title="My title")
    # Someone else saves first (another tab, the same therapist).
    rows = rows_of(program)
    rows[0]["instructions"] = "Theirs"
    login(cast.tara).post(change_url(program), posted(program, rows, save=""))
    after_theirs = stored(program)
    response = login(cast.tara).post(change_url(program), opened)
    assert response.status_code == 400
    assert "Someone changed this program since you opened it" in response.content.decode()
    program.refresh_from_db()
    assert program.title != "My title" and stored(program) == after_theirs
    assert program.steps.get(position=1).instructions == "Theirs"


def test_a_malformed_revision_is_refused_as_stale(cast):
    program = build(cast.tara, RIGHT_AWAY)
    data = posted(program, rows_of(program), save="", revision="abc", title="Changed")
    response = login(cast.tara).post(change_url(program), data)
    assert "Someone changed this program" in response.content.decode()
    program.refresh_from_db()
    assert program.title != "Changed"


def test_another_therapists_program_is_not_found_and_unchanged(cast):
    program = build(cast.tara, RIGHT_AWAY, AFTER)
    before = stored(program)
    http = login(cast.theo)
    for url in (change_url(program), reverse("admin:homework_program_preview", args=[program.pk])):
        response = http.get(url)
        assert response.status_code == 302 and response["Location"] == reverse("admin:index")
    response = http.post(change_url(program), posted(program, [], save="", title="Theo's"))
    assert response.status_code == 302
    copy = http.post(reverse("admin:homework_program_copy", args=[program.pk]))
    assert copy.status_code == 302
    program.refresh_from_db()
    assert program.title != "Theo's" and stored(program) == before
    assert not Program.objects.filter(owner=cast.theo).exists()
    listed = http.get(reverse("admin:homework_program_changelist"))
    assert program not in listed.context["cl"].result_list


def test_a_therapist_reads_a_shared_program_but_cannot_change_it(cast):
    program = shared_program(cast)
    before = stored(program)
    http = login(cast.tara)
    page = http.get(change_url(program))
    assert page.status_code == 200
    body = page.content.decode()
    assert 'name="save"' not in body and "Make my own copy" in body
    refused = http.post(change_url(program), posted(program, rows_of(program)[:1], save=""))
    assert refused.status_code == 403
    assert stored(program) == before


def test_a_therapist_copies_a_shared_program_to_edit_as_their_own(cast):
    program = shared_program(cast)
    response = login(cast.tara).post(reverse("admin:homework_program_copy", args=[program.pk]))
    copy = Program.objects.get(owner=cast.tara)
    assert response["Location"] == change_url(copy)
    assert [row[0] for row in stored(copy)] == [row[0] for row in stored(program)]
    assert login(cast.tara).get(change_url(copy)).context.get("formset") is not None


def test_the_manager_changes_a_shared_program(cast):
    program = shared_program(cast)
    rows = rows_of(program)[::-1]
    response = login(cast.morgan).post(change_url(program), posted(program, rows, save=""))
    assert response.status_code == 302
    assert [row[0] for row in stored(program)] == [row["exercise"] for row in rows]


def test_the_manager_reads_a_therapists_program_without_changing_it(cast):
    program = build(cast.tara, RIGHT_AWAY)
    assert 'name="save"' not in login(cast.morgan).get(change_url(program)).content.decode()


def test_a_step_may_not_take_another_therapists_exercise(cast):
    program = build(cast.tara, RIGHT_AWAY)
    rows = rows_of(program)
    rows[0]["exercise"] = ExerciseFactory.create(owner=cast.theo).pk
    response = login(cast.tara).post(change_url(program), posted(program, rows, save=""))
    assert response.status_code == 400
    assert response.context["formset"].forms[0].errors


def test_removing_every_step_is_refused(cast):
    program = build(cast.tara, RIGHT_AWAY)
    response = login(cast.tara).post(change_url(program), posted(program, [], save=""))
    assert response.status_code == 400
    assert "at least one step" in response.content.decode()
    assert len(stored(program)) == 1


def test_programs_are_never_deleted(cast):
    program = build(cast.tara, RIGHT_AWAY)
    response = login(cast.tara).get(reverse("admin:homework_program_delete", args=[program.pk]))
    assert response.status_code == 403
    assert "untick" in response.content.decode()


def test_the_list_says_whose_each_program_is_and_how_many_steps(cast):
    build(cast.tara, RIGHT_AWAY, AFTER, AFTER)
    body = login(cast.tara).get(reverse("admin:homework_program_changelist")).content.decode()
    assert "Tara" in body and "The practice" in body
    assert '<td class="field-step_count">3</td>' in body


def test_the_preview_shows_each_step_in_order_with_when_it_comes(cast):
    program = build(cast.tara, RIGHT_AWAY, AFTER, (Release.ON_DAY, 8), required={2})
    response = login(cast.tara).get(reverse("admin:homework_program_preview", args=[program.pk]))
    body = response.content.decode()
    titles = [step.exercise.title for step in program.steps.order_by("position")]
    assert [body.index(title) for title in titles] == sorted(body.index(t) for t in titles)
    for said in ("Comes right away", "Comes when step 1 is done", "On day 8, once step 2 is done"):
        assert said in body
    assert "Required (the next step waits for it)" in body


@pytest.mark.parametrize(
    ("rule", "previous", "number", "said"),
    [
        (RIGHT_AWAY, None, 1, "Comes right away"),
        (AFTER, None, 1, "Comes right away"),
        ((Release.AFTER_PREVIOUS_DAYS, 3), None, 1, "On day 4"),
        ((Release.ON_DAY, 8), None, 1, "On day 8"),
        (RIGHT_AWAY, (AFTER, False), 2, "Comes with step 1"),
        (RIGHT_AWAY, (AFTER, True), 2, "Comes when step 1 is done"),
        (AFTER, (AFTER, False), 3, "Comes when step 2 is done"),
        ((Release.AFTER_PREVIOUS_DAYS, 1), (AFTER, False), 2, "Comes 1 day after step 1 is done"),
        ((Release.AFTER_PREVIOUS_DAYS, 5), (AFTER, False), 2, "Comes 5 days after step 1 is done"),
        ((Release.ON_DAY, 8), (AFTER, False), 2, "On day 8, not before step 1"),
    ],
)
def test_when_a_step_comes_in_words(rule, previous, number, said):
    step = ProgramStep(release=rule[0], days=rule[1])
    before = None
    if previous is not None:
        before = ProgramStep(release=previous[0][0], days=previous[0][1], required=previous[1])
    assert step_comes(step, number=number, previous=before) == said


def count(http: Any, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert http.get(url).status_code == 200
    return len(captured.captured_queries)


def test_the_list_costs_the_same_queries_for_one_program_and_fifty(cast):
    http = login(cast.tara)
    url = reverse("admin:homework_program_changelist")
    build(cast.tara, RIGHT_AWAY)
    http.get(url)
    one = count(http, url)
    for _ in range(49):
        build(cast.tara, RIGHT_AWAY)
    assert count(http, url) == one


@pytest.mark.parametrize(
    "page", ["admin:homework_program_change", "admin:homework_program_preview"]
)
def test_the_editor_and_preview_cost_the_same_queries_for_one_step_and_fifty(cast, page):
    http = login(cast.tara)
    small = build(cast.tara, RIGHT_AWAY)
    large = build(cast.tara, *[AFTER] * 50)
    http.get(reverse(page, args=[small.pk]))
    assert count(http, reverse(page, args=[small.pk])) == count(
        http, reverse(page, args=[large.pk])
    )


def test_an_update_refused_for_its_title_leaves_the_steps_as_they_were(cast):
    program = build(cast.tara, RIGHT_AWAY, AFTER)
    before = stored(program)
    steps = [StepData(exercise=ExerciseFactory.create())]
    with pytest.raises(ValidationError):
        program_update(
            actor=cast.tara,
            program=program,
            details=ProgramDetails(title=""),
            steps=steps,
            revision=program.revision,
        )
    assert stored(program) == before


def test_only_a_program_the_actor_may_use_is_copied(cast):
    program = build(cast.tara, RIGHT_AWAY)
    with pytest.raises(PermissionDenied):
        program_copy(actor=cast.theo, program=program)
    copy = program_copy(actor=cast.tara, program=program)
    assert copy.owner == cast.tara and copy.title == f"{program.title} (copy)"


def test_a_manager_makes_the_practices_programs(cast):
    made = program_create(actor=cast.morgan, details=ProgramDetails(title="Shared"))
    assert made.owner is None
    with pytest.raises(PermissionDenied):
        program_create(actor=cast.alice.portal_user, details=ProgramDetails(title="Mine"))
