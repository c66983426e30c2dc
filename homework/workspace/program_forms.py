"""The step editor's forms: the program's own fields, and one form per step, in order.

The forms check only what a form can (a choice offered, a whole number); the rules of a step are
the service's (homework.services.programs), which names the step that breaks one."""

from collections.abc import Sequence
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from homework.kinds import get_kind
from homework.models import Exercise, Program, Release
from homework.services.programs import ProgramDetails, StepData

# More rows than any program needs: a posted count past it is not a person's editing.
MAX_STEPS = 60
STEPS_PREFIX = "steps"
STEP_FIELDS = ("exercise", "instructions", "release", "days", "required")


class ProgramForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Program
        fields = ("title", "language", "description", "is_active")

    def details(self) -> ProgramDetails:
        return ProgramDetails(**{name: self.cleaned_data[name] for name in self.Meta.fields})


class StepForm(forms.Form):
    exercise = forms.TypedChoiceField(label=_("Exercise"), coerce=int)
    instructions = forms.CharField(
        label=_("Instructions for this step"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Optional. Shown to the client above the exercise's own instructions."),
    )
    release = forms.ChoiceField(
        label=_("Comes"),
        choices=[
            (Release.RIGHT_AWAY, _("Right away")),
            (Release.AFTER_PREVIOUS, _("When the previous step is done")),
            (Release.AFTER_PREVIOUS_DAYS, _("N days after the previous step is done")),
            (Release.ON_DAY, _("On day N of the program")),
        ],
    )
    days = forms.IntegerField(
        label=_("N (days)"),
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "vSmallField"}),
        help_text=_("Only for “N days after” and “on day N”."),
    )
    required = forms.BooleanField(label=_("Required (the next step waits for it)"), required=False)

    def __init__(self, *args: Any, exercises: Sequence[Exercise] = (), **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        field = self.fields["exercise"]
        assert isinstance(field, forms.TypedChoiceField)
        # One list for every row: the library is read once, however many steps there are.
        field.choices = [("", _("Choose an exercise")), *exercise_choices(exercises)]


def exercise_choices(exercises: Sequence[Exercise]) -> list[tuple[int, str]]:
    return [
        (exercise.pk, f"{exercise.title} · {get_kind(exercise.kind).label}")
        for exercise in exercises
    ]


StepFormSet = forms.formset_factory(
    StepForm, extra=0, max_num=MAX_STEPS, absolute_max=MAX_STEPS, validate_max=True
)


def steps_formset(
    exercises: Sequence[Exercise],
    *,
    data: QueryDict | None = None,
    initial: list[dict[str, Any]] | None = None,
) -> Any:
    """The rows as posted (``data``), or to show (``initial``), offering ``exercises``."""
    return StepFormSet(
        data, initial=initial, prefix=STEPS_PREFIX, form_kwargs={"exercises": exercises}
    )


def step_data(formset: Any, exercises: Sequence[Exercise]) -> list[StepData]:
    """The valid formset's rows as the service takes them, in the order shown."""
    by_id = {exercise.pk: exercise for exercise in exercises}
    return [
        StepData(
            exercise=by_id[form.cleaned_data["exercise"]],
            release=form.cleaned_data["release"],
            days=form.cleaned_data["days"],
            required=form.cleaned_data["required"],
            instructions=form.cleaned_data["instructions"],
        )
        for form in formset.forms
    ]


def posted_rows(data: QueryDict, prefix: str) -> list[dict[str, Any]]:
    """The rows as typed, to show again rearranged without saving anything."""
    try:
        count = min(int(data.get(f"{prefix}-TOTAL_FORMS", "0")), MAX_STEPS)
    except ValueError:
        count = 0
    rows = []
    for index in range(max(count, 0)):
        row: dict[str, Any] = {
            name: data.get(f"{prefix}-{index}-{name}", "") for name in STEP_FIELDS
        }
        row["required"] = bool(row["required"])
        rows.append(row)
    return rows


def rearranged(rows: list[dict[str, Any]], data: QueryDict) -> list[dict[str, Any]] | None:
    """The rows after the row button pressed (move up, move down, remove) or "Add a step"; None
    when no such button was pressed."""
    if "add-step" in data:
        return [*rows, blank_step()]
    for action in ("move-up", "move-down", "remove"):
        if action not in data:
            continue
        try:
            index = int(data.get(action, ""))
        except ValueError:
            return rows
        if not 0 <= index < len(rows):
            return rows
        if action == "remove":
            return rows[:index] + rows[index + 1 :]
        other = index - 1 if action == "move-up" else index + 1
        if 0 <= other < len(rows):
            rows[index], rows[other] = rows[other], rows[index]
        return rows
    return None


def blank_step() -> dict[str, Any]:
    return {
        "exercise": "",
        "instructions": "",
        "release": Release.AFTER_PREVIOUS,
        "days": "",
        "required": False,
    }
