"""A session's day and time, typed on the client's clock."""

import datetime as dt
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from practice.dates import as_zone, wall_time


class SessionForm(forms.Form):
    """When a session starts, read in ``zone`` (the client's time zone)."""

    day = forms.DateField(
        label=_("Date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={
            "required": _("Enter the day of the session."),
            "invalid": _("Enter a date, like 14/03/2027."),
        },
    )
    time = forms.TimeField(
        label=_("Time"),
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        error_messages={
            "required": _("Enter the time the session starts."),
            "invalid": _("Enter a time, like 10:30."),
        },
    )

    def __init__(self, *args: Any, zone: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.zone = zone

    @classmethod
    def of(cls, starts_at: dt.datetime, *, zone: str) -> "SessionForm":
        """A session's form, filled with its time on the client's clock."""
        local = starts_at.astimezone(as_zone(zone))
        return cls(initial={"day": local.date(), "time": local.time()}, zone=zone)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        day, time = cleaned.get("day"), cleaned.get("time")
        if day is not None and time is not None:
            starts_at = wall_time(dt.datetime.combine(day, time), self.zone)
            if starts_at is None:
                raise ValidationError(
                    {
                        "time": _(
                            "The clocks go forward that night, so %(time)s does not happen. "
                            "Please choose a time before or after it."
                        )
                        % {"time": time.strftime("%H:%M")}
                    }
                )
            cleaned["starts_at"] = starts_at
        return cleaned
