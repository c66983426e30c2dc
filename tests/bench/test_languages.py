"""The languages benchmark (bench.languages): every page it times opens in
both languages, one form per kind, and the figure names the slowest page."""

import pytest

from bench import languages
from homework.kinds import all_kinds

pytestmark = pytest.mark.django_db


@pytest.fixture
def fresh_clients():
    # The clients are made once a process; each test's database is its own.
    languages._clients.cache_clear()
    yield
    languages._clients.cache_clear()


def test_each_page_opens_in_spanish_and_in_english_and_the_slowest_is_named(
    fresh_clients, monkeypatch
):
    monkeypatch.setattr(languages, "ROUNDS", 1)
    spanish, _user = languages._clients()["es"]
    names = languages._portal_pages(spanish)
    assert {f"Do: {kind.slug}" for kind in all_kinds()} - {"Do: reading"} <= set(names)

    [figure] = languages.figures()  # each page asserts its own <html lang>

    assert figure.goal == languages.GOAL and figure.ratio > 0
    assert f"of {len(names)} portal pages" in figure.name
    assert any(f"slowest: {name}," in figure.note for name in names)
