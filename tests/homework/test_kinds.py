import datetime as dt
import json

import pytest
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from homework.kinds import ResponseInvalid, all_kinds, get_kind, kind_choices
from homework.models import Exercise
from tests.factories import RESPONSES, flat, options_for, written_record

KIND = get_kind("written_record")
EXERCISE = Exercise(kind="written_record", title="t", instructions="i")
FIELD_NAMES = sorted(written_record())


def validate(**overrides: object) -> dict[str, object]:
    return KIND.validate(written_record(**overrides), exercise=EXERCISE, tz="Europe/London")


def errors_for(**overrides: object) -> dict[str, list[str]]:
    with pytest.raises(ResponseInvalid) as caught:
        validate(**overrides)
    return caught.value.errors


def test_registry_finds_the_written_record_by_its_module():
    assert "written_record" in dict(kind_choices())
    assert KIND in all_kinds()


def test_unknown_kind_is_a_lookup_error():
    with pytest.raises(LookupError):
        get_kind("horoscope")


def test_valid_written_record_is_stored_as_json_with_its_time_zone():
    response = validate()
    assert response["body_distress"] == 7
    occurred = dt.datetime.fromisoformat(str(response["occurred_at"]))
    assert occurred.tzinfo is not None
    assert response["what_happened"] == "They went quiet for the whole evening."


def test_a_written_record_without_a_time_is_kept_without_one():
    assert not validate(occurred_at="").get("occurred_at")


def test_naive_time_is_read_in_the_clients_time_zone():
    response = KIND.validate(
        written_record(occurred_at="2024-06-01T09:30"), exercise=EXERCISE, tz="America/New_York"
    )
    assert str(response["occurred_at"]).endswith("-04:00")


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"what_happened": ""}, "what_happened"),
        ({"what_happened": "x" * 1_000_000}, "what_happened"),
        ({"what_happened": "nul\x00byte"}, "what_happened"),
        ({"occurred_at": "9999-12-31T10:00"}, "occurred_at"),
        ({"occurred_at": "1066-10-14T10:00"}, "occurred_at"),
        ({"occurred_at": "yesterday-ish"}, "occurred_at"),
        ({"body_distress": "11"}, "body_distress"),
        ({"body_distress": "-1"}, "body_distress"),
        ({"body_distress": "very"}, "body_distress"),
        ({"mood_ring": "blue"}, "mood_ring"),
    ],
)
def test_bad_input_names_the_field(overrides, field):
    errors = errors_for(**overrides)
    assert field in errors
    assert all(message.strip() for message in errors[field])


def test_future_time_gets_a_plain_message():
    tomorrow = (timezone.localtime() + dt.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    assert errors_for(occurred_at=tomorrow)["occurred_at"] == [
        "That is in the future. When did it happen?"
    ]


def test_draft_keeps_partial_text_but_refuses_unknown_keys_and_huge_text():
    draft = KIND.validate_draft({"what_happened": "half a tho"}, exercise=EXERCISE, tz="UTC")
    assert draft == {"what_happened": "half a tho"}
    with pytest.raises(ResponseInvalid) as caught:
        KIND.validate_draft({"what_happened": "x" * 1_000_000}, exercise=EXERCISE, tz="UTC")
    assert "what_happened" in caught.value.errors
    with pytest.raises(ResponseInvalid) as caught:
        KIND.validate_draft({"secret": "x"}, exercise=EXERCISE, tz="UTC")
    assert "secret" in caught.value.errors
    with pytest.raises(ResponseInvalid):
        KIND.validate_draft({"what_happened": ["not", "text"]}, exercise=EXERCISE, tz="UTC")


def test_written_record_takes_no_options():
    assert KIND.clean_options({}) == {}
    with pytest.raises(ResponseInvalid):
        KIND.clean_options({"questions": []})


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=50)
    # Values some field accepts, so a good share of examples get past the types.
    | st.sampled_from(["5", "inner", "held", "me", "message", "yes", "2024-01-01", "on", ""])
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=10,
)


def example_exercise(kind):
    return Exercise(kind=kind.slug, title="t", instructions="i", options=options_for(kind.slug))


def response_keys(kind, exercise) -> list[str]:
    """Every key a response may carry, rows both nested and flattened, and near misses."""
    form = kind.form(exercise=exercise)
    keys = [*form.fields, *form.row_sets, "other"]
    for name, rows in form.row_sets.items():
        for field in rows.spec.fields():
            keys += [f"{name}-0-{field}", f"{name}-3-{field}", f"{name}-99999-{field}"]
        keys.append(f"{name}-0-shoe_size")
    return keys


@pytest.mark.parametrize("kind", all_kinds(), ids=lambda kind: kind.slug)
@given(data=st.data())
def test_any_json_is_accepted_or_refused_never_crashes(kind, data):
    exercise = example_exercise(kind)
    form = kind.form(exercise=exercise)
    row_fields = sorted({f for rows in form.row_sets.values() for f in rows.spec.fields()})
    row = st.dictionaries(st.sampled_from([*row_fields, "x"]), json_values, max_size=6)
    values = json_values | st.lists(row, max_size=4)
    keys = st.sampled_from(response_keys(kind, exercise)) | st.text(max_size=8)
    payload = data.draw(st.dictionaries(keys, values, max_size=8))
    for validate in (kind.validate, kind.validate_draft):
        try:
            result = validate(payload, exercise=exercise, tz="UTC")
        except ResponseInvalid as invalid:
            assert invalid.errors  # noqa: PT017 (either outcome is fine; a crash is not)
            assert all(isinstance(m, str) and m for ms in invalid.errors.values() for m in ms)  # noqa: PT017
        else:
            assert isinstance(result, dict)
            json.dumps(result)  # what is stored is JSON


@pytest.mark.parametrize("kind", all_kinds(), ids=lambda kind: kind.slug)
@given(data=st.data())
def test_valid_responses_with_rows_in_any_order_survive_the_round_trip(kind, data):
    """A valid response, nested or flattened as the portal posts it, validates
    to the same thing, and what validate returns validates again unchanged."""
    exercise = example_exercise(kind)
    response = RESPONSES[kind.slug]()
    once = kind.validate(response, exercise=exercise, tz="Europe/London")
    assert kind.validate(flat(response), exercise=exercise, tz="Europe/London") == once
    again = kind.validate(once, exercise=exercise, tz="Europe/London")
    assert again == once
    draft = kind.validate_draft(flat(response), exercise=exercise, tz="UTC")
    assert kind.validate(draft, exercise=exercise, tz="Europe/London") == once
    assert data.draw(st.just(True))
