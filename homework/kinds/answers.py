"""A response's answers as the shared hooks read them: JSON-ready, as the
form asks them, and as text to compare side by side."""

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext as _

from homework.kinds.fields import KindForm
from homework.kinds.values import JSONDict


def json_ready(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, list):
        return [json_ready(item) for item in value]
    if isinstance(value, dict):
        return {key: json_ready(item) for key, item in value.items()}
    return value


def asked_as(key: str, field: forms.Field) -> JSONDict:
    asked: JSONDict = {"key": key, "text": str(field.label or key)}
    choices = getattr(field, "choices", None)
    if choices:
        # A blank choice ("not answered") is never stored, so it is not listed.
        asked["choices"] = {str(value): str(words) for value, words in choices if value != ""}
    return asked


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return _("Yes") if value else _("No")
    if isinstance(value, list):
        return ", ".join(_as_text(item) for item in value)
    return str(value)


def flatten(form: KindForm, response: Mapping[str, Any]) -> dict[str, tuple[str, str]]:
    """key → (label, text) for every answer, rows numbered."""
    flat: dict[str, tuple[str, str]] = {}
    for name, field in form.fields.items():
        if name in response:
            flat[name] = (str(field.label), _as_text(response[name]))
    for name, rows in form.row_sets.items():
        listed = response.get(name)
        if not isinstance(listed, list):
            continue
        for index, row in enumerate(listed):
            if not isinstance(row, dict):
                continue
            for field_name, field in rows.spec.fields().items():
                if field_name in row:
                    label = f"{rows.spec.row_label} {index + 1}: {field.label}"
                    flat[f"{name}-{index}-{field_name}"] = (label, _as_text(row[field_name]))
    for name, value in response.items():
        if name not in flat and name not in form.row_sets:
            flat[name] = (name, _as_text(value))
    return flat
