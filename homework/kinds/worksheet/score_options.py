"""A worksheet's score as written on the exercise: how scored questions add up, and the published
bands, cutoff, reliable change, subscales, source and terms of the total."""

from typing import Any

from django.utils.translation import gettext as _

from homework.kinds.values import JSONDict
from homework.kinds.worksheet.published import (
    clean_bands,
    clean_published,
    clean_spread,
    most_points,
)
from homework.kinds.worksheet.subscale_options import clean_subscales

SCORE_FIELDS = {
    "method",
    "better",
    "label",
    "bands",
    "reliable_change",
    "total_to_client",
    "cutoff",
    "reliability",
    "sd",
    "subscales",
    "source",
    "terms",
    "loinc",
}
__all__ = ["SCORE_FIELDS", "clean_score", "most_points"]


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
                "reliable_change, total_to_client, cutoff, reliability, sd, subscales, source, "
                "terms and loinc."
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
    most = [most_points(q) for q in scored]
    highest = sum(most) if score.get("method") == "sum" else max(most, default=10)
    if "bands" in score:
        cleaned["bands"] = clean_bands(score["bands"], score.get("method"), highest, problems)
    cleaned.update(clean_spread(score, highest, _("The score: "), problems))
    if "subscales" in score:
        cleaned["subscales"] = clean_subscales(score["subscales"], questions, problems)
    cleaned.update(clean_published(score, cleaned.get("subscales") or [], problems))
    if "total_to_client" in score:
        if not isinstance(score["total_to_client"], bool):
            problems.append(_("The score’s “total_to_client” is true or false."))
        cleaned["total_to_client"] = score["total_to_client"] is True
    return cleaned
