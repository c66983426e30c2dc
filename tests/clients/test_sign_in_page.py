"""What the sign-in page shows at a glance.

It is the page Back finds after the quick exit or signing out, on a device
someone else may pick up: the practice's crisis lines stay one press away
there, but folded under a neutral "Urgent help", not spelled out by name.
"""

import re

import pytest
from django.test import Client as HttpClient
from django.urls import reverse

from practice.crisis import crisis_line_html
from practice.selectors import practice_settings
from tests.conftest import login

URGENT_HELP = re.compile(
    r"<details class=\"urgent-help\">\s*<summary[^>]*>Urgent help</summary>(?P<inside>.*?)</details>",
    re.S,
)


def footer(html: str) -> str:
    found = re.search(r"<footer.*?</footer>", html, re.S)
    assert found, "the page has no footer"
    return found.group(0)


@pytest.mark.parametrize(
    "name", ["clients:login", "clients:password_reset", "clients:password_reset_sent"]
)
def test_a_signed_out_page_folds_the_crisis_lines_under_urgent_help(cast, name):
    html = HttpClient().get(reverse(name)).text
    folded = URGENT_HELP.search(footer(html))
    assert folded, "no closed “Urgent help” in the footer"
    lines = practice_settings().crisis_lines
    assert lines and all(
        f"<li>{crisis_line_html(line)}</li>" in folded.group("inside") for line in lines
    )
    # Nowhere else on the page, and nothing that names what they are for.
    outside = html.replace(folded.group(0), "")
    assert not any(line in outside for line in lines)
    assert "If you need someone now" not in outside
    # The full list is one link away too, as on every page.
    assert reverse("crisis") in outside


def test_a_signed_in_page_still_shows_the_crisis_lines_open(cast):
    html = login(cast.alice.portal_user).get(reverse("homework:dashboard")).text
    shown = footer(html)
    assert "<details" not in shown and "If you need someone now" in shown
    assert all(
        f"<li>{crisis_line_html(line)}</li>" in shown for line in practice_settings().crisis_lines
    )
