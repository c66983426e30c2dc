"""The safety plan, filled in with the therapist. The most sensitive record there is: lists and
summaries say only that a plan exists and when it last changed; its content shows only in the entry
itself or a full-detail summary."""

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from homework.kinds.base import BRIEF, ExerciseKind, JSONDict, SummaryScope
from homework.kinds.fields import KindForm, long_text, short_text
from homework.kinds.shelves import Shelf
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

# In the order a crisis needs them.
HELP_NOW_PARTS = (
    ("people_to_call", gettext_lazy("People you can call")),
    ("emergency_numbers", gettext_lazy("Your emergency numbers")),
    ("safe_places", gettext_lazy("Places you can go")),
    ("code_word", gettext_lazy("Your code word")),
    ("warning_signs", gettext_lazy("Signs that things are getting more dangerous")),
    ("documents_and_where", gettext_lazy("Your important documents")),
)
CALLABLE_PARTS = {"people_to_call", "emergency_numbers"}


def last_changed(entry: "Entry") -> dt.datetime | None:
    return entry.changed_at or entry.submitted_at


def current_of(entries: Sequence["Entry"], scope: SummaryScope) -> "Entry | None":
    if scope.current is not None or not entries:
        return scope.current
    return max(entries, key=lambda entry: (entry.submitted_at or entry.created_at, entry.pk))


class SafetyPlan(ExerciseKind):
    slug = "safety_plan"
    label = gettext_lazy("Safety plan")
    shelf = Shelf.SAFETY
    about = gettext_lazy("The client's own plan for a crisis, filled in with you.")
    schema_version = 1
    form_class = SafetyPlanForm
    again_label = gettext_lazy("Update my plan")
    continues_last_sent = True
    within_reach = True
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

    def help_now(self, entry: "Entry") -> JSONDict:
        """Line by line, so a number on one line is never run into the next."""
        response = self.response_of(entry)
        return {
            "parts": [
                {
                    "key": key,
                    "label": label,
                    "lines": [line for line in str(response[key]).splitlines() if line.strip()],
                    "callable": key in CALLABLE_PARTS,
                }
                for key, label in HELP_NOW_PARTS
                if str(response.get(key) or "").strip()
            ],
            "changed_at": last_changed(entry),
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
        """Its words only with full detail."""
        current = current_of(entries, scope)
        return {
            "current": current,
            "changed_at": last_changed(current) if current is not None else None,
            "parts": self.present(current)["parts"] if current and scope.full_detail else [],
            "full_detail": scope.full_detail,
            "printed": [current] if current is not None and scope.full_detail else [],
        }

    def at_a_glance(self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF) -> list[str]:
        current = current_of(entries, scope)
        if current is None:
            return [_("No safety plan has been shared.")]
        changed = last_changed(current)
        return [
            _("%(title)s: in place, last changed %(date)s.")
            % {
                "title": isolated_text(current.assignment.exercise.title),
                "date": calendar_day(changed, "ABBR_MONTH_DAY_FORMAT") if changed else "—",
            }
        ]


KIND = SafetyPlan()
