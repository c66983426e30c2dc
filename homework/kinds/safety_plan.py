"""The safety plan, filled in with the therapist: signs, places, people,
documents, numbers, a code word.

It is the most sensitive record there is, so lists and summaries say only
that a plan exists and when it was last updated; its content appears when
someone opens the entry itself, or asks the summary for full detail.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from homework.kinds.base import BRIEF, ExerciseKind, JSONDict, SummaryScope
from homework.kinds.fields import KindForm, long_text, short_text
from homework.kinds.summaries import latest_per_assignment
from practice.bidi import isolated_text
from practice.dates import calendar_day

if TYPE_CHECKING:
    from homework.models import Entry, Exercise


class SafetyPlanForm(KindForm):
    warning_signs = long_text(
        gettext_lazy("Warning signs"),
        help_text=gettext_lazy("What tells you things are getting more dangerous?"),
    )
    safe_places = long_text(
        gettext_lazy("Safe places"),
        help_text=gettext_lazy("Where could you go, at any hour, if you needed to leave quickly?"),
    )
    people_to_call = long_text(
        gettext_lazy("People to call"),
        help_text=gettext_lazy("Who would you call, and what would you ask them to do?"),
    )
    documents_and_where = long_text(
        gettext_lazy("Important documents, and where they are"),
        help_text=gettext_lazy(
            "ID, bank cards, papers for children, medication. Where are they kept, or copied?"
        ),
    )
    emergency_numbers = long_text(gettext_lazy("Emergency numbers"))
    code_word = short_text(
        gettext_lazy("A code word"),
        max_length=100,
        help_text=gettext_lazy(
            "A word that tells someone you trust to call for help, without saying why."
        ),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not any(str(value).strip() for value in cleaned.values() if value):
            raise ValidationError(
                _("Fill in at least one part. You can add the rest with your therapist.")
            )
        return cleaned


PARTS = list(SafetyPlanForm.base_fields)


class SafetyPlan(ExerciseKind):
    slug = "safety_plan"
    label = gettext_lazy("Safety plan")
    schema_version = 1
    form_class = SafetyPlanForm
    again_label = gettext_lazy("Update my plan")
    continues_last_sent = True
    # Its line in a list says how much is filled in, never a line of the plan.
    excerpt_quotes_client = False

    def initial(self, *, exercise: "Exercise", previous: "Entry | None" = None) -> JSONDict:
        return dict(self.response_of(previous)) if previous is not None else {}

    def present(self, entry: "Entry") -> JSONDict:
        response = self.response_of(entry)
        return {
            "response": response,
            "parts": [
                (SafetyPlanForm.base_fields[key].label, response.get(key, ""))
                for key in PARTS
                if response.get(key)
            ],
        }

    def excerpt(self, entry: "Entry") -> str:
        # Never a line of the plan itself in a list: open the entry to read it.
        filled = sum(1 for key in PARTS if self.response_of(entry).get(key))
        return ngettext(
            "Safety plan: %(n)s of %(total)s part filled in",
            "Safety plan: %(n)s of %(total)s parts filled in",
            len(PARTS),
        ) % {
            "n": filled,
            "total": len(PARTS),
        }

    def summary_context(self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF) -> JSONDict:
        plans = []
        for entry, _previous in latest_per_assignment(entries):
            # Changed after it was sent, it was last updated then.
            plan: JSONDict = {"entry": entry, "updated_on": entry.changed_at or entry.submitted_at}
            if scope.full_detail:
                plan.update(self.present(entry))
            plans.append(plan)
        return {
            "plans": plans,
            "full_detail": scope.full_detail,
            # Brief, the plan prints as "in place": its words are not on the page.
            "printed": [plan["entry"] for plan in plans] if scope.full_detail else [],
        }

    def at_a_glance(self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF) -> list[str]:
        return [
            _("%(title)s: in place, updated %(date)s.")
            % {
                "title": isolated_text(entry.assignment.exercise.title),
                "date": calendar_day(entry.submitted_at, "j M") if entry.submitted_at else "—",
            }
            for entry, _previous in latest_per_assignment(entries)
        ]


KIND = SafetyPlan()
