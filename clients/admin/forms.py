"""The session row's date and time boxes, named for screen readers, on the practice's clock."""

import datetime as dt
from typing import Any

from django import forms
from django.contrib.admin.widgets import AdminDateWidget, AdminSplitDateTime, AdminTimeWidget
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clients.selectors import recent_and_upcoming
from practice.dates import read_on_clock_change


class SessionTimeInput(AdminTimeWidget):
    """The time as booked, 10:30 (the practice's formats read it so)."""

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, dt.time) and (value.second or value.microsecond):
            return value.strftime("%H:%M:%S")
        return super().format_value(value)


class SessionStartsWidget(AdminSplitDateTime):
    """The date and the time, each with its own name."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        # AdminSplitDateTime's own __init__, with our time box.
        forms.MultiWidget.__init__(
            self,
            [
                AdminDateWidget(attrs={"aria-label": _("Session date")}),
                SessionTimeInput(attrs={"aria-label": _("Session time")}),
            ],
            attrs,
        )


class SessionStartsField(forms.SplitDateTimeField):
    """When a session starts, on the practice's clock."""

    default_error_messages = {
        # Read whole by SplitDateTimeField itself (its date and time parts).
        **forms.SplitDateTimeField.default_error_messages,
        "skipped": _(
            "The clocks go forward that night, so %(time)s does not happen. "
            "Please choose a time before or after it."
        ),
        # Half filled in: Django's own "required" would sit under a date that is plainly there.
        "time_missing": _("Enter a time as well as a date."),
        "date_missing": _("Enter a date as well as a time."),
    }

    def clean(self, value: Any) -> Any:
        if isinstance(value, (list, tuple)) and len(value) == 2:
            no_date, no_time = (part in self.empty_values for part in value)
            if no_date != no_time:
                missing = "date_missing" if no_date else "time_missing"
                raise ValidationError(self.error_messages[missing], code=missing)
        return super().clean(value)

    def compress(self, data_list: tuple[dt.date, dt.time] | None) -> dt.datetime | None:
        try:
            return super().compress(data_list)
        except ValidationError as refusal:
            return read_on_clock_change(refusal, self.error_messages["skipped"])


class SessionInlineFormSet(forms.BaseInlineFormSet):  # type: ignore[type-arg]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The recent and coming ones only.
        if self.queryset is not None:  # always so for an inline: its client's sessions
            self.queryset = recent_and_upcoming(self.queryset, now=timezone.now())

    def add_fields(self, form: forms.Form, index: int | None) -> None:
        super().add_fields(form, index)
        # The delete box too sits under a column heading only.
        if "DELETE" in form.fields:
            form.fields["DELETE"].widget.attrs["aria-label"] = _("Delete this session")
