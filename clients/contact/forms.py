"""The contact profile's form, the same on both sides: the client fills it in the portal, the
therapist with the client in session. It validates and hands the service plain values."""

import datetime as dt
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from phonenumber_field.formfields import PhoneNumberField

from clients.contact import hours
from clients.contact.models import ContactProfile
from clients.forms import PortalForm
from clients.time_zones import TimeZoneField, TimeZoneInput

DAYS = (
    ("mon", _("Monday")),
    ("tue", _("Tuesday")),
    ("wed", _("Wednesday")),
    ("thu", _("Thursday")),
    ("fri", _("Friday")),
    ("sat", _("Saturday")),
    ("sun", _("Sunday")),
)
# The two rows most weeks need (each sets its days alike), before "one by one".
ROWS = (
    ("weekdays", _("Monday to Friday"), ("mon", "tue", "wed", "thu", "fri")),
    ("weekend", _("Saturday and Sunday"), ("sat", "sun")),
)
ANY, BETWEEN, NEVER = "any", "between", "never"
WHEN = (
    (ANY, _("Any time")),
    (BETWEEN, _("Between these times")),
    (NEVER, _("Not on this day")),
)
TIME_WORDS = {
    "invalid": _("Type a time of day, like 09:30."),
    "required": _("Type a time of day, like 09:30."),
}


def _time_field(label: Any, *, required: bool = False) -> forms.TimeField:
    return forms.TimeField(
        label=label,
        required=required,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        error_messages=TIME_WORDS,
    )


class ContactProfileForm(PortalForm):
    email_is_safe = forms.BooleanField(label=_("Email is safe"), required=False)
    email = forms.EmailField(
        label=_("Email address for reminders"),
        required=False,
        max_length=254,
        help_text=_("One only you read. It can differ from the one you sign in with."),
        widget=forms.EmailInput(attrs={"autocomplete": "off"}),
    )
    text_is_safe = forms.BooleanField(label=_("Text messages are safe"), required=False)
    phone = PhoneNumberField(
        label=_("Mobile number for text messages"),
        required=False,
        max_length=40,
        help_text=_("A number only you use. From another country, start with + and its code."),
        error_messages={
            "invalid": _(
                "This does not look like a whole mobile number. Type it with its area code, "
                "like 07911 123456, or with + and the country code."
            )
        },
        widget=forms.TextInput(attrs={"autocomplete": "off", "inputmode": "tel"}),
    )
    days_between = forms.TypedChoiceField(
        label=_("How often, at most"),
        choices=ContactProfile.Spacing.choices,
        coerce=int,
        widget=forms.RadioSelect,
    )
    recurring_reminder_at = _time_field(_("Time for the day's reminder"), required=True)
    time_zone = TimeZoneField(label=_("Your time zone"), widget=TimeZoneInput())

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["recurring_reminder_at"].help_text = _(
            "For things to do each day. Outside your safe times, it waits for the next one."
        )
        self.fields["time_zone"].help_text = _(
            "Your city, such as London or New York: the times on this page are on its clock."
        )
        self.fields["time_zone"].error_messages["required"] = _(
            "Type the city you live in, such as London."
        )
        for row, name, _days in ROWS:
            self._add_row(row, name)
        self.fields["one_by_one"] = forms.BooleanField(
            label=_("Set the days one by one instead"), required=False
        )
        for day, name in DAYS:
            self._add_row(day, name)

    def _add_row(self, row: str, name: Any) -> None:
        # No choice made for the client: a row stays blank until they choose.
        when = forms.ChoiceField(
            label=_("When"), choices=WHEN, widget=forms.RadioSelect, required=False
        )
        when.short_label = name  # type: ignore[attr-defined]
        start, end = _time_field(_("From")), _time_field(_("Until"))
        start.short_label = _("%(day)s, from") % {"day": name}  # type: ignore[attr-defined]
        end.short_label = _("%(day)s, until") % {"day": name}  # type: ignore[attr-defined]
        self.fields[f"{row}_when"] = when
        self.fields[f"{row}_from"] = start
        self.fields[f"{row}_until"] = end

    @classmethod
    def initial_from(cls, profile: ContactProfile) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "email_is_safe": profile.email_is_safe,
            "email": profile.email,
            "text_is_safe": profile.text_is_safe,
            "phone": profile.phone,
            "days_between": profile.days_between,
            "recurring_reminder_at": profile.recurring_reminder_at,
            "time_zone": profile.client.timezone,
        }
        if not profile.hours_chosen:
            return initial
        week = dict(
            zip((day for day, _name in DAYS), hours.read_week(profile.safe_hours), strict=False)
        )
        for day, windows in week.items():
            initial.update(_row_initial(day, windows))
        # Days alike within each row show as the two rows; any other week, one by one.
        alike = all(len({str(week[day]) for day in days}) == 1 for _row, _name, days in ROWS)
        initial["one_by_one"] = not alike
        if alike:
            for row, _name, days in ROWS:
                initial.update(_row_initial(row, week[days[0]]))
        return initial

    def rows(self) -> list[dict[str, Any]]:
        """The weekdays' row and the weekend's, each for its own fieldset."""
        return [self._row(row, name) for row, name, _days in ROWS]

    def days(self) -> list[dict[str, Any]]:
        """Each weekday's fields, for its own fieldset on the page."""
        return [self._row(day, name) for day, name in DAYS]

    def _row(self, row: str, name: Any) -> dict[str, Any]:
        return {
            "name": name,
            "when": self[f"{row}_when"],
            "start": self[f"{row}_from"],
            "end": self[f"{row}_until"],
        }

    def _window(self, day: str, cleaned: dict[str, Any]) -> list[tuple[int, int]]:
        when = cleaned.get(f"{day}_when")
        if when == ANY:
            return [(0, hours.END_OF_DAY)]
        if when != BETWEEN:
            return []
        start, end = cleaned.get(f"{day}_from"), cleaned.get(f"{day}_until")
        if f"{day}_from" in self.errors or f"{day}_until" in self.errors:
            return []
        if start is None:
            self.add_error(f"{day}_from", _("Type when safe time starts on this day."))
        if end is None:
            self.add_error(f"{day}_until", _("Type when safe time ends on this day."))
        if start is None or end is None:
            return []
        first = start.hour * 60 + start.minute
        # "Until 00:00" is until midnight, the end of the day.
        last = end.hour * 60 + end.minute or hours.END_OF_DAY
        if first == last:
            self.add_error(
                f"{day}_until", _("From and until are the same time, which leaves no time.")
            )
            return []
        if first > last:
            self.add_error(
                f"{day}_until",
                _(
                    "This ends before it starts. To go past midnight, choose until 00:00 "
                    "here and from 00:00 on the next day."
                ),
            )
            return []
        return [(first, last)]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        cleaned["safe_hours"] = self._clean_week(cleaned)
        if cleaned.get("email_is_safe") and not cleaned.get("email") and "email" not in self.errors:
            self.add_error("email", _("Type the address to use, or untick email."))
        if cleaned.get("text_is_safe") and not cleaned.get("phone") and "phone" not in self.errors:
            self.add_error("phone", _("Type the number to use, or untick text messages."))
        return cleaned

    def _clean_week(self, cleaned: dict[str, Any]) -> list[list[list[str]]]:
        """The week's hours, from the two rows or, if the client chose, day by day."""
        one_by_one = bool(cleaned.get("one_by_one"))
        rows = list(DAYS) if one_by_one else [(row, name) for row, name, _days in ROWS]
        unread = [(row, name) for row, name, _days in ROWS] if one_by_one else list(DAYS)
        for row, _name in unread:
            for part in ("when", "from", "until"):
                self.errors.pop(f"{row}_{part}", None)
        blank = [(row, name) for row, name in rows if not cleaned.get(f"{row}_when")]
        channel_on = cleaned.get("email_is_safe") or cleaned.get("text_is_safe")
        if len(blank) == len(rows) and not channel_on:
            return hours.no_hours_chosen()
        for row, name in blank:
            if f"{row}_when" not in self.errors:
                self.add_error(
                    f"{row}_when",
                    _("Choose when a message may reach you on %(day)s.") % {"day": name},
                )
        windows = {row: self._window(row, cleaned) for row, _name in rows}
        if one_by_one:
            week = [windows[day] for day, _name in DAYS]
        else:
            week = [windows[row] for row, _name, days in ROWS for _day in days]
        if not self.errors and not any(week):
            self.add_error(None, hours.NO_TIME_AT_ALL)
        return hours.write_week(week)

    def for_service(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "email_is_safe": data["email_is_safe"],
            "email": data["email"],
            "text_is_safe": data["text_is_safe"],
            "phone": data["phone"],
            "safe_hours": data["safe_hours"],
            "days_between": data["days_between"],
            "recurring_reminder_at": data["recurring_reminder_at"],
            "time_zone": data["time_zone"],
        }

    def take_refusal(self, refused: ValidationError) -> None:
        """The service's refusal, on the fields it names (or above the form)."""
        if not hasattr(refused, "error_dict"):
            self.add_error(None, refused)
            return
        for name, errors in refused.error_dict.items():
            self.add_error(name if name in self.fields else None, errors)


def _row_initial(row: str, windows: list[tuple[int, int]]) -> dict[str, Any]:
    if windows == [(0, hours.END_OF_DAY)]:
        return {f"{row}_when": ANY}
    if not windows:
        return {f"{row}_when": NEVER}
    start, end = windows[0]  # the form sets one window a row; the first stands for it
    return {
        f"{row}_when": BETWEEN,
        f"{row}_from": hours.time_of(start),
        f"{row}_until": hours.time_of(end) or dt.time(0, 0),
    }
