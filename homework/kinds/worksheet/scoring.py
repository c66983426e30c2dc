"""The total of a scored check-in, and its picture over time. A total is a
reflection for the client and the therapist to talk about, never a
diagnosis or a grade."""

import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from homework.kinds import charts
from homework.kinds.values import JSONDict
from homework.kinds.worksheet.questions import WorksheetQuestions
from practice.bidi import isolated_text
from practice.dates import calendar_day

if TYPE_CHECKING:
    from homework.models import Entry, Exercise


class WorksheetScoring(WorksheetQuestions):
    """How a worksheet's scored questions add up."""

    def score_rule(self, exercise: "Exercise") -> JSONDict | None:
        options = exercise.options if isinstance(exercise.options, dict) else {}
        rule = options.get("score")
        return rule if isinstance(rule, dict) else None

    # -- the total of a scored check-in
    def score(self, response: JSONDict, *, exercise: "Exercise") -> float | None:
        rule = self.score_rule(exercise)
        scored = [q for q in self.questions(exercise) if q.get("scored")]
        if rule is None or not scored:
            return None
        values = []
        for question in scored:
            value = response.get(question["key"])
            if not isinstance(value, int) or isinstance(value, bool):
                return None
            values.append(10 - value if question.get("reverse") else value)
        total = sum(values) if rule["method"] == "sum" else statistics.fmean(values)
        return round(float(total), 1)

    def score_scale(self, exercise: "Exercise") -> JSONDict | None:
        rule = self.score_rule(exercise)
        if rule is None:
            return None
        count = sum(1 for q in self.questions(exercise) if q.get("scored"))
        return {
            "label": rule.get("label") or _("Check-in total"),
            "max": 10 * count if rule["method"] == "sum" else 10,
            "higher_is_better": rule["better"] == "higher",
        }

    def totals_chart(
        self, exercise: "Exercise", entries: Sequence["Entry"], *, labelled: bool = True
    ) -> JSONDict | None:
        scale_info = self.score_scale(exercise)
        points = [
            (calendar_day(entry.submitted_at, "j M"), entry.score)
            for entry in entries
            if entry.score is not None and entry.submitted_at is not None
        ]
        if scale_info is None or not points:
            return None
        direction = (
            _("higher means steadier")
            if scale_info["higher_is_better"]
            else _("lower means steadier")
        )
        description = ", ".join(f"{label}: {value:g}" for label, value in points)
        return {
            "points": points,
            "scale": scale_info,
            "direction": direction,
            "svg": charts.values_over_time(
                points=[(label, float(value)) for label, value in points],
                y_max=scale_info["max"],
                title=_("%(label)s over time (%(direction)s)")
                % {"label": isolated_text(scale_info["label"]), "direction": direction},
                description=description,
                labelled=labelled,
            ),
        }
