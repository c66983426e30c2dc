"""Worksheets whose questions change after they were answered: the
worksheet, its questions, and the answers posted and drafted against them."""

import re
import uuid
from collections.abc import Sequence

from django.template.loader import render_to_string
from django.urls import reverse

from homework import services
from homework.kinds import get_kind
from homework.kinds.values import SummaryScope
from homework.models import Entry
from tests.conftest import login, save_change_form
from tests.factories import AssignmentFactory, ExerciseFactory

WORKSHEET = get_kind("worksheet")
HELPED_QUESTION = {"type": "long_text", "text": "What helped this week?"}
SAFE_QUESTION = {"type": "yes_no", "text": "Did you feel safe at home this week?"}
REACHED_QUESTION = {"type": "short_text", "text": "How often did you reach out to them?"}


def answered(cast):
    """tara's own worksheet, answered once by alice through the portal."""
    exercise = ExerciseFactory.create(kind="worksheet", title="Weekly check-in", owner=cast.tara)
    exercise.options = {"questions": [HELPED_QUESTION, SAFE_QUESTION, REACHED_QUESTION]}
    services.exercise_save(actor=cast.tara, exercise=exercise)
    keys = [q["key"] for q in exercise.options["questions"]]
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    http = login(cast.alice.portal_user)
    sent = http.post(
        reverse("homework:do", args=[assignment.pk]),
        {
            "key": str(uuid.uuid4()),
            "version": "0",
            f"r-{keys[0]}": "my sister's kitchen",
            f"r-{keys[1]}": "no",
            f"r-{keys[2]}": "twice, late at night",
        },
    )
    assert sent.status_code == 302, sent.content
    return exercise, Entry.objects.get(assignment=assignment), http


def edit_questions(cast, exercise, questions):
    page = save_change_form(
        login(cast.tara),
        reverse("admin:homework_exercise_change", args=[exercise.pk]),
        {
            "kind": "worksheet",
            "title": exercise.title,
            "is_active": "on",
            "instructions": exercise.instructions,
            "therapist_note": "",
            "options": __import__("json").dumps({"questions": questions}),
        },
    )
    assert page.status_code == 302, page.context["adminform"].form.errors
    exercise.refresh_from_db()


def flat(html: str) -> str:
    return re.sub(r"\s+", " ", html).replace("> <", "><")


def pages(cast, entry, http):
    entry.refresh_from_db()
    return {
        "portal": flat(http.get(reverse("homework:entry", args=[entry.key])).text),
        "admin": flat(
            login(cast.tara).get(reverse("admin:homework_entry_change", args=[entry.pk])).text
        ),
        "summary": flat(
            render_to_string(
                WORKSHEET.summary_template,
                WORKSHEET.summary_context([entry], SummaryScope(full_detail=True)),
            )
        ),
    }


SAFE = "Did you feel safe at home this week?"


UNSAFE = "Did you feel unsafe at home this week?"


def shown_with(page: str, question: str, answer: str) -> bool:
    """Whether ``answer`` follows ``question`` before any other question
    (the therapist's note of how a question reads now aside)."""
    page = re.sub(r"\(reworded since: “[^”]*”\)", "", page)
    return (
        re.search(re.escape(question) + r"[^?]*?\b" + re.escape(answer) + r"\b", page) is not None
    )


PULL = "How strong was the pull back this week?"


PULL_NOW = "How strong has the pull back been since we last met?"


HELPED_TEXT = "What helped this week?"


def weekly_check_in(cast):
    """tara's check-in (a 0–10 scale, a yes/no, a longer answer) and alice's assignment."""
    exercise = ExerciseFactory.create(kind="worksheet", title="Weekly check-in", owner=cast.tara)
    exercise.options = {
        "questions": [
            {"type": "scale_0_10", "text": PULL},
            {"type": "yes_no", "text": SAFE},
            {"type": "long_text", "text": HELPED_TEXT},
        ]
    }
    services.exercise_save(actor=cast.tara, exercise=exercise)
    keys = [q["key"] for q in exercise.options["questions"]]
    return exercise, AssignmentFactory.create(client=cast.alice, exercise=exercise), keys


def check_in_form(keys, *, safe: str) -> dict[str, str]:
    """The whole form as the portal posts it: every answer, as typed."""
    pull, safe_key, helped = keys
    return {f"r-{pull}": "7", f"r-{safe_key}": safe, f"r-{helped}": "a walk with my sister"}


def drafted_check_in(cast):
    """alice's draft of the check-in, autosaved from the portal, all three answered."""
    exercise, assignment, keys = weekly_check_in(cast)
    http = login(cast.alice.portal_user)
    key = str(uuid.uuid4())
    saved = http.post(
        reverse("homework:autosave", args=[assignment.pk]),
        {"key": key, "version": "0", **check_in_form(keys, safe="no")},
    )
    assert saved.status_code == 200, saved.content
    return exercise, Entry.objects.get(key=key), keys, http


def reword_pull_and_safe(cast, exercise):
    questions = [dict(q) for q in exercise.options["questions"]]
    questions[0]["text"] = PULL_NOW
    questions[1]["text"] = UNSAFE
    edit_questions(cast, exercise, questions)


def as_worded(keys: Sequence[str], *, safe: str) -> dict[str, str]:
    """The wordings a check-in's answers keep: the pull and what helped as first asked,
    the safety question as ``safe``."""
    pull, safe_key, helped = keys
    return {pull: PULL, safe_key: safe, helped: HELPED_TEXT}


def page_of(entry: Entry) -> dict[str, str]:
    """The key and version the entry's page sends with its answers."""
    return {"key": str(entry.key), "version": str(entry.version)}


def sent_draft(http, draft: Entry, keys: Sequence[str]) -> Entry:
    """The drafted check-in sent from its page, answered "no" to feeling safe."""
    sent = http.post(
        reverse("homework:do", args=[draft.assignment_id]),
        {**page_of(draft), **check_in_form(keys, safe="no")},
    )
    assert sent.status_code == 302, sent.content
    return Entry.objects.get(pk=draft.pk)


def wordings_of(entry: Entry) -> dict[str, str]:
    entry.refresh_from_db()
    return {key: question["text"] for key, question in entry.asked.items()}


def watching_safety():
    """A check-in whose one question flags an answer of 3 or lower for review."""
    return ExerciseFactory.create(
        kind="worksheet",
        title="Safety check",
        options={
            "questions": [
                {
                    "key": "safe",
                    "type": "scale_0_10",
                    "text": "How safe have you felt?",
                    "scored": True,
                    "required": True,
                    "review_at_or_below": 3,
                }
            ],
            "score": {"method": "mean", "better": "higher", "label": ""},
        },
    )
