"""The interface every exercise kind implements.

A kind owns everything that depends on what a response contains: its schema
and validation, the portal form, how an entry is shown, and its part of the
session summary. Code outside this package asks the registry for the kind
and calls these methods; it never branches on a kind's name.
"""

import datetime as dt
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

    from homework.models import Entry, Exercise

JSONDict = dict[str, Any]

# A draft is stored as typed so far; this bounds what one draft may hold.
MAX_DRAFT_BYTES = 256 * 1024


class ResponseInvalid(Exception):
    """A response (or draft) was refused. ``errors`` maps field name to messages."""

    def __init__(self, errors: Mapping[str, list[str]]) -> None:
        super().__init__(errors)
        self.errors = dict(errors)


@dataclass(frozen=True)
class Field:
    """One scalar response field: its key (kept stable: the API exposes it) and label."""

    key: str
    label: str


class ExerciseKind:
    slug: ClassVar[str]
    label: ClassVar["StrOrPromise"]
    schema_version: ClassVar[int] = 1
    # Logs take any number of entries; other kinds one per occurrence.
    is_log: ClassVar[bool] = False
    form_class: ClassVar[type[forms.Form]]

    # -- templates: templates/homework/kinds/<slug>/{form,display,summary}.html
    @property
    def form_template(self) -> str:
        return f"homework/kinds/{self.slug}/form.html"

    @property
    def display_template(self) -> str:
        return f"homework/kinds/{self.slug}/display.html"

    @property
    def summary_template(self) -> str:
        return f"homework/kinds/{self.slug}/summary.html"

    # -- the exercise's own options (e.g. a worksheet's questions)
    # An example of valid options, shown to staff beside the options field in
    # the admin; None means this kind takes no options.
    options_example: ClassVar[JSONDict | None] = None

    def clean_options(self, options: Any) -> JSONDict:
        if options in (None, "", {}):
            return {}
        raise ResponseInvalid({"options": [_("This kind of exercise takes no options.")]})

    # -- the portal form
    def initial(self, *, exercise: "Exercise") -> JSONDict:
        """Values a new, empty form starts with (in the client's time zone)."""
        return {}

    def form(
        self,
        *,
        exercise: "Exercise",
        data: Mapping[str, Any] | None = None,
        initial: Mapping[str, Any] | None = None,
    ) -> forms.Form:
        return self.form_class(data=data, initial=dict(initial or {}), prefix="r")

    # -- validation
    def validate(self, data: Mapping[str, Any], *, exercise: "Exercise", tz: str) -> JSONDict:
        """Full validation for a submitted response; returns JSON-ready data."""
        self._refuse_unknown_keys(data, exercise=exercise)
        fields = self.form(exercise=exercise).fields
        form = self.form(exercise=exercise, data=_as_form_data(data, fields))
        with timezone.override(tz):
            if not form.is_valid():
                raise ResponseInvalid(
                    {
                        name.removeprefix("r-"): [str(m) for m in msgs]
                        for name, msgs in form.errors.items()
                    }
                )
            return self.to_json(form.cleaned_data)

    def validate_draft(self, data: Mapping[str, Any], *, exercise: "Exercise", tz: str) -> JSONDict:
        """Lenient validation for a draft: what was typed so far, bounded in size.

        A draft may be incomplete or not yet valid, but it may hold only the
        kind's own keys, each a string no longer than the field allows.
        """
        self._refuse_unknown_keys(data, exercise=exercise)
        fields = self.form(exercise=exercise).fields
        errors: dict[str, list[str]] = {}
        draft: JSONDict = {}
        for key, value in data.items():
            if not isinstance(value, str):
                errors[key] = [_("Expected text.")]
            elif len(value) > _max_length(fields[key]):
                errors[key] = [
                    _("This is longer than %(limit)s characters.")
                    % {"limit": _max_length(fields[key])}
                ]
            elif "\x00" in value:
                errors[key] = [_("Null characters are not allowed.")]
            else:
                draft[key] = value
        if errors:
            raise ResponseInvalid(errors)
        if len(json.dumps(draft)) > MAX_DRAFT_BYTES:
            raise ResponseInvalid({"__all__": [_("This draft is too large to save.")]})
        return draft

    def to_json(self, cleaned: Mapping[str, Any]) -> JSONDict:
        """Cleaned form data → JSON-ready values (datetimes as ISO 8601)."""
        return {
            key: value.isoformat() if hasattr(value, "isoformat") else value
            for key, value in cleaned.items()
        }

    def upgrade(self, response: JSONDict, from_version: int) -> JSONDict:
        """Bring a response stored under an older schema up to the current one."""
        return response

    # -- showing an entry
    def present(self, entry: "Entry") -> JSONDict:
        """Template context for an entry's display (admin, portal history, export)."""
        return {"response": self.upgrade(entry.response, entry.schema_version)}

    def excerpt(self, entry: "Entry") -> str:
        """One line a therapist can scan in a list."""
        return ""

    def happened_at(self, entry: "Entry") -> dt.datetime:
        """When what the entry is about happened, for putting records in order
        (the client's export). By default: when it was sent, or started."""
        return entry.submitted_at or entry.created_at

    def summary_context(self, entries: Sequence["Entry"], *, full_detail: bool = False) -> JSONDict:
        """Data for this kind's section of the session summary.

        ``entries`` are the client's shared, submitted entries of this kind in
        the period (never private ones). ``full_detail`` asks for whole texts
        instead of excerpts (and, for the most sensitive kinds, their content
        at all).
        """
        return {"entries": [(entry, self.present(entry)) for entry in entries]}

    def at_a_glance(self, entries: Sequence["Entry"]) -> list[str]:
        """One-line facts for the summary's first page (e.g. days without contact)."""
        return []

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.slug}>"

    # -- helpers
    def _refuse_unknown_keys(self, data: Mapping[str, Any], *, exercise: "Exercise") -> None:
        known = set(self.form(exercise=exercise).fields)
        unknown = sorted(set(data) - known)
        if unknown:
            raise ResponseInvalid(
                {key: [_("This is not a field of this exercise.")] for key in unknown}
            )


def _as_form_data(data: Mapping[str, Any], fields: Mapping[str, forms.Field]) -> dict[str, Any]:
    """JSON values → what a browser would post, refusing the wrong types.

    Form fields expect one string each (booleans for check boxes); JSON may
    carry lists, objects or ``true`` where text belongs. Those are refused
    here with a message, rather than left to crash deep inside a field.
    """
    form_data: dict[str, Any] = {}
    errors: dict[str, list[str]] = {}
    for key, value in data.items():
        is_checkbox = isinstance(fields[key], forms.BooleanField)
        if value is None:
            continue
        if isinstance(value, bool) and not is_checkbox:
            errors[key] = [_("Expected text or a number, not true or false.")]
        elif isinstance(value, list | dict):
            errors[key] = [_("Expected a single value.")]
        elif isinstance(value, int | float) and not isinstance(value, bool):
            form_data[f"r-{key}"] = str(value)
        else:
            form_data[f"r-{key}"] = value
    if errors:
        raise ResponseInvalid(errors)
    return form_data


def _max_length(field: forms.Field) -> int:
    return getattr(field, "max_length", None) or settings.SHORT_TEXT_MAX_CHARS
