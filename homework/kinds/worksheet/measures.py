"""A measure's score rule read for the therapist and for export: its bands, its clinical cutoff,
its reliable change, its subscales and LOINC codes, and the change from a first score to the
latest worded as what it is. Every key but "method" and "better" may be absent; a reading then
says only what is known."""

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from django.template.defaultfilters import floatformat
from django.utils.translation import gettext as _

from homework.kinds.values import JSONDict

if TYPE_CHECKING:
    from homework.models import Exercise

# A measure is a worksheet whose score names a published figure: a therapist's own check-in
# total is not one (homework.selectors.measures asks the same of the database).
PUBLISHED_FIGURES = ("bands", "cutoff", "subscales", "source", "loinc")

# The two-tailed 95% point of the normal distribution (Jacobson & Truax, 1991).
RELIABLE_Z = 1.96

Direction = Literal["improved", "worsened"]
Side = Literal["above", "below"]


def score_rule(exercise: "Exercise") -> JSONDict | None:
    options = exercise.options if isinstance(exercise.options, dict) else {}
    rule = options.get("score")
    return rule if isinstance(rule, dict) else None


def rule_for(exercise: "Exercise", subscale: str | None) -> JSONDict:
    """The subscale's own figures where it names them; ``better`` is always the measure's."""
    rule = score_rule(exercise) or {}
    if subscale is None:
        return rule
    for part in rule.get("subscales") or []:
        if isinstance(part, dict) and part.get("key") == subscale:
            return part
    return {}


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def band_of(exercise: "Exercise", total: float | None, subscale: str | None = None) -> str:
    """The published band the total falls in, for the therapist only; "" when there are none."""
    for band in rule_for(exercise, subscale).get("bands") or []:
        if total is not None and band["from"] <= total <= band["to"]:
            return str(band["label"])
    return ""


def cutoff_of(exercise: "Exercise", subscale: str | None = None) -> float | None:
    return _number(rule_for(exercise, subscale).get("cutoff"))


def reliable_change_of(exercise: "Exercise", subscale: str | None = None) -> float | None:
    """The measure's own published figure, else the Jacobson–Truax index from its reliability and
    standard deviation: 1.96 × sd × √2 × √(1 − r). None when neither is published."""
    rule = rule_for(exercise, subscale)
    own = _number(rule.get("reliable_change"))
    if own is not None and own > 0:
        return own
    reliability, sd = _number(rule.get("reliability")), _number(rule.get("sd"))
    if reliability is None or sd is None or not 0 <= reliability < 1 or sd <= 0:
        return None
    return RELIABLE_Z * sd * math.sqrt(2) * math.sqrt(1 - reliability)


@dataclass(frozen=True)
class ChangeReading:
    first: float
    latest: float
    needed: float | None  # None: the measure publishes no reliable-change figure
    reliable: bool
    direction: Direction | None  # only when the change is reliable
    cutoff: float | None
    first_side: Side | None  # which side of the cutoff; None without one
    latest_side: Side | None

    @property
    def crossed_cutoff(self) -> bool:
        return self.first_side is not None and self.first_side != self.latest_side


def _side(score: float, cutoff: float | None) -> Side | None:
    """A score at the cutoff is at or above it, where the published rule puts the clinical range
    (for "lower is better"; for "higher is better" the range is below it)."""
    if cutoff is None:
        return None
    return "above" if score >= cutoff else "below"


def change_reading(
    exercise: "Exercise", first: float, latest: float, subscale: str | None = None
) -> ChangeReading:
    needed = reliable_change_of(exercise, subscale)
    moved = latest - first
    # A hair of float noise must not make 6 points short of a 6-point figure.
    reliable = needed is not None and abs(moved) >= needed - 1e-9
    lower_is_better = (score_rule(exercise) or {}).get("better") != "higher"
    direction: Direction | None = None
    if reliable:
        direction = "improved" if (moved < 0) == lower_is_better else "worsened"
    cutoff = cutoff_of(exercise, subscale)
    return ChangeReading(
        first=first,
        latest=latest,
        needed=needed,
        reliable=reliable,
        direction=direction,
        cutoff=cutoff,
        first_side=_side(first, cutoff),
        latest_side=_side(latest, cutoff),
    )


def _change_part(reading: ChangeReading) -> str:
    if reading.needed is None:
        return ""
    if reading.direction == "improved":
        return _("reliably improved")
    if reading.direction == "worsened":
        return _("reliable change: worse")
    return _("no reliable change")


def _cutoff_part(reading: ChangeReading) -> str:
    if reading.latest_side is None:
        return ""
    if reading.crossed_cutoff:
        if reading.latest_side == "above":
            return _("crossed the cutoff, now at or above it")
        return _("crossed the cutoff, now below it")
    if reading.latest_side == "above":
        return _("at or above the cutoff")
    return _("below the cutoff")


def change_words(reading: ChangeReading) -> str:
    """A few words for a row, as they follow a measure's name: "reliably improved, below the
    cutoff", "no reliable change"; the bare scores when the measure publishes neither a
    reliable-change figure nor a cutoff."""
    parts = [part for part in (_change_part(reading), _cutoff_part(reading)) if part]
    return ", ".join(parts) or _("%(first)s to %(latest)s") % _scores(reading)


def change_sentence(reading: ChangeReading) -> str:
    """The row's words with the figures behind them, for the client page and the summary."""
    words = change_words(reading)
    figures = [_("first %(first)s, latest %(latest)s") % _scores(reading)]
    if reading.needed is not None:
        figures.append(_("a change of %(needed)s points is reliable") % _scores(reading))
    if reading.cutoff is not None:
        figures.append(_("cutoff %(cutoff)s") % _scores(reading))
    said = "; ".join(figures)
    if reading.needed is None and reading.cutoff is None:
        return said[:1].upper() + said[1:] + "."
    return f"{words[:1].upper()}{words[1:]} ({said})."


def _scores(reading: ChangeReading) -> dict[str, str]:
    """In the reader's own form ("3,5" in Spanish), a whole number without its ".0"."""
    return {
        "first": floatformat(reading.first, -1),
        "latest": floatformat(reading.latest, -1),
        "needed": floatformat(reading.needed, -1) if reading.needed else "",
        "cutoff": floatformat(reading.cutoff, -1) if reading.cutoff is not None else "",
    }


def is_measure(exercise: "Exercise") -> bool:
    rule = score_rule(exercise) or {}
    return exercise.kind == "worksheet" and any(rule.get(name) for name in PUBLISHED_FIGURES)


def loinc_of(exercise: "Exercise", part: str = "total") -> str | None:
    """The published LOINC code of the total, a subscale (by its key) or the panel, where the
    measure's rule names one."""
    codes = (score_rule(exercise) or {}).get("loinc")
    code = codes.get(part) if isinstance(codes, dict) else None
    return code if isinstance(code, str) and code else None


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


def subscales_of(exercise: "Exercise") -> list[JSONDict]:
    subscales = (score_rule(exercise) or {}).get("subscales")
    if not isinstance(subscales, list):
        return []
    return [s for s in subscales if isinstance(s, dict) and isinstance(s.get("key"), str)]


def measure_questions(exercise: "Exercise") -> list[JSONDict]:
    options = exercise.options if isinstance(exercise.options, dict) else {}
    return [
        q
        for q in options.get("questions") or []
        if isinstance(q, dict) and isinstance(q.get("key"), str)
    ]


def subscale_scores(exercise: "Exercise", response: JSONDict) -> dict[str, float]:
    """Each subscale whose items are all answered: their points summed, times its multiplier. A
    subscale with an item unanswered has no score, as the total has none."""
    questions = {q["key"]: q for q in measure_questions(exercise)}
    scores: dict[str, float] = {}
    for subscale in subscales_of(exercise):
        points = [
            points_of(questions[item], response.get(item)) if item in questions else None
            for item in subscale.get("items") or []
            if not (item in questions and left_out(questions[item], response))
        ]
        if points and all(p is not None for p in points):
            multiplier = _number(subscale.get("multiplier")) or 1
            scores[subscale["key"]] = float(sum(p for p in points if p is not None) * multiplier)
    return scores


def subscale_band(exercise: "Exercise", subscale: str, score: float | None) -> str:
    return band_of(exercise, score, subscale)
