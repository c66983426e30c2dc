"""Ids typed into an address by hand: a clear nothing, never a 500.

``"²".isdigit()`` is true but ``int("²")`` fails, and twenty nines overflow
the database's integers: both used to reach a query.
"""

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from clients.models import Client
from homework.kinds.rows import posted_indexes
from practice.requests import MAX_ID, parse_id
from tests.conftest import login
from tests.helpers import assignment_form

HAND_MADE = [
    "99999999999999999999",
    "²",
    "١٢",
    "-1",
    "0",
    "1e3",
    " 1",
    "",
    pytest.param("9" * 5000, id="5000-nines"),
]


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("1", 1),
        ("0042", 42),
        (str(MAX_ID), MAX_ID),
        (str(MAX_ID + 1), None),
        ("99999999999999999999", None),
        ("²", None),
        ("١٢", None),  # Arabic-Indic digits: digits, and still not an id
        ("0", None),
        ("-1", None),
        ("+1", None),
        (" 1", None),
        ("1.0", None),
        ("", None),
        (None, None),
        pytest.param("9" * 5000, None, id="5000-nines"),  # int() refuses strings this long
    ],
)
def test_parse_id_takes_only_a_positive_64_bit_number(given, expected):
    assert parse_id(given) == expected


@pytest.mark.parametrize("value", HAND_MADE)
@pytest.mark.parametrize(
    "url",
    [
        "admin:homework_entry_changelist",
        "admin:homework_assignment_changelist",
        "admin:homework_assignment_add",
    ],
)
def test_a_hand_made_client_in_the_address_is_not_a_500(cast, url, value):
    page = login(cast.tara).get(reverse(url), {"client": value})
    assert page.status_code == 200
    if "changelist" in url and value:
        assert list(page.context["cl"].result_list) == []


@pytest.mark.parametrize("value", HAND_MADE)
def test_a_hand_made_exercise_in_the_preview_is_not_found(cast, value):
    response = login(cast.tara).post(
        reverse("admin:homework_assignment_preview"), {"exercise": value}
    )
    if value:
        assert response.status_code == 404
    else:  # none chosen yet: the empty preview
        assert response.status_code == 200 and "Choose an exercise" in response.text


def test_a_row_number_that_is_not_ascii_is_not_a_row():
    data = {"steps-0-boundary": "a", "steps-²-boundary": "b", "steps-١-boundary": "c"}
    assert posted_indexes(data, "steps") == [0]


@pytest.mark.parametrize("value", ["99999999999999999999", "²", "١٢"])
@pytest.mark.parametrize(
    "url",
    [
        "admin:clients_client_since_last_session",
        "admin:clients_client_summary",
        "admin:clients_client_change",
        "admin:homework_entry_change",
        "admin:homework_assignment_change",
    ],
)
def test_a_hand_made_id_in_the_path_is_not_a_500(cast, url, value):
    page = login(cast.tara).get(reverse(url, args=[value]))
    assert page.status_code in (302, 404)


@pytest.mark.parametrize("value", ["abc", *HAND_MADE])
@pytest.mark.parametrize("action", ["archive_selected", "assign_exercise"])
def test_a_hand_made_row_in_a_list_action_is_not_a_500(cast, action, value):
    response = login(cast.tara).post(
        reverse("admin:clients_client_changelist"),
        {"action": action, ACTION_CHECKBOX_NAME: [str(cast.alice.pk), value]},
        follow=True,
    )
    assert response.status_code == 200
    assert "Nothing was changed" in response.text
    assert Client.objects.get(pk=cast.alice.pk).status == Client.Status.ACTIVE


@pytest.mark.parametrize("value", ["abc", "99999999999999999999", "²", "1e3"])
def test_a_hand_made_exercise_in_the_assignment_form_is_named_not_a_500(cast, value):
    form = {**assignment_form(cast, cast.alice, cast.alice_assignment.exercise), "exercise": value}
    response = login(cast.tara).post(reverse("admin:homework_assignment_add"), form)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["exercise"] == [
        "Choose an exercise from your library."
    ]
