"""The answers a therapist chose to watch on a worksheet's question. Only the answer as the client
gave it is compared: nothing is read into what they wrote."""

from collections.abc import Callable
from typing import Any, TypeGuard

from django.utils.translation import gettext as _

from homework.kinds.values import JSONDict

THRESHOLDS = ("review_above", "review_at_or_below")
REVIEW_FIELDS = {*THRESHOLDS, "review_choices"}
CHOICE_TYPES = ("single_choice", "multiple_choice")
YES_NO_VALUES = ("yes", "no")


def whole_number(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def answer_range(question: Any) -> tuple[int, int]:
    points = question.get("points") if isinstance(question, dict) else None
    if isinstance(points, list) and points and all(whole_number(p) for p in points):
        return min(points), max(points)
    return 0, 10


def offered(question: JSONDict) -> list[str]:
    if question.get("type") == "yes_no":
        return list(YES_NO_VALUES)
    choices = question.get("choices")
    return [c for c in choices if isinstance(c, str)] if isinstance(choices, list) else []


def clean_review_rule(question: JSONDict, kind: Any, problem: Callable[..., None]) -> JSONDict:
    """Each problem is reported through ``problem``, which names the question."""
    kept: JSONDict = {}
    scored = question.get("scored") is True
    low, high = answer_range(question)
    for name in THRESHOLDS:
        value = question.get(name)
        if value is None:
            continue
        if not (scored and whole_number(value)):
            problem(_("“%(name)s” is a whole number, on a scored question."), name=name)
        elif not low <= value < high:
            # A threshold that would flag never (or always) is not what the therapist meant.
            problem(
                _(
                    "a flag at %(value)s is outside what this question can flag: "
                    "use a number from %(low)s to %(high)s."
                ),
                value=value,
                low=low,
                high=high - 1,
            )
        else:
            kept[name] = value
    choices = question.get("review_choices")
    if choices is None:
        return kept
    if kind not in (*CHOICE_TYPES, "yes_no"):
        problem(_("only choice and yes/no questions can flag an answer the client chooses."))
        return kept
    can_choose = offered(question)
    if not isinstance(choices, list) or not choices:
        problem(_("“review_choices” lists the answers that raise the flag."))
        return kept
    unknown = [c for c in choices if not isinstance(c, str) or c not in can_choose]
    if unknown:
        problem(
            _("“%(choice)s” is not one of this question’s answers, so it cannot raise a flag."),
            choice=str(unknown[0])[:60],
        )
    elif len(set(choices)) != len(choices):
        problem(_("each answer that raises a flag should be listed once."))
    elif kind != "multiple_choice" and len(choices) == len(can_choose):
        problem(_("every answer would raise the flag: leave at least one that does not."))
    else:
        kept["review_choices"] = [c for c in can_choose if c in choices]
    return kept


def answer_watched(question: JSONDict, value: Any, points: int | None) -> bool:
    """``points`` is None when the answer adds nothing or is not given."""
    if question.get("scored") and points is not None:
        above = question.get("review_above")
        if whole_number(above) and points > above:
            return True
        at_or_below = question.get("review_at_or_below")
        if whole_number(at_or_below) and points <= at_or_below:
            return True
    watched = question.get("review_choices")
    if isinstance(watched, list) and watched:
        chosen = value if isinstance(value, list) else [value]
        return any(isinstance(c, str) and c in watched for c in chosen)
    return False
