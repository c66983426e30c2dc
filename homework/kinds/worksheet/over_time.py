"""A measure's scores over time as the therapist reads them: the total and each subscale, each
dated score in its published band, drawn against the bands and listed in words, and the change from
the first to the latest. Never for the client (their progress page shows dated points only)."""

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from django.utils import timezone
from django.utils.translation import gettext as _

from homework.kinds import charts
from homework.kinds.values import JSONDict
from homework.kinds.worksheet import measures
from homework.kinds.worksheet.kind import KIND
from practice.bidi import isolated_text
from practice.dates import calendar_day, years_named_within

if TYPE_CHECKING:
    from homework.models import Exercise

# In a brief summary: the first score and the latest few; the page and full detail list them all.
ROWS_ON_PAPER = 6

Scores = Sequence[tuple[dt.datetime, float]]


def measure_over_time(
    exercise: "Exercise", scores: Scores, subscales: Mapping[str, Scores] | None = None
) -> JSONDict:
    """``scores`` oldest first, each (sent at, total); ``subscales`` the same by subscale key."""
    scale = KIND.score_scale(exercise) or {"label": exercise.title, "max": 0}
    drawn = _series(exercise, scores, label=str(scale["label"]), y_max=float(scale["max"] or 0))
    drawn["exercise"] = exercise
    # In the measure's own order; a subscale never scored is left out, not drawn empty.
    drawn["subscales"] = [
        _series(
            exercise,
            (subscales or {})[part["key"]],
            label=str(part.get("label") or part["key"]),
            y_max=KIND.subscale_max(exercise, part),
            subscale=part["key"],
        )
        for part in measures.subscales_of(exercise)
        if (subscales or {}).get(part["key"])
    ]
    return drawn


def _series(
    exercise: "Exercise", scores: Scores, *, label: str, y_max: float, subscale: str | None = None
) -> JSONDict:
    days = [timezone.localdate(at) for at, _score in scores]
    with years_named_within(min(days), max(days)):
        rows = [
            {
                "on": calendar_day(at, "ABBR_MONTH_DAY_FORMAT"),
                "score": f"{score:g}",
                "band": measures.band_of(exercise, score, subscale),
            }
            for at, score in scores
        ]
    rule = measures.rule_for(exercise, subscale)
    bands = [(band["from"], band["to"], str(band["label"])) for band in rule.get("bands") or []]
    description = ", ".join(
        f"{row['on']}: {row['score']}" + (f" ({row['band']})" if row["band"] else "")
        for row in rows
    )
    title = _("%(label)s over time, with its published bands") % {"label": isolated_text(label)}
    values = [score for _at, score in scores]
    return {
        "key": subscale or "",
        "label": label,
        "rows": rows,
        "latest": rows[-1],
        "earlier": max(0, len(rows) - ROWS_ON_PAPER),
        # Read even with no published figure: the first and latest say what changed.
        "change": measures.change_sentence(
            measures.change_reading(exercise, values[0], values[-1], subscale)
        )
        if len(values) > 1
        else "",
        "svg": charts.values_over_time(
            points=[(row["on"], score) for row, (_at, score) in zip(rows, scores, strict=True)],
            y_max=y_max or max(values),
            title=title,
            description=description,
            bands=bands,
        ),
    }
