"""The portal's plain, warm words for the rules every form shares; the admin keeps Django's."""

from typing import Any

from django import forms
from django.forms import BoundField, Widget
from django.utils.translation import gettext_lazy

from practice.text_limits import TOO_LONG, grouped_count, too_long

SCALE_NEEDED = gettext_lazy("Choose a number from 0 to 10 — any number is fine.")
NULL_CHARACTER = gettext_lazy(
    "Part of this could not be saved (a hidden character came with what was pasted). "
    "Please type it again."
)
CHOOSE_FROM_THESE = gettext_lazy("Choose one of the answers here.")
RELOAD = gettext_lazy("This page is out of date. Please reload it and try again.")

__all__ = [
    "CHOOSE_FROM_THESE",
    "NULL_CHARACTER",
    "RELOAD",
    "SCALE_NEEDED",
    "TOO_LONG",
    "AccessibleBoundField",
    "PortalFormMessages",
    "grouped_count",
    "in_portal_voice",
    "too_long",
]


# The first class the field is an instance of speaks, so a subclass comes before its base.
_WHEN_MISSING: list[tuple[type[forms.Field], Any]] = [
    (forms.MultipleChoiceField, gettext_lazy("Choose at least one of these first.")),
    (forms.ChoiceField, gettext_lazy("Choose one of these first.")),
    (forms.DateTimeField, gettext_lazy("Add a date and time first. Your best guess is fine.")),
    (forms.DateField, gettext_lazy("Add a date first.")),
    (forms.IntegerField, SCALE_NEEDED),
    (forms.EmailField, gettext_lazy("Type your email address.")),
]
_WHEN_UNREADABLE: list[tuple[type[forms.Field], Any]] = [
    (forms.EmailField, gettext_lazy("Type your whole email address, like name@example.com.")),
    (forms.DateTimeField, gettext_lazy("Type a date and time that exist, like 3 March at 14:30.")),
    (forms.DateField, gettext_lazy("Type a date that exists, like 3 March.")),
    (forms.IntegerField, gettext_lazy("Type a whole number, like 3.")),
]


def _by_kind_of_answer(field: forms.Field, said: list[tuple[type[forms.Field], Any]]) -> Any:
    return next((words for kind, words in said if isinstance(field, kind)), None)


def _required(field: forms.Field) -> Any:
    if (words := _by_kind_of_answer(field, _WHEN_MISSING)) is not None:
        return words
    if isinstance(field.widget, forms.PasswordInput):
        return gettext_lazy("Type your password.")
    return gettext_lazy("Write a few words here first.")


def _invalid(field: forms.Field) -> Any:
    words = _by_kind_of_answer(field, _WHEN_UNREADABLE)
    return RELOAD if words is None else words


def _portal_words(field: forms.Field, code: str) -> Any:
    if field.widget.is_hidden:
        return RELOAD
    match code:
        case "required":
            return _required(field)
        case "invalid":
            return _invalid(field)
        case "invalid_choice" | "invalid_list":
            return CHOOSE_FROM_THESE
        case "max_length":
            return TOO_LONG
        case "null_characters_not_allowed":
            return NULL_CHARACTER
        case "max_value":
            return gettext_lazy("Choose a number no bigger than %(limit_value)s.")
        case "min_value":
            return gettext_lazy("Choose a number no smaller than %(limit_value)s.")
    return None


def _djangos(field: forms.Field, code: str) -> Any:
    for klass in type(field).__mro__:
        if klass.__module__.startswith("django.") and code in vars(klass).get(
            "default_error_messages", {}
        ):
            return vars(klass)["default_error_messages"][code]
    return None


# A field's error_messages replaces a validator's text too (Field.run_validators).
CODES = (
    "required",
    "invalid",
    "invalid_choice",
    "invalid_list",
    "max_length",
    "null_characters_not_allowed",
    "max_value",
    "min_value",
)


def in_portal_voice(field: forms.Field) -> None:
    for code in CODES:
        if code not in field.error_messages or field.error_messages[code] is _djangos(field, code):
            field.error_messages[code] = _portal_words(field, code)


class AccessibleBoundField(BoundField):
    """Errors read first by screen readers; text boxes follow the direction of what is typed."""

    def build_widget_attrs(
        self, attrs: dict[str, Any], widget: Widget | None = None
    ) -> dict[str, Any]:
        attrs = super().build_widget_attrs(attrs, widget)
        if isinstance(widget or self.field.widget, forms.Textarea | forms.TextInput):
            attrs.setdefault("dir", "auto")
        if self.errors and self.auto_id:
            error_id = f"{self.auto_id}_error"
            others = [i for i in str(attrs.get("aria-describedby", "")).split() if i != error_id]
            attrs["aria-describedby"] = " ".join(dict.fromkeys([error_id, *others]))
        return attrs


class PortalFormMessages(forms.BaseForm):
    bound_field_class = AccessibleBoundField

    def full_clean(self) -> None:
        # Here, not in __init__: some forms add fields after they are built.
        for field in self.fields.values():
            in_portal_voice(field)
        super().full_clean()
