"""Measures for tests: one built with just the score-rule keys a test needs (cutoff, reliable
change, reliability and sd, subscales) and its totals sent on given days; the library's PHQ-9
with its LOINC codes; a PCL-5-shaped measure with four subscales."""

import copy
import datetime as dt
from typing import Any

from django.utils import timezone

from clients.models import Client
from homework.library.measures import MEASURES
from homework.models import Assignment, Entry, Exercise
from tests import factories
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


PCL5_POINTS = [0, 1, 2, 3, 4]
PCL5_CHOICES = ["Not at all", "A little bit", "Moderately", "Quite a bit", "Extremely"]
PCL5_CLUSTERS = {"b": range(1, 6), "c": range(6, 8), "d": range(8, 15), "e": range(15, 21)}


def library_measure(title: str, **score: Any) -> Exercise:
    item = next(m for m in MEASURES if m["title"] == title)
    options = copy.deepcopy(item["options"])
    options["score"].update(score)
    return factories.ExerciseFactory.create(
        kind="worksheet", title=title, instructions=item["instructions"], options=options
    )


def phq9() -> Exercise:
    return library_measure("PHQ-9", loinc={"total": "44261-6", "panel": "44249-1"})


def pcl5_shaped(title: str = "PCL-5") -> Exercise:
    questions = [
        {
            "key": f"pcl5_{n}",
            "type": "single_choice",
            "text": f"Item {n} of the past month",
            "required": True,
            "choices": PCL5_CHOICES,
            "points": PCL5_POINTS,
            "scored": True,
        }
        for n in range(1, 21)
    ]
    subscales = [
        {"key": key, "label": f"Cluster {key.upper()}", "items": [f"pcl5_{n}" for n in items]}
        for key, items in PCL5_CLUSTERS.items()
    ]
    score = {
        "method": "sum",
        "better": "lower",
        "label": "PCL-5 total",
        "bands": [{"from": 0, "to": 32, "label": "Below"}, {"from": 33, "to": 80, "label": "At"}],
        "reliable_change": 10,
        "subscales": subscales,
        "loinc": {"total": "101698-9", "panel": "101697-1"},
    }
    return factories.ExerciseFactory.create(
        kind="worksheet",
        title=title,
        instructions="In the past month, how much were you bothered by:",
        options={"questions": questions, "score": score},
    )


def answers(exercise: Exercise, points: list[int]) -> dict[str, str]:
    """Each scored question answered with the choice worth the given points, in order."""
    scored = [q for q in exercise.options["questions"] if q.get("scored")]
    return {
        q["key"]: q["choices"][q["points"].index(p)] for q, p in zip(scored, points, strict=True)
    }
