"""Turning API JSON or a posted form into the flat form data a Django form reads. Anything that is
not one of the kind's fields, or has the wrong type, is refused here with a message rather than
crashing deep inside a field."""

from collections.abc import Mapping
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext as _

from homework.kinds.fields import MAX_CHOICES, KindForm
from homework.kinds.rows import ROW_KEY
from practice.form_messages import NULL_CHARACTER, too_long
from practice.text_limits import typed_length


def as_form_data(
    data: Mapping[str, Any], form: KindForm
) -> tuple[dict[str, Any], dict[str, list[str]]]:
    form_data: dict[str, Any] = {}
    errors: dict[str, list[str]] = {}
    nested: set[str] = set()
    flat: set[str] = set()

    def put(key: str, field: forms.Field, value: Any, name: str) -> None:
        converted, problem = _convert(field, value)
        if problem:
            errors[key] = [problem]
        elif converted is not None:
            form_data[name] = converted

    for key, value in data.items():
        if not isinstance(key, str):
            errors[str(key)] = [_("This is not a field of this exercise.")]
        elif key in form.fields:
            put(key, form.fields[key], value, form.add_prefix(key))
        elif key in form.row_sets:
            nested.add(key)
            _put_rows(key, value, form, put, errors)
        elif (match := ROW_KEY.match(key)) and form.row_sets.get(match["set"]):
            rows = form.row_sets[match["set"]]
            row_fields = rows.spec.fields()
            if match["field"] not in row_fields:
                errors[key] = [_("This is not a field of this exercise.")]
                continue
            flat.add(match["set"])
            put(
                key,
                row_fields[match["field"]],
                value,
                f"{rows.prefix}-{int(match['index'])}-{match['field']}",
            )
        else:
            errors[key] = [_("This is not a field of this exercise.")]
    for name in sorted(nested & flat):
        errors[name] = [_("Send these rows either as a list or as separate fields, not both.")]
    return form_data, errors


def typed_values(data: Mapping[str, Any], form: KindForm) -> list[Any]:
    """The words a person wrote, not the codes of the choices they picked."""
    values: list[Any] = []
    for key, value in data.items():
        if key in form.row_sets and isinstance(value, list):
            fields = form.row_sets[key].spec.fields()
            rows = [row for row in value if isinstance(row, Mapping)]
            values += [v for row in rows for name, v in row.items() if _typed(fields.get(name))]
        elif key in form.fields:
            values += [value] if _typed(form.fields[key]) else []
        elif (match := ROW_KEY.match(key)) and (rows_of := form.row_sets.get(match["set"])):
            values += [value] if _typed(rows_of.spec.fields().get(match["field"])) else []
    return values


def _typed(field: forms.Field | None) -> bool:
    return isinstance(field, forms.CharField)


def _put_rows(key: str, value: Any, form: KindForm, put: Any, errors: dict[str, list[str]]) -> None:
    rows = form.row_sets[key]
    if value is None:
        return
    if not isinstance(value, list):
        errors[key] = [_("Expected a list.")]
        return
    if len(value) > rows.spec.max_rows:
        errors[key] = [str(rows.spec.too_many) % {"limit": rows.spec.max_rows}]
        return
    row_fields = rows.spec.fields()
    for index, row in enumerate(value):
        if not isinstance(row, dict):
            errors[f"{key}-{index}"] = [_("Expected a set of answers (an object).")]
            continue
        for field_name, field_value in row.items():
            row_key = f"{key}-{index}-{field_name}"
            if field_name not in row_fields:
                errors[row_key] = [_("This is not a field of this exercise.")]
            else:
                put(
                    row_key,
                    row_fields[field_name],
                    field_value,
                    f"{rows.prefix}-{index}-{field_name}",
                )


def _convert(field: forms.Field, value: Any) -> tuple[Any, str]:
    if value is None:
        return None, ""
    if isinstance(field, forms.BooleanField):
        if isinstance(value, bool):
            return value, ""
        if isinstance(value, str) and value.lower() in {"", "on", "true", "false"}:
            return value, ""
        return None, _("Expected true or false.")
    if isinstance(field, forms.MultipleChoiceField):
        picks = [value] if isinstance(value, str) else value
        if not isinstance(picks, list) or not all(isinstance(pick, str) for pick in picks):
            return None, _("Expected a list of answers.")
        if len(picks) > MAX_CHOICES:
            return None, _("That is more answers than there are to choose from.")
        return picks, ""
    if isinstance(value, bool):
        return None, _("Expected text or a number, not true or false.")
    if isinstance(value, list | dict):
        return None, _("Expected a single value.")
    if isinstance(value, int | float):
        return str(value), ""
    if isinstance(value, str):
        # A browser counts a line break as one character but posts two: stored as one, it fits as
        # typed.
        return value.replace("\r\n", "\n"), ""
    return None, _("Expected text.")


def draft_from_form_data(
    form_data: dict[str, Any], bound: KindForm
) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Lenient on purpose: held only to the kind's own keys and each field's length; untouched rows
    are left out."""
    errors: dict[str, list[str]] = {}
    draft: dict[str, Any] = {}
    for name, field in bound.fields.items():
        posted = bound.add_prefix(name)
        if posted in form_data:
            value, problem = _draft_value(field, form_data[posted])
            if problem:
                errors[name] = [problem]
            else:
                draft[name] = value
    for name, rows in bound.row_sets.items():
        kept = []
        for row in rows.filled():
            values: dict[str, Any] = {}
            for field_name, field in row.fields.items():
                posted = row.add_prefix(field_name)
                if posted not in form_data:
                    continue
                value, problem = _draft_value(field, form_data[posted])
                if problem:
                    errors[posted.removeprefix(bound.add_prefix(""))] = [problem]
                else:
                    values[field_name] = value
            kept.append(values)
        if len(kept) > rows.spec.max_rows or rows.truncated:
            errors[name] = [str(rows.spec.too_many) % {"limit": rows.spec.max_rows}]
        elif kept:
            draft[name] = kept
    # No cap on the whole: per-field and per-row limits bound it as sending does.
    return draft, errors


def _draft_value(field: forms.Field, value: Any) -> tuple[Any, str]:
    if isinstance(field, forms.BooleanField):
        return (value if isinstance(value, bool) else value.lower() in {"on", "true"}), ""
    texts = value if isinstance(value, list) else [value]
    limit = getattr(field, "max_length", None) or settings.SHORT_TEXT_MAX_CHARS
    for text in texts:
        if typed_length(text) > limit:
            return None, too_long(limit=limit, length=typed_length(text))
        if "\x00" in text:
            return None, str(NULL_CHARACTER)
    return value, ""
