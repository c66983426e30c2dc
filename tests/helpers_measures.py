"""A scored measure built for a test with just the score-rule keys it needs (cutoff, reliable
change, reliability and sd, subscales), and its totals sent on given days."""

import datetime as dt
from typing import Any

from django.utils import timezone

from clients.models import Client
from homework.models import Assignment, Entry, Exercise
from tests.factories import AssignmentFactory, EntryFactory, ExerciseFactory

BANDS = [
    {"from": 0, "to": 4, "label": "Low"},
    {"from": 5, "to": 9, "label": "Middling"},
    {"from": 10, "to": 20, "label": "High"},
]


def measure(title: str = "Test measure", *, better: str = "lower", **score: Any) -> Exercise:
    """Two 0-10 items summed, 0-20, in three bands; ``score`` adds or overrides rule keys."""
    return ExerciseFactory.create(
        kind="worksheet",
        title=title,
        options={
            "questions": [
                {"key": "one", "type": "scale_0_10", "text": "First item", "scored": True},
                {"key": "two", "type": "scale_0_10", "text": "Second item", "scored": True},
            ],
            "score": {
                "method": "sum",
                "better": better,
                "label": f"{title} total",
                "bands": BANDS,
                **score,
            },
        },
    )


def assigned(client: Client, exercise: Exercise) -> Assignment:
    return AssignmentFactory.create(client=client, exercise=exercise)


def sent_total(assignment: Assignment, total: int, *, days_ago: int, **fields: Any) -> Entry:
    """A complete entry whose total is ``total`` (its items split it), ``days_ago`` days back."""
    first = min(total, 10)
    fields.setdefault("submitted_at", timezone.now() - dt.timedelta(days=days_ago, hours=1))
    return EntryFactory.create(
        assignment=assignment, response={"one": first, "two": total - first}, **fields
    )
