"""A worksheet's score as written on the exercise: how scored questions add up, and the published
bands and reliable change of the total."""

from typing import Any

from django.utils.translation import gettext as _

from homework.kinds.values import JSONDict
from homework.kinds.worksheet.watching import whole_number

SCORE_FIELDS = {"method", "better", "label", "bands", "reliable_change", "total_to_client"}
MAX_BANDS = 10


def most_points(question: JSONDict) -> int:
    points = question.get("points")
    if isinstance(points, list) and points:
        return max(int(p) for p in points)
    return 10


def clean_score(score: Any, questions: list[JSONDict], problems: list[str]) -> JSONDict | None:
    scored = [q for q in questions if q.get("scored")]
    if score is None:
        if scored:
            problems.append(
                _(
                    "Some questions are scored, so add a “score” saying how they add up: "
                    '{"method": "sum" or "mean", "better": "higher" or "lower"}.'
                )
            )
        return None
    if not isinstance(score, dict):
        problems.append(_("“score” should be an object with “method” and “better”."))
        return None
    for name in sorted(set(score) - SCORE_FIELDS):
        problems.append(
            _(
                "“%(name)s” is not part of a score. Use method, better, label, bands, "
                "reliable_change and total_to_client."
            )
            % {"name": str(name)[:40]}
        )
    # Tuples, not sets: a list or an object written here is refused, not unhashable.
    if score.get("method") not in ("sum", "mean"):
        problems.append(_("The score’s “method” is “sum” or “mean”."))
    if score.get("better") not in ("higher", "lower"):
        problems.append(
            _("The score’s “better” is “higher” or “lower”: which way counts as better.")
        )
    label = score.get("label", "")
    if not isinstance(label, str) or len(label) > 80:
        problems.append(_("The score’s “label” is a short text."))
    if not scored:
        problems.append(_("A score needs at least one question marked “scored”: true."))
    cleaned: JSONDict = {
        "method": score.get("method"),
        "better": score.get("better"),
        "label": label if isinstance(label, str) else "",
    }
    if "bands" in score:
        highest = sum(most_points(q) for q in scored)
        cleaned["bands"] = _clean_bands(score["bands"], score.get("method"), highest, problems)
    change = score.get("reliable_change")
    if change is not None:
        if not (isinstance(change, int | float) and not isinstance(change, bool) and change > 0):
            problems.append(
                _("The score’s “reliable_change” is the points a total must move by, above 0.")
            )
        cleaned["reliable_change"] = change
    if "total_to_client" in score:
        if not isinstance(score["total_to_client"], bool):
            problems.append(_("The score’s “total_to_client” is true or false."))
        cleaned["total_to_client"] = score["total_to_client"] is True
    return cleaned


def _clean_bands(bands: Any, method: Any, highest: int, problems: list[str]) -> list[JSONDict]:
    """Whole-number ranges from 0 to the highest total with no gap or overlap, so every total falls
    in exactly one."""
    message = _(
        "The score’s “bands” are a list of {“from”, “to”, “label”} running from 0 to "
        "%(highest)s without gaps, each a range of whole numbers, for a summed score."
    ) % {"highest": highest}
    if method != "sum" or not isinstance(bands, list) or not 1 <= len(bands) <= MAX_BANDS:
        problems.append(message)
        return []
    expected = 0
    for band in bands:
        if (
            not isinstance(band, dict)
            or set(band) != {"from", "to", "label"}
            or not (whole_number(band["from"]) and whole_number(band["to"]))
            or band["from"] != expected
            or band["to"] < band["from"]
            or not isinstance(band["label"], str)
            or not band["label"].strip()
            or len(band["label"]) > 80
        ):
            problems.append(message)
            return []
        expected = band["to"] + 1
    if expected != highest + 1:
        problems.append(message)
        return []
    return [dict(band) for band in bands]
