"""Form fields shared by the kinds, so every 0–10 scale, choice and text box
behaves (and is limited) the same way everywhere."""

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from practice.dates import read_on_clock_change
from practice.form_messages import SCALE_NEEDED, PortalFormMessages

if TYPE_CHECKING:
    # Labels are usually lazy translations.
    from django_stubs_ext import StrOrPromise as Text

    from homework.kinds.rows import RowSpec

EARLIEST_YEAR = 1900
LATEST_YEAR = 2100
# A multiple-choice answer can hold at most this many picks (JSON may send more).
MAX_CHOICES = 50


class KindForm(PortalFormMessages, forms.Form):
    """Base for every kind's portal form.

    Besides its own fields a form may hold repeatable rows (``row_specs``:
    response key → RowSpec), posted as ``r-<key>-<index>-<field>`` and
    returned as a list of objects under ``<key>``.
    """

    row_specs: ClassVar[dict[str, "RowSpec"]] = {}
    # Answers pages served before no answer was chosen in advance posted in
    # every row, touched or not (field → value): a row from such a page that
    # holds only these is still an empty row, not a step to be refused.
    old_page_defaults: ClassVar[dict[str, str]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from homework.kinds.rows import RowSet  # rows builds KindForms: import late

        super().__init__(*args, **kwargs)
        # A kind whose questions can be reworded lists here, per question,
        # what its page says it shows (homework.kinds.base.Shown).
        self.wordings_shown: list[dict[str, Any]] = []
        self.row_sets: dict[str, RowSet] = {
            name: RowSet(name=name, spec=spec, parent=self) for name, spec in self.row_specs.items()
        }

    def full_clean(self) -> None:
        super().full_clean()  # in the portal's words (PortalFormMessages)
        if not self.is_bound or not hasattr(self, "cleaned_data"):
            return
        for name, rows in self.row_sets.items():
            if rows.is_valid():
                self.cleaned_data[name] = rows.cleaned_rows()
            else:
                # Keyed by the row set, so `form.errors` is not empty and the
                # page says "some answers need another look"; each row shows its own.
                self.errors[name] = self.error_class(
                    rows.set_errors or [_("Some of these need another look.")]
                )
        if self.errors:
            return
        try:
            self.cleaned_data = self.clean_rows(self.cleaned_data)
        except ValidationError as error:
            by_name = (
                error.message_dict
                if hasattr(error, "error_dict")
                else {NON_FIELD_ERRORS: error.messages}
            )
            for name, messages in by_name.items():
                if name in self.row_sets:
                    self.row_sets[name].set_errors.extend(messages)
                    self.errors[name] = self.error_class(messages)
                else:
                    self.add_error(
                        None if name == NON_FIELD_ERRORS else name, ValidationError(messages)
                    )

    def has_changed(self) -> bool:
        old_defaults = {
            name
            for name, value in self.old_page_defaults.items()
            if self.data.get(self.add_prefix(name)) == value
        }
        return bool(set(self.changed_data) - old_defaults)

    def clean_rows(self, cleaned: dict[str, Any]) -> dict[str, Any]:
        """Rules across the whole response, rows included.

        Raise ValidationError keyed by a field or a row set's name.
        """
        return cleaned

    def response_errors(self) -> dict[str, list[str]]:
        """Every error, keyed by the response key it belongs to.

        Row fields are named as they are posted (``steps-2-feeling``), so the
        API and the page speak of the same thing.
        """
        errors: dict[str, list[str]] = {}
        for name, messages in self.errors.items():
            if name in self.row_sets:
                rows = self.row_sets[name]
                if rows.set_errors:
                    errors[name] = [str(m) for m in rows.set_errors]
                errors.update(rows.row_errors())
            else:
                errors[name] = [str(m) for m in messages]
        return errors

    def owns_key(self, key: str) -> bool:
        """Whether an error under ``key`` is already shown by this (validated) form."""
        if key == NON_FIELD_ERRORS:
            return bool(self.non_field_errors())
        if key in self.fields or key in self.row_sets:
            return True
        return any(rows.owns_key(key) for rows in self.row_sets.values())


class ScaleWidget(forms.Select):
    """A 0–10 scale with a real "not answered yet" state.

    The server renders a plain list of numbers whose first choice is "not
    answered yet", so the page works without script and nothing but "no
    answer" is sent until the client chooses. static/js/scale.js turns it
    into a slider and keeps the list (hidden, still sent) in step with it: a
    slider always has *some* position, so its number must not be the answer
    until the client has moved it.
    """

    template_name = "homework/widgets/scale.html"

    def __init__(self, low_label: "Text" = "", high_label: "Text" = "") -> None:
        super().__init__(
            choices=[("", gettext_lazy("Not answered yet"))] + [(n, str(n)) for n in range(11)]
        )
        self.low_label = low_label
        self.high_label = high_label

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        context["widget"].update(low_label=self.low_label, high_label=self.high_label)
        # The words at the two ends are shown beside the scale, not in its
        # label: without them a screen reader hears "6 out of 10" and never
        # whether 10 is "clear" or "foggy". They become its description, after
        # the error and the help (scale.js hands it on to the slider).
        widget_attrs = context["widget"]["attrs"]
        if widget_attrs.get("id") and (self.low_label or self.high_label):
            ends = [f"{widget_attrs['id']}_low", f"{widget_attrs['id']}_high"]
            described = str(widget_attrs.get("aria-describedby", "")).split()
            widget_attrs["aria-describedby"] = " ".join([*described, *ends])
        return context


class TextField(forms.CharField):
    """A text answer whose limit the server holds, not the browser.

    Django gives the box a ``maxlength``, and a browser then cuts a paste
    that runs past it without a word: the client's last lines vanish and
    the page says "Saved". Without it, everything pasted stays in the box
    and the save's answer says how long it is and how long it may be.

    ``marked_needed=False``: a required box whose label does not say
    "(needed)" (homework.templatetags.form_fields), for a form that is that
    one box: its purpose says it, and sending it empty says the rest.
    """

    def __init__(self, *, marked_needed: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.marked_needed = marked_needed

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        attrs = super().widget_attrs(widget)
        attrs.pop("maxlength", None)
        return attrs


def long_text(label: "Text", *, required: bool = False, help_text: "Text" = "") -> forms.CharField:
    return TextField(
        label=label,
        required=required,
        max_length=settings.LONG_TEXT_MAX_CHARS,
        help_text=help_text,
        widget=forms.Textarea(attrs={"rows": 4}),
    )


def short_text(
    label: "Text",
    *,
    required: bool = False,
    help_text: "Text" = "",
    max_length: int | None = None,
    wraps: bool = False,
) -> forms.CharField:
    """A short answer. ``wraps``: a sentence rather than a word or a name,
    in a box of two lines that wraps and grows with it (portal.css), where
    a one-line box would cut it off at the edge of a phone's screen."""
    return TextField(
        label=label,
        required=required,
        max_length=max_length or settings.SHORT_TEXT_MAX_CHARS,
        help_text=help_text,
        widget=forms.Textarea(attrs={"rows": 2, "class": "wraps"}) if wraps else None,
    )


class ScaleField(forms.IntegerField):
    """A 0–10 answer. ``short_label`` is its question without the legend
    that says what 0 and 10 mean: the field shows the legend; a line that
    names the field (the error summary) reads better without it."""

    def __init__(self, *, short_label: "Text", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.short_label = short_label


def scale(
    label: "Text",
    *,
    legend: "Text" = "",
    low: "Text" = "",
    high: "Text" = "",
    required: bool = True,
    help_text: "Text" = "",
) -> ScaleField:
    """``label``: the question alone; ``legend``: what 0 and 10 mean, said
    after it on the field ("(0 = calm, 10 = the most distress)")."""
    # No `initial`: an untouched scale is unanswered, so an untouched row of
    # sliders counts as empty (see rows.RowSet) and nothing is stored for it.
    return ScaleField(
        label=format_lazy("{} {}", label, legend) if legend else label,
        short_label=label,
        required=required,
        min_value=0,
        max_value=10,
        help_text=help_text,
        widget=ScaleWidget(low_label=low, high_label=high),
        error_messages={
            "required": SCALE_NEEDED,
            "invalid": gettext_lazy("Choose a number from 0 to 10."),
            "min_value": gettext_lazy("Choose a number from 0 to 10."),
            "max_value": gettext_lazy("Choose a number from 0 to 10."),
        },
    )


def choice(
    label: "Text",
    choices: Sequence[tuple[str, "Text"]],
    *,
    required: bool = True,
    help_text: "Text" = "",
) -> forms.ChoiceField:
    """One of a few answers, as radio buttons (easy to tap on a phone).

    None is chosen until the client chooses: an answer ticked in advance
    would be sent as theirs (CLINICAL.md, Honesty), so this takes no initial.
    """
    return forms.ChoiceField(
        label=label,
        choices=list(choices),
        required=required,
        help_text=help_text,
        widget=forms.RadioSelect,
    )


def multiple_choice(
    label: "Text", choices: Sequence[tuple[str, "Text"]], *, required: bool = False
) -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        label=label,
        choices=list(choices),
        required=required,
        widget=forms.CheckboxSelectMultiple,
    )


def flag(label: "Text", *, help_text: "Text" = "") -> forms.BooleanField:
    """A tick box: ticked or not, never required."""
    return forms.BooleanField(label=label, required=False, help_text=help_text)


class DateWithinReasonField(forms.DateField):
    """A calendar date between 1900 and 2100; optionally not in the future."""

    widget = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    default_error_messages = {
        "future": gettext_lazy("That date is in the future."),
        "too_early": gettext_lazy("Please check the year."),
    }

    def __init__(self, *, not_future: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.not_future = not_future

    def validate(self, value: dt.date | None) -> None:
        super().validate(value)
        if value is None:
            return
        if not EARLIEST_YEAR <= value.year <= LATEST_YEAR:
            raise ValidationError(self.error_messages["too_early"], code="too_early")
        if self.not_future and value > timezone.localdate() + dt.timedelta(days=1):
            raise ValidationError(self.error_messages["future"], code="future")


def date(
    label: "Text", *, required: bool = False, not_future: bool = False, help_text: "Text" = ""
) -> DateWithinReasonField:
    return DateWithinReasonField(
        label=label, required=required, not_future=not_future, help_text=help_text
    )


# Reading a stored time needs no per-call state: one field does for all.
_STORED_TIME = forms.DateTimeField()


def stored_datetime(value: Any) -> dt.datetime | None:
    """A time as a response stores it (ISO 8601 text) as a datetime, or None
    if there is none or it cannot be read."""
    if isinstance(value, str):
        # What a response stores (to_json): read directly, as the field
        # would read it, without its checks per call (a year of urges, each
        # read for the curve, the timeline and the summary's lines).
        try:
            stored = dt.datetime.fromisoformat(value.strip())
        except ValueError:
            stored = None
        if stored is not None and timezone.is_aware(stored):
            return stored
    try:
        parsed = _STORED_TIME.to_python(value)
    except ValidationError:
        return None
    return parsed if isinstance(parsed, dt.datetime) else None


class PastDateTimeField(forms.DateTimeField):
    """When something happened: not in the future, not before 1900.

    Naive input is read in the current time zone, which the caller sets to
    the client's own. On the nights the clocks change, a time the clock
    showed twice (01:30 as they go back) is taken as the first of the two,
    which reads back as typed; a time the clocks skipped (01:30 as they go
    forward) never happened, and is refused with a message saying so.
    """

    widget = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
    default_error_messages = {
        "future": gettext_lazy("That is in the future. When did it happen?"),
        "too_early": gettext_lazy("Please check the year."),
        "skipped": gettext_lazy(
            "The clocks went forward that night, so %(time)s did not happen. "
            "Please choose a time before or after it."
        ),
    }

    def to_python(self, value: Any) -> dt.datetime | None:
        try:
            return super().to_python(value)
        except ValidationError as refusal:
            return read_on_clock_change(refusal, self.error_messages["skipped"])

    def prepare_value(self, value: Any) -> Any:
        # A sent response keeps its time as ISO 8601 text with an offset, which
        # a datetime-local input cannot show (it would stand empty, as if the
        # client had never said when): as a datetime, it shows in the
        # client's own time. Text that is no time at all is shown as typed.
        if isinstance(value, str):
            try:
                value = dt.datetime.fromisoformat(value)
            except ValueError:
                return value
        return super().prepare_value(value)

    def validate(self, value: dt.datetime | None) -> None:
        super().validate(value)
        if value is None:
            return
        if value.year < EARLIEST_YEAR:
            raise ValidationError(self.error_messages["too_early"], code="too_early")
        # A few minutes' grace for a device clock that runs fast.
        if value > timezone.now() + dt.timedelta(minutes=10):
            raise ValidationError(self.error_messages["future"], code="future")


def when(label: "Text", *, required: bool = True) -> PastDateTimeField:
    return PastDateTimeField(
        label=label, required=required, help_text=gettext_lazy("Your best guess is fine.")
    )
