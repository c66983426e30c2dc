"""The pages benchmark (bench.pages): every page opens at the largest client of
a tiny large practice, the figure names the slowest, and an empty database
is refused with a clear message."""

import pytest

from bench import pages
from bench.large_practice.load import large_practice_load
from bench.page_requests import ROOT, getter, package_of, signed_in, where_time_goes
from homework.kinds import all_kinds

pytestmark = pytest.mark.django_db


def test_every_page_opens_at_the_largest_client_and_the_slowest_is_named(db, monkeypatch):
    large_practice_load(1, clients_per_therapist=2)
    who = pages.largest_client()
    # A page over the goal gets a profile of 20 of its requests (40% of this test's
    # time): here only which request is profiled; test_the_profile_line_names_our_own_code
    # shows the profile's line itself.
    profiled = []

    def profile_line(request) -> str:
        profiled.append(request)
        return "profile of it"

    monkeypatch.setattr(pages, "profile_line", profile_line)

    measured = pages.measure_all(who, None, rounds=1)

    assert sorted(m.page.name for m in measured) == sorted(p.name for p in pages.pages(who))
    assert {m.page.name for m in measured} >= {f"Do: {kind.slug}" for kind in all_kinds()}
    assert all(m.ratio > 0 and m.queries > 0 for m in measured)
    slowest, median = pages.figures_of(measured, who)
    worst = max(measured, key=lambda m: m.ratio)
    assert slowest.ratio == worst.ratio and slowest.goal == pages.GOAL
    assert f"slowest: {worst.page.name} ({worst.url})" in slowest.note
    over_the_goal = worst.ratio > pages.GOAL
    assert profiled == ([worst.request] if over_the_goal else [])
    assert ("; profile of it" in slowest.note) == over_the_goal
    assert median.goal is None and min(m.ratio for m in measured) <= median.ratio <= worst.ratio
    named = pages.measure_all(who, {"To do", "Caseload"}, rounds=1)
    assert sorted(m.page.name for m in named) == ["Caseload", "To do"]
    with pytest.raises(SystemExit, match=r"No page is named \['Todo'\]: \['Admin home'"):
        pages.measure_all(who, {"To do", "Todo"}, rounds=1)


def test_an_unseeded_database_is_refused_with_what_to_run(db):
    with pytest.raises(
        SystemExit, match=r"seed the database first \(python -m bench.large_practice"
    ):
        pages.largest_client()


def test_the_profile_line_names_our_own_code(cast):
    http = signed_in(cast.alice.portal_user, staff=False)

    line = where_time_goes(getter(http, "/history/"), calls=5)

    assert line.startswith("profile of 5 requests: ")
    assert "homework/" in line or "clients/" in line or "practice/" in line
    # The middleware hands the request on: the innermost would otherwise own every view.
    assert "middleware" not in line and "password_checks" not in line


def test_time_under_none_of_ours_is_named_by_its_library():
    assert package_of("/venv/lib/python3.11/site-packages/django/template/base.py") == (
        "django/template"
    )
    assert package_of("/venv/lib/python3.11/site-packages/six.py") == "six.py"
    assert package_of(f"{ROOT}/practice/dates.py") == "practice/dates.py"
    assert package_of("<built-in>") == "Python's built-ins"
