"""Lists' pages (practice.api.pagination)."""

import pytest

from tests.conftest import Cast, login

pytestmark = pytest.mark.django_db


def test_a_rendered_page_lets_go_of_its_rows(cast: Cast):
    response = login(cast.alice.portal_user).get("/api/v1/assignments/")
    assert response.json()["count"] == 1
    # Sent: nothing left on it for the garbage collector to find.
    assert getattr(response, "data", "missing") is None
