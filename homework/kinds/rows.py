"""Repeatable rows inside a kind's form, posted as ``r-<name>-<index>-<field>`` and stored as a list
under ``<name>``. A row nobody touched is left out: an empty row is not an answer."""

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django import forms

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise as Text

    from homework.kinds.fields import KindForm

ROW_KEY = re.compile(r"^(?P<set>[a-z][a-z0-9_]*)-(?P<index>\d{1,4})-(?P<field>[a-z][a-z0-9_]*)$")
EMPTY_PREFIX = "__prefix__"


@dataclass(frozen=True)
class RowSpec:
    form_class: type["KindForm"]
    row_label: "Text"
    legend: "Text"
    add_label: "Text"
    max_rows: int
    too_many: "Text"
    min_rows: int = 0
    too_few: "Text" = ""
    extra: int = 1
    # Rows already written are shown folded to one line (a name, how close), so a long list
    # fits on a phone; each opens to change it.
    folds: bool = False

    def fields(self) -> dict[str, forms.Field]:
        return dict(self.form_class.base_fields)


class RowSet:
    def __init__(self, *, name: str, spec: RowSpec, parent: "KindForm") -> None:
        self.name = name
        self.spec = spec
        self.prefix = parent.add_prefix(name)
        self.set_errors: list[str] = []
        self.truncated = False
        if parent.is_bound:
            indexes = posted_indexes(parent.data, self.prefix)
            # A post may name thousands of rows; build only what a real page could.
            if len(indexes) > spec.max_rows + spec.extra:
                self.truncated = True
                indexes = indexes[: spec.max_rows + spec.extra]
            self.forms = [
                spec.form_class(
                    data=parent.data,
                    prefix=f"{self.prefix}-{index}",
                    empty_permitted=True,
                    use_required_attribute=False,
                )
                for index in indexes
            ]
        else:
            rows = parent.initial.get(name)
            kept = [row for row in rows if isinstance(row, dict)] if isinstance(rows, list) else []
            kept = kept[: spec.max_rows]
            blanks = min(spec.extra, spec.max_rows - len(kept))
            self.forms = [
                spec.form_class(
                    initial=row, prefix=f"{self.prefix}-{index}", use_required_attribute=False
                )
                for index, row in enumerate([*kept, *([{}] * blanks)])
            ]
        self.empty_form = spec.form_class(
            prefix=f"{self.prefix}-{EMPTY_PREFIX}", use_required_attribute=False
        )

    def __iter__(self) -> Iterator["KindForm"]:
        return iter(self.forms)

    def with_folds(self) -> list[tuple["KindForm", tuple[str, str]]]:
        """Each row with the line it folds to: none for a row shown open (new, or sent back)."""
        return [
            (form, ("", "") if form.is_bound or not self.spec.folds else fold_line(form))
            for form in self.forms
        ]

    @property
    def next_index(self) -> int:
        return max((_index_of(form.prefix) for form in self.forms), default=-1) + 1

    def filled(self) -> list["KindForm"]:
        return [form for form in self.forms if form.has_changed()]

    def is_valid(self) -> bool:
        self.set_errors = []
        filled = self.filled()
        if self.truncated or len(filled) > self.spec.max_rows:
            self.set_errors.append(str(self.spec.too_many) % {"limit": self.spec.max_rows})
        elif len(filled) < self.spec.min_rows:
            self.set_errors.append(str(self.spec.too_few))
        # No short cut, so each row shows its own errors.
        invalid = [form for form in self.forms if not form.is_valid()]
        return not invalid and not self.set_errors

    def cleaned_rows(self) -> list[dict[str, Any]]:
        return [form.cleaned_data for form in self.filled()]

    def row_errors(self) -> dict[str, list[str]]:
        errors: dict[str, list[str]] = {}
        for form in self.forms:
            index = _index_of(form.prefix)
            for field, messages in form.errors.items():
                key = (
                    f"{self.name}-{index}" if field == "__all__" else f"{self.name}-{index}-{field}"
                )
                errors[key] = [str(m) for m in messages]
        return errors

    def owns_key(self, key: str) -> bool:
        match = ROW_KEY.match(key)
        return bool(match and match["set"] == self.name and match["field"] in self.spec.fields())


def fold_line(row: "KindForm") -> tuple[str, str]:
    """The row's first words and its first choice, as static/js/rows.js finds them too."""
    words = choice = ""
    for name, field in row.fields.items():
        value = row.initial.get(name)
        if not words and isinstance(field, forms.CharField) and isinstance(value, str):
            words = value.strip()
        elif (
            not choice
            and isinstance(field, forms.ChoiceField)
            and not isinstance(field, forms.MultipleChoiceField)
        ):
            labels: dict[Any, Any] = dict(field.choices)  # type: ignore[arg-type]  # flat here
            choice = str(labels.get(value, ""))
    return (words, choice) if words else ("", "")


def posted_indexes(data: Mapping[str, Any], prefix: str) -> list[int]:
    start = f"{prefix}-"
    found: set[int] = set()
    for key in data:
        if not isinstance(key, str) or not key.startswith(start):
            continue
        index, _sep, field = key.removeprefix(start).partition("-")
        # ASCII digits only: "²".isdigit() is true, and int() refuses it.
        if index.isascii() and index.isdigit() and len(index) <= 4 and field:
            found.add(int(index))
    return sorted(found)


def _index_of(prefix: str | None) -> int:
    tail = (prefix or "").rsplit("-", 1)[-1]
    return int(tail) if tail.isascii() and tail.isdigit() else -1
