"""Standard measures for tests, shaped as the shared contract of issue 37 writes them: the
library's PHQ-9 with its LOINC codes, and a PCL-5-shaped measure with four subscales."""

import copy
from typing import Any

from homework.library.measures import MEASURES
from homework.models import Exercise
from tests import factories

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
