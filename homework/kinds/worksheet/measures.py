"""Reading a measure's published figures off its score rule (homework.kinds.worksheet.score_options
checks them): its subscales' scores, its cutoff, its reliable change and what the change from a first
score to a latest one amounts to. Every figure is optional; where one is missing the reading says
nothing rather than guess."""

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from homework.kinds.values import JSONDict
from homework.kinds.worksheet.published import is_number

if TYPE_CHECKING:
    from homework.models import Exercise

# The Jacobson–Truax reliable change index at p < .05.
Z_95 = 1.96


def score_rule(exercise: "Exercise") -> JSONDict:
    options = exercise.options if isinstance(exercise.options, dict) else {}
    rule = options.get("score")
    return rule if isinstance(rule, dict) else {}


def subscales_of(exercise: "Exercise") -> list[JSONDict]:
    subscales = score_rule(exercise).get("subscales")
    if not isinstance(subscales, list):
        return []
    return [s for s in subscales if isinstance(s, dict) and isinstance(s.get("key"), str)]


def _rule_for(exercise: "Exercise", subscale: str | None) -> JSONDict:
    if subscale is None:
        return score_rule(exercise)
    return next((s for s in subscales_of(exercise) if s["key"] == subscale), {})


def points_of(question: JSONDict, value: object) -> int | None:
    """None for no answer, or one the question does not offer."""
    points = question.get("points")
    if isinstance(points, list):
        choices = question.get("choices") or []
        if isinstance(value, str) and value in choices:
            return int(points[choices.index(value)])
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    return value


def left_out(question: JSONDict, response: JSONDict) -> bool:
    """A scored question the published form lets the client leave out, once they answered "yes" to
    the question it names (the WSAS's work item, for someone retired): it adds nothing."""
    unless = question.get("skip_if_yes")
    return isinstance(unless, str) and response.get(unless) == "yes"


def subscale_scores(exercise: "Exercise", response: JSONDict) -> dict[str, float]:
    """Each subscale whose items are all answered: their points summed, times its multiplier. A
    subscale with an item unanswered has no score, as the total has none."""
    options = exercise.options if isinstance(exercise.options, dict) else {}
    questions = {
        q["key"]: q
        for q in options.get("questions") or []
        if isinstance(q, dict) and isinstance(q.get("key"), str)
    }
    scores: dict[str, float] = {}
    for subscale in subscales_of(exercise):
        points = [
            points_of(questions[item], response.get(item)) if item in questions else None
            for item in subscale.get("items") or []
            if not (item in questions and left_out(questions[item], response))
        ]
        if points and all(p is not None for p in points):
            multiplier = subscale.get("multiplier", 1)
            scores[subscale["key"]] = float(sum(p for p in points if p is not None) * multiplier)
    return scores


def band_label(rule: JSONDict, score: float | None) -> str:
    for band in rule.get("bands") or []:
        if isinstance(band, dict) and score is not None and band["from"] <= score <= band["to"]:
            return str(band["label"])
    return ""


def subscale_band(exercise: "Exercise", subscale: str, score: float | None) -> str:
    return band_label(_rule_for(exercise, subscale), score)


def cutoff_of(exercise: "Exercise", subscale: str | None = None) -> float | None:
    cutoff = _rule_for(exercise, subscale).get("cutoff")
    return float(cutoff) if is_number(cutoff) else None


def reliable_change_of(exercise: "Exercise", subscale: str | None = None) -> float | None:
    """The published figure, else the Jacobson–Truax index from the published reliability and
    standard deviation: 1.96 × sd × √2 × √(1 − reliability), to one decimal place."""
    return reliable_change_in(_rule_for(exercise, subscale))


def reliable_change_in(rule: JSONDict) -> float | None:
    given = rule.get("reliable_change")
    if is_number(given):
        return float(given)
    reliability, sd = rule.get("reliability"), rule.get("sd")
    if is_number(reliability) and is_number(sd) and 0 < reliability < 1:
        return round(Z_95 * sd * math.sqrt(2) * math.sqrt(1 - reliability), 1)
    return None


def in_clinical_range(rule: JSONDict, score: float) -> bool | None:
    """At or above the cutoff when lower is better; below it when higher is better."""
    cutoff = rule.get("cutoff")
    if not is_number(cutoff):
        return None
    return score >= cutoff if rule.get("better", "lower") == "lower" else score < cutoff


@dataclass(frozen=True)
class ChangeReading:
    first: float
    latest: float
    # What a change must reach to be reliable; None when the measure publishes no figure.
    needed: float | None
    # "improved", "worsened" or "" (no reliable change, or no figure to tell).
    direction: str
    cutoff: float | None
    first_in_range: bool | None
    latest_in_range: bool | None

    @property
    def moved(self) -> float:
        return self.latest - self.first

    @property
    def reliable(self) -> bool | None:
        return None if self.needed is None else abs(self.moved) >= self.needed

    @property
    def crossed_cutoff(self) -> bool:
        """Into or out of the clinical range between first and latest."""
        return (
            self.first_in_range is not None
            and self.latest_in_range is not None
            and self.first_in_range != self.latest_in_range
        )


def change_reading(
    exercise: "Exercise", first: float, latest: float, subscale: str | None = None
) -> ChangeReading:
    rule = _rule_for(exercise, subscale)
    # A subscale is read the way its measure's total is.
    better = score_rule(exercise).get("better", "lower")
    reading: dict[str, Any] = {**rule, "better": better}
    needed = reliable_change_in(rule)
    direction = ""
    if needed is not None and abs(latest - first) >= needed:
        lower = latest < first
        direction = "improved" if lower == (better == "lower") else "worsened"
    return ChangeReading(
        first=first,
        latest=latest,
        needed=needed,
        direction=direction,
        cutoff=cutoff_of(exercise, subscale),
        first_in_range=in_clinical_range(reading, first),
        latest_in_range=in_clinical_range(reading, latest),
    )
