"""The portal's voice for the rules every form shares.

Django's own error texts ("This field is required.", "Enter a valid
date/time.", "Ensure this value has at most 2000 characters (it has
2301).") are written for developers and staff. A client meets the same
rules in plain, warm words that say what to do, and never see what they
sent repeated back (it may be a page long). Every portal form takes its
words from here, through ``PortalFormMessages``; a field that says something of
its own keeps it. The admin keeps Django's words: staff know them.
"""

from typing import Any

from django import forms
from django.forms import BoundField, Widget
from django.utils.translation import gettext_lazy

from practice.text_limits import TOO_LONG, grouped_count, too_long

# Django's "This field is required." is cold for someone writing about a hard
# day; every kind's form says it in the product's voice instead.
SCALE_NEEDED = gettext_lazy("Choose a number from 0 to 10 — any number is fine.")
# A character no keyboard types (pasted from somewhere odd); the database cannot keep it.
NULL_CHARACTER = gettext_lazy(
    "Part of this could not be saved (a hidden character came with what was pasted). "
    "Please type it again."
)
CHOOSE_FROM_THESE = gettext_lazy("Choose one of the answers here.")
# Hidden fields the page fills in itself: only an old or altered page fails them.
RELOAD = gettext_lazy("This page is out of date. Please reload it and try again.")

# The length rule's words are the base's (practice.text_limits), re-exported for the portal's forms.
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


# What to say, by the kind of answer: the first class the field is an
# instance of speaks, so a subclass comes before its base (a multiple choice
# is a choice).
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
    """What to say when a needed answer is missing, by the kind of answer."""
    if (words := _by_kind_of_answer(field, _WHEN_MISSING)) is not None:
        return words
    if isinstance(field.widget, forms.PasswordInput):
        return gettext_lazy("Type your password.")
    return gettext_lazy("Write a few words here first.")


def _invalid(field: forms.Field) -> Any:
    """What to say when an answer cannot be read, by the kind of answer."""
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
    """Django's own text for ``code`` on this kind of field, if it has one."""
    for klass in type(field).__mro__:
        if klass.__module__.startswith("django.") and code in vars(klass).get(
            "default_error_messages", {}
        ):
            return vars(klass)["default_error_messages"][code]
    return None


# The codes a client can meet. Some are the field's own ("required"), some
# a validator's ("max_length", and "invalid" on an email); a field's
# error_messages replaces a validator's text too (Field.run_validators).
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
    """Give ``field`` the portal's words wherever it would say Django's."""
    for code in CODES:
        if code not in field.error_messages or field.error_messages[code] is _djangos(field, code):
            field.error_messages[code] = _portal_words(field, code)


class AccessibleBoundField(BoundField):
    """Ties a field's error message to its input, so a screen reader reads it.

    Django 5.2 already adds the error's id to ``aria-describedby`` (after the
    help text's); this only moves it first, so the error is read before the
    help, and never names it twice (a doubled id makes the error read twice).
    It also adds it where Django leaves ``aria-describedby`` out.

    A box to write in runs in the direction of what is typed in it
    (``dir="auto"``): a client writing Arabic or Hebrew sees their sentence
    from the right, its full stop at its end, on a page that runs left to right.
    """

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
    """Base (or mixin, before a Django form) of every form a client fills in:
    errors tied to their inputs, in the portal's words."""

    bound_field_class = AccessibleBoundField

    def full_clean(self) -> None:
        # Here rather than in __init__: the worksheet adds its questions'
        # fields after the form is built, and Django's auth forms build theirs
        # in their own __init__. Each form has its own copy of its fields.
        for field in self.fields.values():
            in_portal_voice(field)
        super().full_clean()
