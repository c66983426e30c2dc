"""Form fields shared by the kinds, so every 0–10 scale and every text box
behaves (and is limited) the same way everywhere."""

import datetime as dt
from typing import TYPE_CHECKING, Any

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.forms import BoundField, Widget
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

if TYPE_CHECKING:
    # Labels are usually lazy translations.
    from django_stubs_ext import StrOrPromise as Text

EARLIEST_YEAR = 1900


class AccessibleBoundField(BoundField):
    """Ties a field's error message to its input, so a screen reader reads it."""

    def build_widget_attrs(
        self, attrs: dict[str, Any], widget: Widget | None = None
    ) -> dict[str, Any]:
        attrs = super().build_widget_attrs(attrs, widget)
        if self.errors and self.auto_id:
            described = attrs.get("aria-describedby", "")
            attrs["aria-describedby"] = f"{self.auto_id}_error {described}".strip()
        return attrs


class KindForm(forms.Form):
    """Base for every kind's portal form."""

    bound_field_class = AccessibleBoundField


class ScaleWidget(forms.NumberInput):
    """A 0–10 slider that shows its number and is announced by screen readers."""

    input_type = "range"
    template_name = "homework/widgets/scale.html"

    def __init__(self, low_label: "Text" = "", high_label: "Text" = "") -> None:
        super().__init__(attrs={"min": 0, "max": 10, "step": 1})
        self.low_label = low_label
        self.high_label = high_label

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value if value not in (None, "") else 5, attrs)
        context["widget"].update(low_label=self.low_label, high_label=self.high_label)
        return context


def long_text(label: "Text", *, required: bool = False, help_text: "Text" = "") -> forms.CharField:
    return forms.CharField(
        label=label,
        required=required,
        max_length=settings.LONG_TEXT_MAX_CHARS,
        help_text=help_text,
        widget=forms.Textarea(attrs={"rows": 4}),
    )


def short_text(label: "Text", *, required: bool = False, help_text: "Text" = "") -> forms.CharField:
    return forms.CharField(
        label=label,
        required=required,
        max_length=settings.SHORT_TEXT_MAX_CHARS,
        help_text=help_text,
    )


def scale(
    label: "Text", *, low: "Text" = "", high: "Text" = "", required: bool = True
) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        required=required,
        min_value=0,
        max_value=10,
        widget=ScaleWidget(low_label=low, high_label=high),
    )


class PastDateTimeField(forms.DateTimeField):
    """When something happened: not in the future, not before 1900.

    Naive input is read in the current time zone, which the caller sets to
    the client's own.
    """

    widget = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
    default_error_messages = {
        "future": gettext_lazy("That is in the future. When did it happen?"),
        "too_early": gettext_lazy("Please check the year."),
    }

    def validate(self, value: dt.datetime | None) -> None:
        super().validate(value)
        if value is None:
            return
        if value.year < EARLIEST_YEAR:
            raise ValidationError(self.error_messages["too_early"], code="too_early")
        # A few minutes' grace for a device clock that runs fast.
        if value > timezone.now() + dt.timedelta(minutes=10):
            raise ValidationError(self.error_messages["future"], code="future")


def when(label: "Text") -> PastDateTimeField:
    return PastDateTimeField(label=label, required=True, help_text=_("Your best guess is fine."))
