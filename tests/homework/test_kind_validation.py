"""Every field of every kind, given bad input, is refused with a message that names it."""

import datetime as dt

import pytest
from django.utils import timezone

from homework.kinds import ResponseInvalid, all_kinds, get_kind
from homework.models import Exercise
from tests.factories import RESPONSES, flat, options_for
from tests.helpers import WrittenRecordV2

MEGABYTE = "x" * 1_000_000
TOMORROW = (timezone.localtime() + dt.timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")


def exercise(slug: str) -> Exercise:
    return Exercise(kind=slug, title="t", instructions="i", options=options_for(slug))


def errors(slug: str, data: dict[str, object]) -> dict[str, list[str]]:
    with pytest.raises(ResponseInvalid) as caught:
        get_kind(slug).validate(data, exercise=exercise(slug), tz="Europe/London")
    assert all(message.strip() for messages in caught.value.errors.values() for message in messages)
    return caught.value.errors


def with_row(
    base: dict[str, object], rows_key: str, index: int, changes: dict[str, object]
) -> dict[str, object]:
    rows = [dict(row) for row in base[rows_key]]  # type: ignore[attr-defined]
    rows[index].update(changes)
    return {**base, rows_key: rows}


def without(base: dict[str, object], key: str) -> dict[str, object]:
    return {k: v for k, v in base.items() if k != key}


def steps(**changes):
    return with_row(RESPONSES["boundary_steps"](), "steps", 0, changes)


def person(**changes):
    return with_row(RESPONSES["support_network"](), "people", 0, changes)


def place(**changes):
    return with_row(RESPONSES["support_network"](), "places_and_services", 0, changes)


urge = RESPONSES["urge_log"]
plan = RESPONSES["safety_plan"]
answers = RESPONSES["worksheet"]

BAD = [
    # -- urge log
    ("urge_log", urge(at="soon"), "at"),
    ("urge_log", urge(at=TOMORROW), "at"),
    ("urge_log", urge(at=12), "at"),
    ("urge_log", without(urge(), "at"), "at"),
    ("urge_log", urge(intensity=11), "intensity"),
    ("urge_log", urge(intensity=-1), "intensity"),
    ("urge_log", urge(intensity=4.5), "intensity"),
    ("urge_log", urge(intensity="strong"), "intensity"),
    ("urge_log", urge(intensity=True), "intensity"),
    ("urge_log", urge(intensity=[7]), "intensity"),
    ("urge_log", urge(trigger="the moon"), "trigger"),
    ("urge_log", without(urge(), "trigger"), "trigger"),
    ("urge_log", urge(trigger_note=MEGABYTE), "trigger_note"),
    ("urge_log", urge(did_instead=MEGABYTE), "did_instead"),
    ("urge_log", urge(did_instead={"text": "walk"}), "did_instead"),
    ("urge_log", urge(contact_happened="maybe"), "contact_happened"),
    ("urge_log", urge(contact_happened=True, contact_initiated_by="none"), "contact_initiated_by"),
    ("urge_log", urge(contact_happened=False, contact_initiated_by="them"), "contact_initiated_by"),
    ("urge_log", urge(contact_initiated_by="the neighbour"), "contact_initiated_by"),
    ("urge_log", urge(mood="blue"), "mood"),
    # -- boundary steps
    ("boundary_steps", {"steps": []}, "steps"),
    ("boundary_steps", {}, "steps"),
    ("boundary_steps", {"steps": "one small step"}, "steps"),
    ("boundary_steps", {"steps": ["one small step"]}, "steps-0"),
    ("boundary_steps", {"steps": [{"status": "planned"}] * 30}, "steps"),
    ("boundary_steps", steps(boundary=""), "steps-0-boundary"),
    ("boundary_steps", steps(boundary=MEGABYTE), "steps-0-boundary"),
    ("boundary_steps", steps(boundary=["a", "b"]), "steps-0-boundary"),
    ("boundary_steps", steps(planned_on="next Tuesday"), "steps-0-planned_on"),
    ("boundary_steps", steps(planned_on="1066-10-14"), "steps-0-planned_on"),
    ("boundary_steps", steps(status="nailed it"), "steps-0-status"),
    ("boundary_steps", steps(status=None, boundary="x"), "steps-0-status"),
    ("boundary_steps", steps(what_happened=MEGABYTE), "steps-0-what_happened"),
    ("boundary_steps", steps(feeling=11), "steps-0-feeling"),
    ("boundary_steps", steps(feeling=-1), "steps-0-feeling"),
    ("boundary_steps", steps(feeling="fine"), "steps-0-feeling"),
    ("boundary_steps", steps(shoe_size=9), "steps-0-shoe_size"),
    (
        "boundary_steps",
        {"steps-0-boundary": "x", "steps-0-status": "held", "steps-0-feeling": "99"},
        "steps-0-feeling",
    ),
    ("boundary_steps", {**RESPONSES["boundary_steps"](), "steps-0-boundary": "x"}, "steps"),
    # -- support network
    (
        "support_network",
        {"people": [{"name": f"P{i}", "circle": "outer"} for i in range(200)]},
        "people",
    ),
    (
        "support_network",
        {"places_and_services": [{"name": "x", "circle": "outer"}] * 31},
        "places_and_services",
    ),
    ("support_network", {"people": {"name": "Jo"}}, "people"),
    ("support_network", person(name=""), "people-0-name"),
    ("support_network", person(name="J" * 41), "people-0-name"),
    ("support_network", person(name=MEGABYTE), "people-0-name"),
    ("support_network", person(circle="family"), "people-0-circle"),
    ("support_network", person(roles=["reality_check", "banker"]), "people-0-roles"),
    ("support_network", person(roles="banker"), "people-0-roles"),
    ("support_network", person(roles=[1, 2]), "people-0-roles"),
    ("support_network", person(roles=["warmth"] * 60), "people-0-roles"),
    ("support_network", person(steadying="sometimes"), "people-0-steadying"),
    ("support_network", person(last_contact="yesterday"), "people-0-last_contact"),
    ("support_network", person(last_contact="2999-01-01"), "people-0-last_contact"),
    ("support_network", person(phone="07700 900000"), "people-0-phone"),
    ("support_network", place(name=""), "places_and_services-0-name"),
    ("support_network", place(circle=3), "places_and_services-0-circle"),
    # -- safety plan
    ("safety_plan", {}, "__all__"),
    ("safety_plan", dict.fromkeys(plan(), ""), "__all__"),
    ("safety_plan", plan(warning_signs=MEGABYTE), "warning_signs"),
    ("safety_plan", plan(safe_places=MEGABYTE), "safe_places"),
    ("safety_plan", plan(people_to_call=MEGABYTE), "people_to_call"),
    ("safety_plan", plan(documents_and_where=MEGABYTE), "documents_and_where"),
    ("safety_plan", plan(emergency_numbers=[999]), "emergency_numbers"),
    ("safety_plan", plan(code_word="w" * 101), "code_word"),
    ("safety_plan", plan(code_word="nul\x00"), "code_word"),
    ("safety_plan", plan(address="12 High St"), "address"),
    # -- worksheet
    ("worksheet", answers(pull=11), "pull"),
    ("worksheet", answers(pull=-1), "pull"),
    ("worksheet", without(answers(), "pull"), "pull"),
    ("worksheet", answers(word=""), "word"),
    ("worksheet", answers(word=MEGABYTE), "word"),
    ("worksheet", answers(story=MEGABYTE), "story"),
    ("worksheet", answers(place="Mars"), "place"),
    ("worksheet", answers(place=["Home", "Work"]), "place"),
    ("worksheet", answers(helped=["A walk", "Flying"]), "helped"),
    ("worksheet", answers(safe="perhaps"), "safe"),
    ("worksheet", answers(safe=True), "safe"),
    ("worksheet", answers(when="31/02/2026"), "when"),
    ("worksheet", answers(q99="extra"), "q99"),
    # -- reading (its example has two prompts)
    ("reading", RESPONSES["reading"](reflection_1=MEGABYTE), "reflection_1"),
    ("reading", RESPONSES["reading"](reflection_1=["a list"]), "reflection_1"),
    ("reading", RESPONSES["reading"](reflection_3="a third"), "reflection_3"),
    # -- the written record, for completeness
    ("written_record", RESPONSES["written_record"](body_distress=11), "body_distress"),
    ("written_record", RESPONSES["written_record"](what_happened=MEGABYTE), "what_happened"),
]


@pytest.mark.parametrize(
    ("slug", "data", "field"), BAD, ids=[f"{s}:{f}:{i}" for i, (s, _d, f) in enumerate(BAD)]
)
def test_bad_input_is_refused_with_a_message_naming_the_field(slug, data, field):
    assert field in errors(slug, data)


def test_every_kind_is_covered_by_the_bad_input_table():
    assert {slug for slug, _data, _field in BAD} == {kind.slug for kind in all_kinds()}


def test_a_crowded_network_gets_a_kind_message():
    message = errors("support_network", {"people": [{"name": "A", "circle": "outer"}] * 200})[
        "people"
    ]
    assert message == [
        "You can list up to 50 people here. If there are more, keep the ones who matter most right now."
    ]


def test_a_crowded_network_posted_from_the_page_is_refused_too():
    posted = flat({"people": [{"name": f"P{i}", "circle": "outer"} for i in range(200)]})
    assert "people" in errors("support_network", posted)


@pytest.mark.parametrize("kind", all_kinds(), ids=lambda kind: kind.slug)
def test_every_kind_accepts_its_own_example(kind):
    response = kind.validate(
        RESPONSES[kind.slug](), exercise=exercise(kind.slug), tz="Europe/London"
    )
    assert response


def test_a_planned_step_keeps_no_feeling_and_a_tried_one_keeps_its_number():
    response = get_kind("boundary_steps").validate(
        {
            "steps": [
                {"boundary": "a", "status": "planned", "feeling": 9},
                {"boundary": "b", "status": "tried", "feeling": 2},
            ]
        },
        exercise=exercise("boundary_steps"),
        tz="UTC",
    )
    assert [step["feeling"] for step in response["steps"]] == [None, 2]


@pytest.mark.parametrize("status", ["tried", "held", "not_yet"])
def test_a_step_tried_or_not_may_leave_how_it_felt_unanswered(status):
    """How it felt is the client's to add when they want: a step marked
    "Tried it" is kept without a number rather than refused."""
    response = get_kind("boundary_steps").validate(
        {"steps": [{"boundary": "a", "status": status}]},
        exercise=exercise("boundary_steps"),
        tz="UTC",
    )
    assert response["steps"][0]["status"] == status
    assert response["steps"][0].get("feeling") is None


def test_an_untouched_row_from_the_page_is_not_an_answer():
    """The page always offers an empty row (status planned, slider not answered)."""
    posted = {
        "steps-0-boundary": "No calls after 10.",
        "steps-0-status": "planned",
        "steps-0-feeling": "",
        "steps-7-boundary": "",
        "steps-7-status": "planned",
        "steps-7-feeling": "",
        "steps-7-planned_on": "",
    }
    kind = get_kind("boundary_steps")
    response = kind.validate(posted, exercise=exercise("boundary_steps"), tz="UTC")
    assert [step["boundary"] for step in response["steps"]] == ["No calls after 10."]
    assert response["steps"][0]["feeling"] is None
    draft = kind.validate_draft(posted, exercise=exercise("boundary_steps"), tz="UTC")
    assert draft == {
        "steps": [{"boundary": "No calls after 10.", "status": "planned", "feeling": ""}]
    }


def test_rows_keep_their_order_across_gaps_left_by_removed_rows():
    posted = {
        "people-12-name": "Third",
        "people-12-circle": "outer",
        "people-0-name": "First",
        "people-0-circle": "inner",
        "people-3-name": "Second",
        "people-3-circle": "middle",
    }
    response = get_kind("support_network").validate(
        posted, exercise=exercise("support_network"), tz="UTC"
    )
    assert [p["name"] for p in response["people"]] == ["First", "Second", "Third"]


def test_a_draft_keeps_half_typed_rows_and_ticked_boxes_as_typed():
    kind = get_kind("support_network")
    draft = kind.validate_draft(
        {
            "people-0-name": "Jo",
            "people-0-circle": "inner",
            "people-0-roles": ["warmth", "reality_check"],
            "people-0-steadying": "on",
            "people-0-last_contact": "not a da",
        },
        exercise=exercise("support_network"),
        tz="UTC",
    )
    assert draft == {
        "people": [
            {
                "name": "Jo",
                "circle": "inner",
                "roles": ["warmth", "reality_check"],
                "steadying": True,
                "last_contact": "not a da",
            }
        ]
    }
    form = kind.form(exercise=exercise("support_network"), initial=draft)
    html = str(form.row_sets["people"].forms[0]["name"]) + str(
        form.row_sets["people"].forms[0]["roles"]
    )
    assert 'value="Jo"' in html
    assert html.count("checked") == 2


def test_a_draft_is_bounded_too():
    kind = get_kind("boundary_steps")
    with pytest.raises(ResponseInvalid) as caught:
        kind.validate_draft(
            {"steps-0-boundary": MEGABYTE}, exercise=exercise("boundary_steps"), tz="UTC"
        )
    assert "steps-0-boundary" in caught.value.errors
    with pytest.raises(ResponseInvalid) as caught:
        kind.validate_draft({"steps-0-size": "9"}, exercise=exercise("boundary_steps"), tz="UTC")
    assert "steps-0-size" in caught.value.errors


def test_a_worksheet_without_questions_cannot_be_answered():
    with pytest.raises(ResponseInvalid) as caught:
        get_kind("worksheet").validate({}, exercise=Exercise(kind="worksheet"), tz="UTC")
    assert caught.value.errors == {"__all__": ["This worksheet has no questions yet."]}


def test_check_in_total_is_the_mean_with_reversed_questions_turned_round():
    kind = get_kind("worksheet")
    response = kind.validate(answers(pull=8, clarity=6), exercise=exercise("worksheet"), tz="UTC")
    # pull 8 counts as 2 (less pull is better); (2 + 6) / 2
    assert kind.score(response, exercise=exercise("worksheet")) == 4.0
    summed = Exercise(
        kind="worksheet",
        options={**options_for("worksheet"), "score": {"method": "sum", "better": "higher"}},
    )
    assert kind.score(response, exercise=summed) == 8.0
    assert get_kind("urge_log").score(response, exercise=exercise("urge_log")) is None


def test_conflict_rows_compare_answers_inside_rows():
    kind = get_kind("boundary_steps")
    theirs = kind.validate(
        RESPONSES["boundary_steps"](), exercise=exercise("boundary_steps"), tz="UTC"
    )
    mine = flat(RESPONSES["boundary_steps"]())
    mine["steps-1-boundary"] = "Sunday lunch, and stay all afternoon."
    rows = kind.compare(exercise=exercise("boundary_steps"), mine=mine, theirs=theirs)
    assert [(r["label"], r["mine"], r["theirs"]) for r in rows if "boundary" in r["key"]] == [
        (
            "Step 2: The boundary, in your own words",
            "Sunday lunch, and stay all afternoon.",
            "Sunday lunch with my sister.",
        )
    ]


# -- schema versions


def test_an_entry_written_under_an_old_schema_is_upgraded_when_read():
    kind = WrittenRecordV2()
    old = {"occurred_at": "2026-01-01T10:00:00+00:00", "what_happened": "x", "distress": 6}
    assert kind.upgrade(old, 1) == {
        "occurred_at": "2026-01-01T10:00:00+00:00",
        "what_happened": "x",
        "body_distress": 6,
    }
    assert old["distress"] == 6  # the stored response itself is left alone
    # The current version, and one from newer code (a rollback), are shown as they are.
    assert kind.upgrade({"body_distress": 3}, 2) == {"body_distress": 3}
    assert kind.upgrade({"body_distress": 3}, 3) == {"body_distress": 3}


@pytest.mark.parametrize("kind", all_kinds(), ids=lambda kind: kind.slug)
def test_every_kind_can_read_every_version_it_has_had(kind):
    for version in range(1, kind.schema_version):
        assert version in kind.upgrades, f"{kind.slug} needs a step from v{version}"
    example = kind.validate(RESPONSES[kind.slug](), exercise=exercise(kind.slug), tz="UTC")
    assert kind.upgrade(example, kind.schema_version) == example


def test_conflict_rows_show_answers_that_only_one_side_has():
    kind = get_kind("written_record")
    rows = kind.compare(
        exercise=exercise("written_record"),
        mine={"what_happened": "this tab", "occurred_at": "2026-01-01T10:00"},
        theirs={"what_happened": "other tab", "body_distress": 4},
    )
    by_key = {row["key"]: (row["mine"], row["theirs"]) for row in rows}
    assert by_key == {
        "what_happened": ("this tab", "other tab"),
        "occurred_at": ("2026-01-01T10:00", ""),
        "body_distress": ("", "4"),
    }


@pytest.mark.parametrize(
    ("stored", "shown"),
    [
        ("2026-11-25T23:20:00+00:00", "2026-11-25T18:20"),  # as sent: shown in the client's time
        ("2026-11-25T18:20", "2026-11-25T18:20"),  # as typed into a draft
        ("yesterday evening", "yesterday evening"),  # not a time: shown as typed
    ],
)
def test_a_time_already_given_is_shown_back_in_the_clients_own_time(stored, shown):
    """Changing a sent entry starts from the time the client gave, not from an
    empty box the browser cannot fill with an offset it does not read."""
    kind = get_kind("written_record")
    with timezone.override("America/New_York"):
        form = kind.form(exercise=Exercise(kind="written_record"), initial={"occurred_at": stored})
        assert f'value="{shown}"' in str(form["occurred_at"])


# -- the nights the clocks change (Europe/London: 26 October 2025 back, 30 March 2025 forward)


@pytest.mark.parametrize(("slug", "key"), [("written_record", "occurred_at"), ("urge_log", "at")])
def test_a_time_the_clock_showed_twice_is_taken_as_the_first_of_the_two(slug, key):
    data = {**RESPONSES[slug](), key: "2025-10-26T01:30"}
    response = get_kind(slug).validate(data, exercise=exercise(slug), tz="Europe/London")
    # 01:30 in summer time (the first time round), which reads back as 01:30.
    assert response[key] == "2025-10-26T01:30:00+01:00"


@pytest.mark.parametrize(("slug", "key"), [("written_record", "occurred_at"), ("urge_log", "at")])
def test_a_time_the_clocks_skipped_gets_a_plain_message(slug, key):
    found = errors(slug, {**RESPONSES[slug](), key: "2025-03-30T01:30"})
    assert found == {
        key: [
            "The clocks went forward that night, so 01:30 did not happen. Please choose a time before or after it."
        ]
    }


def test_a_time_that_did_happen_on_a_clock_change_day_is_read_as_it_is():
    kind = get_kind("written_record")
    for typed, stored in [
        ("2025-10-26T00:30", "2025-10-26T00:30:00+01:00"),
        ("2025-10-26T02:30", "2025-10-26T02:30:00+00:00"),
        ("2025-03-30T00:59", "2025-03-30T00:59:00+00:00"),
        ("2025-03-30T02:00", "2025-03-30T02:00:00+01:00"),
    ]:
        data = {**RESPONSES["written_record"](), "occurred_at": typed}
        response = kind.validate(data, exercise=exercise("written_record"), tz="Europe/London")
        assert response["occurred_at"] == stored
