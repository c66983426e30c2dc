"""The choice of what goes into the client's PDF download."""

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from clients.forms import PortalForm
from homework.models import Assignment
from practice.bidi import isolated_text
from practice.dates import calendar_day

if TYPE_CHECKING:
    from django.http import QueryDict


class ExportChoiceForm(PortalForm):
    include = forms.TypedMultipleChoiceField(
        label=_("What to put in the PDF"),
        help_text=_(
            "Untick any you would rather leave out, for instance before you give it to someone."
        ),
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "required": _("Choose at least one exercise to put in the PDF."),
            "invalid_choice": _(
                "One of the chosen exercises is not in your notebook. Choose again from the list."
            ),
        },
    )

    # Sent with the choice even when every box is unticked, which sends no "include" at all.
    MARKER = "chosen"
    # From about this many sent entries the PDF is prepared in the background, not in the request.
    LONG_NOTEBOOK = 100

    def __init__(self, *args: Any, assignments: Iterable[Assignment], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        assignments = list(assignments)
        field = self.fields["include"]
        assert isinstance(field, forms.TypedMultipleChoiceField)  # for the type checker
        field.choices = [(assignment.pk, _choice_label(assignment)) for assignment in assignments]
        field.initial = [assignment.pk for assignment in assignments]
        self.offered = {assignment.pk for assignment in assignments}
        self.sent_by_id: dict[int, int] = {
            assignment.pk: assignment.sent_count  # type: ignore[attr-defined]
            for assignment in assignments
        }
        self.takes_a_while = sum(self.sent_by_id.values()) >= self.LONG_NOTEBOOK

    @classmethod
    def is_submitted(cls, data: "QueryDict") -> bool:
        return cls.MARKER in data or "include" in data

    def chosen_ids(self) -> list[int] | None:
        """None when every one offered is ticked, so the PDF says everything."""
        chosen: list[int] = self.cleaned_data["include"]
        return None if self.offered <= set(chosen) else chosen

    def choice_takes_a_while(self) -> bool:
        chosen = self.chosen_ids() if self.is_bound else None
        if chosen is None:
            return self.takes_a_while
        return sum(self.sent_by_id.get(pk, 0) for pk in chosen) >= self.LONG_NOTEBOOK


def _choice_label(assignment: Assignment) -> str:
    first, last = (
        calendar_day(moment, "ABBR_MONTH_DAY_FORMAT")
        for moment in (assignment.first_sent_at, assignment.last_sent_at)  # type: ignore[attr-defined]
    )
    count: int = assignment.sent_count  # type: ignore[attr-defined]
    return ngettext(
        "%(title)s (%(count)s sent, %(span)s)", "%(title)s (%(count)s sent, %(span)s)", count
    ) % {
        "title": isolated_text(assignment.exercise.title),
        "count": count,
        "span": first if first == last else f"{first} – {last}",
    }
