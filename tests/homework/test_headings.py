"""Headings go down one level at a time wherever an entry is shown (axe's
heading-order): the kinds' display templates sit under different headings on
each page that reuses them."""

import re
from itertools import pairwise

import pytest
from django.urls import reverse

from homework import export
from homework.kinds import all_kinds, get_kind
from tests.conftest import login
from tests.factories import (
    RESPONSES,
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    SessionFactory,
    options_for,
)

SLUGS = [kind.slug for kind in all_kinds()]


def sent(cast, slug):
    exercise = ExerciseFactory.create(kind=slug, title=f"The {slug} one", options=options_for(slug))
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    kind = get_kind(slug)
    response = kind.validate(RESPONSES[slug](), exercise=exercise, tz="Europe/London")
    return EntryFactory.create(
        assignment=assignment, response=response, score=kind.score(response, exercise=exercise)
    )


def skips(html: str) -> list[str]:
    """Each place a heading is more than one level below the one before it."""
    levels = [int(level) for level in re.findall(r"<h([1-6])\b", html)]
    return [f"h{before} then h{after}" for before, after in pairwise(levels) if after > before + 1]


@pytest.mark.parametrize("slug", SLUGS)
def test_the_clients_entry_page_has_no_heading_skips(cast, slug):
    entry = sent(cast, slug)
    page = login(cast.alice.portal_user).get(reverse("homework:entry", args=[entry.key]))
    assert page.status_code == 200
    assert not skips(page.text)


@pytest.mark.parametrize("slug", SLUGS)
def test_the_admins_entry_pages_have_no_heading_skips(cast, slug):
    entry = sent(cast, slug)
    SessionFactory.create(client=cast.alice)
    http = login(cast.tara)
    for page in (
        http.get(reverse("admin:homework_entry_change", args=[entry.pk])),
        http.get(reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])),
        # An empty comment: the page again, with the entry, and the message.
        http.post(reverse("admin:homework_entry_comment", args=[entry.pk]), {"text": ""}),
    ):
        assert page.status_code in (200, 400)
        assert f"The {slug} one" in page.text
        assert not skips(page.text), page.request["PATH_INFO"]


@pytest.mark.parametrize("slug", SLUGS)
def test_the_clients_download_has_no_heading_skips(cast, slug):
    sent(cast, slug)
    printed = export.export_document(user=cast.alice.portal_user)
    assert f"The {slug} one" in printed
    assert not skips(printed)
