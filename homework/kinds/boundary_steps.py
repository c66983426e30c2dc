"""Boundary steps: one small boundary at a time, planned, tried, reflected on. Each update starts
from the ladder sent last, so a step moves from planned to held without retyping."""

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, ngettext_lazy

from homework.kinds import charts
from homework.kinds.base import BRIEF, ExerciseKind, JSONDict, SummaryScope
from homework.kinds.charts.timeline_points import Lane, TimelinePoint
from homework.kinds.fields import KindForm, choice, date, long_text, scale, short_text
from homework.kinds.rows import RowSpec
from homework.kinds.shelves import Shelf
from homework.kinds.summaries import latest_per_assignment, parse_date
from practice.bidi import isolated_text

if TYPE_CHECKING:
    from homework.models import Assignment, Entry, Exercise

STATUSES = [
    ("planned", gettext_lazy("Planned")),
    ("tried", gettext_lazy("Tried it")),
    ("held", gettext_lazy("It held")),
    ("not_yet", gettext_lazy("Not yet")),
]
COUNT_LABELS = [
    ("held", gettext_lazy("held")),
    ("tried", gettext_lazy("tried")),
    ("not_yet", gettext_lazy("not yet")),
    ("planned", gettext_lazy("planned")),
]
MAX_STEPS = 20


class StepForm(KindForm):
    boundary = short_text(
        gettext_lazy("The boundary, in your own words"),
        required=True,
        wraps=True,
    )
    planned_on = date(gettext_lazy("When do you plan to try it?"))
    # Chosen by the client, never for them: a default would read as their answer in the summary.
    status = choice(gettext_lazy("How is it going?"), STATUSES)
    old_page_defaults = {"status": "planned"}
    what_happened = long_text(gettext_lazy("What happened when you tried it?"))
    # Asked, not demanded: a step tried is worth keeping before the client says how it felt.
    feeling = scale(
        gettext_lazy("How did it feel?"),
        legend=gettext_lazy("(0 = very hard, 10 = good)"),
        low=gettext_lazy("very hard"),
        high=gettext_lazy("good"),
        required=False,
        help_text=gettext_lazy("Once you have tried it, you can choose how it felt."),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("status") == "planned":
            # Not tried yet, so there is no feeling to record, even if the slider was moved.
            cleaned["feeling"] = None
        return cleaned


class BoundaryStepsForm(KindForm):
    row_specs = {
        "steps": RowSpec(
            form_class=StepForm,
            row_label=gettext_lazy("Step"),
            legend=gettext_lazy("Your steps"),
            add_label=gettext_lazy("Add a step"),
            max_rows=MAX_STEPS,
            too_many=ngettext_lazy(
                "You can keep up to %(limit)s step here. Small steps, one at a time, are plenty.",
                "You can keep up to %(limit)s steps here. Small steps, one at a time, are plenty.",
                MAX_STEPS,
            ),
            min_rows=1,
            too_few=gettext_lazy("Add at least one step. One small one is plenty."),
        )
    }


class BoundarySteps(ExerciseKind):
    slug = "boundary_steps"
    label = gettext_lazy("Boundary steps")
    shelf = Shelf.WORKSHEETS
    about = gettext_lazy("One small boundary planned, tried and looked back on.")
    schema_version = 1
    form_class = BoundaryStepsForm
    again_label = gettext_lazy("Update my steps")
    continues_last_sent = True

    def initial(self, *, exercise: "Exercise", previous: "Entry | None" = None) -> JSONDict:
        if previous is None:
            return {}
        return {"steps": list(self.response_of(previous).get("steps", []))}

    def steps(self, response: JSONDict) -> list[JSONDict]:
        labels = dict(STATUSES)
        return [
            {
                **step,
                "status_label": labels.get(step.get("status", ""), ""),
                "planned_on_date": parse_date(step.get("planned_on")),
            }
            for step in response.get("steps", [])
            if isinstance(step, dict)
        ]

    def counts(self, steps: Sequence[JSONDict]) -> list[tuple[str, int]]:
        counted = Counter(step.get("status") for step in steps)
        return [(str(label), counted[status]) for status, label in COUNT_LABELS if counted[status]]

    def chart(self, steps: Sequence[JSONDict]) -> str:
        counts = self.counts(steps)
        return charts.ladder(
            rungs=[
                charts.Rung(
                    text=step.get("boundary", ""),
                    status=step.get("status", ""),
                    status_label=str(step["status_label"]),
                )
                for step in steps
            ],
            title=_("The boundary ladder: the first step at the bottom"),
            description=", ".join(f"{label}: {count}" for label, count in counts),
        )

    def present(self, entry: "Entry") -> JSONDict:
        response = self.response_of(entry)
        steps = self.steps(response)
        return {
            "response": response,
            "steps": steps,
            "chart": self.chart(steps),
            "counts": self.counts(steps),
        }

    def timeline_points(self, entry: "Entry", *, zone: dt.tzinfo) -> list[TimelinePoint]:
        """The ladder is sent again with every update, so a step is drawn once, the first day it was
        said."""
        sent = entry.submitted_at or entry.created_at
        on = timezone.localdate(sent, zone)
        return [
            TimelinePoint(
                on=on,
                lane=Lane.BOUNDARY,
                mark=status,
                key=(entry.assignment_id, " ".join(str(step.get("boundary", "")).split()), status),
            )
            for step in self.steps(self.response_of(entry))
            if (status := step.get("status")) in ("tried", "held")
        ]

    def excerpt(self, entry: "Entry") -> str:
        steps = self.steps(self.response_of(entry))
        counts = ", ".join(f"{count} {label}" for label, count in self.counts(steps))
        return ngettext("%(n)s step: %(counts)s", "%(n)s steps: %(counts)s", len(steps)) % {
            "n": len(steps),
            "counts": counts,
        }

    def summary_context(self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF) -> JSONDict:
        ladders = []
        for entry, _previous in latest_per_assignment(entries):
            steps = self.steps(self.response_of(entry))
            ladders.append({"entry": entry, "steps": steps, "counts": self.counts(steps)})
        return {
            "ladders": ladders,
            "updates": len(entries),
            "full_detail": scope.full_detail,
            "printed": [ladder["entry"] for ladder in ladders],
        }

    def at_a_glance(self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF) -> list[str]:
        lines = []
        for entry, _previous in latest_per_assignment(entries):
            counts = self.counts(self.steps(self.response_of(entry)))
            lines.append(
                _("%(title)s: %(counts)s.")
                % {
                    "title": isolated_text(entry.assignment.exercise.title),
                    "counts": ", ".join(f"{count} {label}" for label, count in counts),
                }
            )
        return lines

    def progress_context(
        self, *, assignment: "Assignment", entries: Sequence["Entry"]
    ) -> JSONDict | None:
        if not entries:
            return None
        latest = entries[-1]
        return {"entry": latest, **self.present(latest)}


KIND = BoundarySteps()
