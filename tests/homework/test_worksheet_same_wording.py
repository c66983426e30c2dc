"""A worksheet saved with two questions worded alike (before that was refused):
every place its answers appear keeps each answer with its own question."""

import re
import uuid

from django.template.loader import render_to_string
from django.urls import reverse

from homework import export
from homework.kinds import get_kind
from homework.kinds.values import SummaryScope
from homework.models import Entry
from tests.conftest import login
from tests.factories import AssignmentFactory, ExerciseFactory

WORKSHEET = get_kind("worksheet")
# Saved as it is (the factory skips clean_options), as such exercises were.
ALIKE = {
    "questions": [
        {"key": "morning", "type": "short_text", "text": "How did today go?", "required": False},
        {
            "key": "steady_a",
            "type": "scale_0_10",
            "text": "Steadiness",
            "scored": True,
            "required": True,
        },
        {"key": "evening", "type": "short_text", "text": "How did today go?", "required": False},
        {
            "key": "steady_b",
            "type": "scale_0_10",
            "text": "Steadiness",
            "scored": True,
            "required": True,
        },
    ],
    "score": {"method": "mean", "better": "higher", "label": "Check-in"},
}
ANSWERS = {"morning": "calm at breakfast", "steady_a": 3, "evening": "hard by night", "steady_b": 8}


def sent_twice(cast):
    """Sent through the portal, as a client does: two check-ins, a day apart."""
    exercise = ExerciseFactory.create(kind="worksheet", title="Daily check-in", options=ALIKE)
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    http = login(cast.alice.portal_user)
    for day in ("1", "2"):
        posted = {
            f"r-{key}": f"{value} {day}" if isinstance(value, str) else str(value)
            for key, value in ANSWERS.items()
        }
        page = http.post(
            reverse("homework:do", args=[assignment.pk]),
            {"key": str(uuid.uuid4()), "version": "0", **posted},
        )
        assert page.status_code == 302, page.content
    entries = list(Entry.objects.filter(assignment=assignment).order_by("submitted_at"))
    assert [e.response["evening"] for e in entries] == ["hard by night 1", "hard by night 2"]
    return http, entries


def in_order(text: str, *parts: str) -> bool:
    positions = [text.find(part) for part in parts]
    return -1 not in positions and positions == sorted(positions)


def test_the_summary_keeps_answers_to_questions_worded_alike_apart(cast):
    _http, entries = sent_twice(cast)
    html = render_to_string(
        WORKSHEET.summary_template,
        WORKSHEET.summary_context(entries, SummaryScope(full_detail=True)),
    )
    assert html.count("How did today go?") == 2 and html.count(">Steadiness<") == 2
    # Each label is followed by its own answers only, newest first.
    morning, evening = html.split("How did today go?")[1:]
    assert in_order(morning, "calm at breakfast 2", "calm at breakfast 1")
    assert "hard by night" not in morning.split("Steadiness")[0]
    assert in_order(evening, "hard by night 2", "hard by night 1")
    first_scale, second_scale = html.split(">Steadiness<")[1:]
    assert "3 / 10" in first_scale.split("How did today go?")[0]
    assert "8 / 10" not in first_scale.split("How did today go?")[0]
    assert "8 / 10" in second_scale and "3 / 10" not in second_scale


def test_each_page_showing_an_entry_keeps_its_answers_in_their_questions_places(cast):
    http, entries = sent_twice(cast)
    entry = entries[-1]
    portal = http.get(reverse("homework:entry", args=[entry.key])).text
    admin = login(cast.tara).get(reverse("admin:homework_entry_change", args=[entry.pk])).text
    for page in (portal, admin):
        shown = re.sub(r"\s+", " ", page)
        assert re.search(
            r"<dt[^>]*>How did today go\?</dt><dd[^>]*>calm at breakfast 2</dd>"
            r"<dt[^>]*>Steadiness</dt><dd[^>]*>3 / 10</dd>"
            r"<dt[^>]*>How did today go\?</dt><dd[^>]*>hard by night 2</dd>"
            r"<dt[^>]*>Steadiness</dt><dd[^>]*>8 / 10</dd>",
            shown.replace("> <", "><"),
        )


def test_the_progress_page_draws_each_scale_worded_alike_with_its_own_answers(cast):
    http, _entries = sent_twice(cast)
    page = http.get(reverse("homework:progress")).text
    described = re.findall(r"<desc[^>]*>(.*?)</desc>", page, re.S)
    assert len(described) == 2
    first, second = described
    assert ": 3" in first and ": 8" not in first
    assert ": 8" in second and ": 3" not in second


def test_the_clients_download_keeps_every_answer(cast, monkeypatch):
    _http, _entries = sent_twice(cast)
    data = export.export_json(user=cast.alice.portal_user)
    responses = [
        item["response"] for item in data["entries"] if item["exercise"] == "Daily check-in"
    ]
    assert [{key: r[key] for key in ANSWERS} for r in responses] == [
        {
            "morning": f"calm at breakfast {day}",
            "steady_a": 3,
            "evening": f"hard by night {day}",
            "steady_b": 8,
        }
        for day in ("1", "2")
    ]
    printed: list[str] = []

    def keep_the_html(html: str) -> bytes:
        printed.append(html)
        return b""

    monkeypatch.setattr(export, "render_pdf", keep_the_html)
    export.export_pdf(user=cast.alice.portal_user)
    for day in ("1", "2"):
        assert in_order(printed[0], f"calm at breakfast {day}", f"hard by night {day}")


def test_a_conflict_compares_each_of_two_questions_worded_alike(cast):
    _http, entries = sent_twice(cast)
    exercise = entries[0].assignment.exercise
    rows = WORKSHEET.compare(
        exercise=exercise,
        mine={**entries[0].response, "evening": "changed here"},
        theirs=entries[0].response,
    )
    assert [(row["key"], row["label"], row["mine"]) for row in rows] == [
        ("evening", "How did today go?", "changed here")
    ]
