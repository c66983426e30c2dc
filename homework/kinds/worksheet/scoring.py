"""The total of a scored check-in, and its picture over time: a reflection to talk about, never a
diagnosis or a grade."""

import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from homework.kinds import charts
from homework.kinds.values import JSONDict
from homework.kinds.worksheet import measures
from homework.kinds.worksheet.measures import (
    left_out,
    points_of,
    subscale_band,
    subscale_scores,
    subscales_of,
)
from homework.kinds.worksheet.questions import WorksheetQuestions
from homework.kinds.worksheet.score_options import most_points
from homework.kinds.worksheet.watching import answer_watched
from practice.bidi import isolated_text
from practice.dates import calendar_day

if TYPE_CHECKING:
    from homework.models import Entry, Exercise


class WorksheetScoring(WorksheetQuestions):
    def score_rule(self, exercise: "Exercise") -> JSONDict | None:
        return measures.score_rule(exercise)

    def score(self, response: JSONDict, *, exercise: "Exercise") -> float | None:
        rule = self.score_rule(exercise)
        scored = [q for q in self.questions(exercise) if q.get("scored")]
        if rule is None or not scored:
            return None
        values = []
        for question in scored:
            if left_out(question, response):
                continue
            value = points_of(question, response.get(question["key"]))
            if value is None:
                return None
            values.append(10 - value if question.get("reverse") else value)
        total = sum(values) if rule["method"] == "sum" else statistics.fmean(values)
        return round(float(total), 1)

    def subscale_scores(
        self, response: JSONDict, *, exercise: "Exercise"
    ) -> dict[str, float] | None:
        """None for a worksheet without subscales, so the column says nothing of it."""
        return subscale_scores(exercise, response) if subscales_of(exercise) else None

    def score_scale(self, exercise: "Exercise") -> JSONDict | None:
        rule = self.score_rule(exercise)
        if rule is None:
            return None
        most = [most_points(q) for q in self.questions(exercise) if q.get("scored")]
        return {
            "label": rule.get("label") or _("Check-in total"),
            "max": sum(most) if rule["method"] == "sum" else max(most, default=10),
            "higher_is_better": rule["better"] == "higher",
        }

    def subscale_readings(self, exercise: "Exercise", response: JSONDict) -> list[JSONDict]:
        """For the therapist only: each subscale's score and published band ("Depression 14
        (Moderate)"), in the order the measure lists them."""
        scores = subscale_scores(exercise, response)
        return [
            {
                "key": subscale["key"],
                "label": str(subscale.get("label") or subscale["key"]),
                "score": scores[subscale["key"]],
                "band": subscale_band(exercise, subscale["key"], scores[subscale["key"]]),
            }
            for subscale in subscales_of(exercise)
            if subscale["key"] in scores
        ]

    def needs_review(self, response: JSONDict, *, exercise: "Exercise") -> bool:
        """The therapist, or a questionnaire's authors (PHQ-9's ninth item), asked to see it
        promptly, whatever the total."""
        return bool(self.answers_to_review(exercise, response))

    def answers_to_review(self, exercise: "Exercise", response: JSONDict) -> list[str]:
        return [
            question["key"]
            for question in self.questions(exercise)
            if answer_watched(
                question,
                response.get(question["key"]),
                points_of(question, response.get(question["key"])),
            )
        ]

    def band_of(self, exercise: "Exercise", total: float | None) -> str:
        """For the therapist only."""
        return measures.band_of(exercise, total)

    def subscale_max(self, exercise: "Exercise", subscale: JSONDict) -> float:
        questions = {q["key"]: q for q in self.questions(exercise)}
        most = sum(most_points(questions[k]) for k in subscale.get("items") or [] if k in questions)
        return float(most * (subscale.get("multiplier") or 1))

    def change_of(self, exercise: "Exercise", scores: Sequence[float]) -> str:
        """From the first score to the latest, for the therapist only: "" with fewer than two, or
        for a total with no published figure to read it against (its values say it all)."""
        if len(scores) < 2:
            return ""
        reading = measures.change_reading(exercise, scores[0], scores[-1])
        if reading.needed is None and reading.cutoff is None:
            return ""
        return measures.change_sentence(reading)

    def totals_chart(
        self, exercise: "Exercise", entries: Sequence["Entry"], *, labelled: bool = True
    ) -> JSONDict | None:
        scale_info = self.score_scale(exercise)
        points = [
            (calendar_day(entry.submitted_at, "ABBR_MONTH_DAY_FORMAT"), entry.score)
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
        scores = [value for _label, value in points]
        return {
            "points": points,
            "band": self.band_of(exercise, scores[-1]),
            "change": self.change_of(exercise, scores),
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
