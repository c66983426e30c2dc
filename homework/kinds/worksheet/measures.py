"""Readers of a standard measure's score rule (the shared contract of issue 37): what other parts
ask of a measure, so none of them reads ``options["score"]`` by hand. Every key beyond the
score's own (subscales, loinc) is optional: a rule without them reads as empty."""

from typing import TYPE_CHECKING

from homework.kinds import get_kind
from homework.kinds.values import JSONDict
from homework.kinds.worksheet.scoring import WorksheetScoring, points_of

if TYPE_CHECKING:
    from homework.models import Exercise


def _scoring(exercise: "Exercise") -> WorksheetScoring | None:
    kind = get_kind(exercise.kind)
    return kind if isinstance(kind, WorksheetScoring) else None


# What a published measure's score names beside its total (the shared contract's keys).
PUBLISHED_FIGURES = ("bands", "cutoff", "subscales", "source", "loinc")


def score_rule(exercise: "Exercise") -> JSONDict:
    """Empty for an exercise that is not a scored worksheet."""
    scoring = _scoring(exercise)
    return (scoring.score_rule(exercise) if scoring else None) or {}


def is_measure(exercise: "Exercise") -> bool:
    """A scored questionnaire with published figures (bands, a cutoff, subscales, a source): a
    check-in of the practice's own (a bare total) is not one, nor is anything unscored."""
    rule = score_rule(exercise)
    return any(rule.get(name) for name in PUBLISHED_FIGURES)


def measure_questions(exercise: "Exercise") -> list[JSONDict]:
    scoring = _scoring(exercise)
    return scoring.questions(exercise) if scoring else []


def subscales_of(exercise: "Exercise") -> list[JSONDict]:
    subscales = score_rule(exercise).get("subscales")
    if not isinstance(subscales, list):
        return []
    return [s for s in subscales if isinstance(s, dict) and isinstance(s.get("key"), str)]


def subscale_scores(exercise: "Exercise", response: JSONDict) -> dict[str, float]:
    """Each subscale's items' points times its multiplier; a subscale with an item unanswered has
    no score, as a total with one missing has none."""
    questions = {q["key"]: q for q in measure_questions(exercise)}
    scores: dict[str, float] = {}
    for subscale in subscales_of(exercise):
        items = subscale.get("items")
        if not isinstance(items, list) or not items:
            continue
        points = [
            points_of(questions[key], response.get(key)) if key in questions else None
            for key in items
        ]
        if any(value is None for value in points):
            continue
        multiplier = subscale.get("multiplier", 1)
        if not isinstance(multiplier, int | float) or isinstance(multiplier, bool):
            multiplier = 1
        scores[subscale["key"]] = float(sum(p for p in points if p is not None) * multiplier)
    return scores


def loinc_of(exercise: "Exercise", part: str = "total") -> str | None:
    """The published LOINC code of the total, a subscale (by its key) or the panel, where the
    measure's rule names one."""
    codes = score_rule(exercise).get("loinc")
    code = codes.get(part) if isinstance(codes, dict) else None
    return code if isinstance(code, str) and code else None
