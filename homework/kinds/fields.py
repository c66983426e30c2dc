"""Form fields shared by the kinds, so every scale, choice and text box behaves, and is limited, the
same way everywhere."""

import datetime as dt
from collections.abc import Mapping, Sequence
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
from practice.text_limits import count_pattern_lazy, too_long_pattern_lazy

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise as Text

    from homework.kinds.rows import RowSpec

EARLIEST_YEAR = 1900
LATEST_YEAR = 2100
MAX_CHOICES = 50


class KindForm(PortalFormMessages, forms.Form):
    """Repeatable rows (``row_specs``) are posted as ``r-<key>-<index>-<field>`` and returned as a
    list of objects under ``<key>``."""

    row_specs: ClassVar[dict[str, "RowSpec"]] = {}
    # A row from an older page holding only these values is still an empty row, not a step to
    # refuse.
    old_page_defaults: ClassVar[dict[str, str]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from homework.kinds.rows import RowSet  # import late: rows builds KindForms

        super().__init__(*args, **kwargs)
        self.wordings_shown: list[dict[str, Any]] = []
        self.row_sets: dict[str, RowSet] = {
            name: RowSet(name=name, spec=spec, parent=self) for name, spec in self.row_specs.items()
        }

    def full_clean(self) -> None:
        super().full_clean()
        if not self.is_bound or not hasattr(self, "cleaned_data"):
            return
        for name, rows in self.row_sets.items():
            if rows.is_valid():
                self.cleaned_data[name] = rows.cleaned_rows()
            else:
                # Keyed by the row set so the page says some answers need another look.
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
        """Raise ValidationError keyed by a field or a row set's name."""
        return cleaned

    def response_errors(self) -> dict[str, list[str]]:
        """Row fields are named as posted (``steps-2-feeling``), so the API and the page speak of
        the same thing."""
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
        if key == NON_FIELD_ERRORS:
            return bool(self.non_field_errors())
        if key in self.fields or key in self.row_sets:
            return True
        return any(rows.owns_key(key) for rows in self.row_sets.values())


class OptionsForm(forms.Form):
    """A kind's options as ordinary fields in the admin; the kind's ``clean_options`` still decides
    what is valid."""

    @classmethod
    def initial_from(cls, options: Any) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def options_from(cls, cleaned: Mapping[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def field_for(cls, key: str, cleaned: Mapping[str, Any]) -> str | None:
        """Which field shows a problem ``clean_options`` named by ``key``; None: the whole form."""
        return key if key in cls.base_fields else None


class ScaleWidget(forms.Select):
    """A slider always has some position, so nothing but "no answer" is sent until the client moves
    it; it works without script."""

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
        # Without the end words a screen reader never hears whether 10 is good or bad.
        widget_attrs = context["widget"]["attrs"]
        if widget_attrs.get("id") and (self.low_label or self.high_label):
            ends = [f"{widget_attrs['id']}_low", f"{widget_attrs['id']}_high"]
            described = str(widget_attrs.get("aria-describedby", "")).split()
            widget_attrs["aria-describedby"] = " ".join([*described, *ends])
        return context


class TextField(forms.CharField):
    """No ``maxlength``: a browser silently cuts a long paste, so the server holds the limit and
    says so."""

    def __init__(self, *, marked_needed: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.marked_needed = marked_needed

    def to_python(self, value: Any) -> str | None:
        # Held to its limit as the page counts it (practice.text_limits.typed_length).
        text = super().to_python(value)
        return text.replace("\r\n", "\n") if isinstance(text, str) else text

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        attrs = super().widget_attrs(widget)
        attrs.pop("maxlength", None)
        if self.max_length is not None:
            # The page counts as it is typed, in the server's words (static/js/limits.js).
            attrs["data-limit"] = str(self.max_length)
            attrs["data-limit-count"] = count_pattern_lazy(self.max_length)
            attrs["data-limit-over"] = too_long_pattern_lazy(self.max_length)
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
    """``wraps``: a box that wraps and grows, so a sentence is not cut off on a phone."""
    return TextField(
        label=label,
        required=required,
        max_length=max_length or settings.SHORT_TEXT_MAX_CHARS,
        help_text=help_text,
        widget=forms.Textarea(attrs={"rows": 2, "class": "wraps"}) if wraps else None,
    )


class ScaleField(forms.IntegerField):
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
    # No initial: an untouched scale is unanswered, so nothing is stored for it.
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
    """Nothing is chosen in advance: a preselected answer would be sent as the client's
    (CLINICAL.md, Honesty)."""
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
    return forms.BooleanField(label=label, required=False, help_text=help_text)


class DateWithinReasonField(forms.DateField):
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


_STORED_TIME = forms.DateTimeField()


def stored_datetime(value: Any) -> dt.datetime | None:
    """None if there is no time or it cannot be read."""
    if isinstance(value, str):
        # Read directly, without the field's checks, as this runs for every stored time read.
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
    """A time shown twice as the clocks go back is the first of the two; a skipped time is refused
    with a message saying so."""

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
        # A datetime-local input cannot show an offset, so a stored time is shown in the client's
        # own time zone.
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
